// The one-folder method (test/fixtures/methods/answer-contains) seen by a user: registered by its one line, run through
// the CLI against a real HTTP model, and its HTML report opened in Chromium — the method's table, its failed case with
// the method's own explanation, and the document drawn by role with the method's answer span.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { main } from '../../src/cli/main.js';
import { answerContainsWorkspace } from '../fixtures/answerContainsWorkspace.js';
import { startFixtureServer } from '../fixtures/llmServer.js';
import type { FixtureServer } from '../fixtures/llmServer.js';
import { collectPageErrors, launch, screenshotPath } from './harness.js';

let browser: Browser;
let server: FixtureServer;

before(async () => {
  browser = await launch();
  server = await startFixtureServer({ rules: [{ reply: 'The capital of France is Paris.' }] });
});
after(async () => {
  await browser?.close();
  await server?.close();
});

test('a method from one folder shows in the HTML report like a bundled one', async (t) => {
  await import('../fixtures/methods/answer-contains/register.js');
  const { dir, evalFile } = answerContainsWorkspace(server.openaiBaseUrl);
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const out = path.join(dir, 'reports');
  assert.equal(await main(['run', evalFile, '--out', out, '--quiet']), 0, 'no threshold: a failed case is a finding, not a failed run');

  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const errors = collectPageErrors(page);
  await page.goto(pathToFileURL(path.join(out, 'report.html')).href);
  await page.locator('ri-run-summary').waitFor();
  const table = page.locator('ri-report-table table').first();
  await table.waitFor();
  assert.match((await table.textContent()) ?? '', /contains[\s\S]*0\.5/, "the method's table with its metric");

  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator('ri-case-list .row[data-case="capitals/italy"]').click();
  const explanation = page.locator('ri-score-list .explanation').first();
  await explanation.waitFor();
  assert.equal(await explanation.textContent(), 'the response does not contain "Rome"', "the method's own explanation");
  await page.locator('ri-case-list .row[data-case="capitals/france"]').click();
  const span = page.locator('ri-document-card .text mark').first();
  await span.waitFor();
  assert.equal(await span.textContent(), 'Paris', "the method's answer span is highlighted in its document");
  await page.screenshot({ path: screenshotPath('one-folder-method-report'), fullPage: false });
  assert.deepEqual(errors, []);
  await page.close();
});
