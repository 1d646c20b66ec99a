// The exported HTML report opened from a file in Chromium: it runs under its own hash CSP, reads its embedded
// run, renders hostile data as text, and follows the reader's light / dark setting; plus the panel's themes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { renderHtmlReport } from '../../src/core/report/html.js';
import { HOSTILE_TEXT, JUDGE_ERROR_CASE, MODELS, rgbRun } from './builders.js';
import { collectPageErrors, computedStyle, cspViolations, launch, screenshotPath, seedViewState, serve, webviewBundle } from './harness.js';
import type { TestServer } from './harness.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

let browser: Browser;
let server: TestServer;
let reportUrl: string;

const run = rgbRun({ runId: 'run-1', name: 'RGB noise </script><script>alert(1)</script>', createdAt: '2025-05-01T10:00:00.000Z', hostile: true });

before(async () => {
  browser = await launch();
  server = await serve();
  const html = renderHtmlReport(run.detail, run.cases, await webviewBundle());
  const file = join(mkdtempSync(join(tmpdir(), 'rag-inspector-report-')), 'report.html');
  writeFileSync(file, html);
  reportUrl = pathToFileURL(file).href;
});
after(async () => {
  await browser?.close();
  await server?.close();
});

async function openReport(colorScheme: 'light' | 'dark'): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, colorScheme });
  const errors = collectPageErrors(page);
  await page.goto(reportUrl);
  await page.locator('ri-run-summary').waitFor();
  return { page, errors };
}

test('the report runs its bundle under its hash CSP and shows the embedded run', async () => {
  const { page, errors } = await openReport('dark');
  assert.match(await page.title(), /RAG Inspector — RGB noise <\/script><script>alert\(1\)<\/script>/, 'the title is text');
  await page.locator('ri-report-table').first().waitFor();
  assert.equal(await page.locator('ri-line-chart').count(), 1);
  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator(`ri-case-list .row[data-case="rgb-noise/0/noise=0"][data-model="${MODELS[0]}"]`).click();
  const hostile = page.locator('ri-document-card[data-doc-id="d4"] .text');
  await hostile.waitFor();
  assert.equal(await hostile.evaluate((el) => el.textContent), HOSTILE_TEXT);
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.evaluate('window.__xss'), undefined);
  assert.deepEqual(errors, [], 'no alert, no error, no CSP report');
  await page.screenshot({ path: screenshotPath('report-dark-hostile'), fullPage: false });
  await page.close();
});

test('the report follows prefers-color-scheme with VS Code\'s default colours', async () => {
  const dark = await openReport('dark');
  const light = await openReport('light');
  const background = (page: Page) => computedStyle(page.locator('body'), 'background-color');
  assert.equal(await background(dark.page), 'rgb(31, 31, 31)');
  assert.equal(await background(light.page), 'rgb(255, 255, 255)');
  assert.equal(await light.page.locator('body').getAttribute('class'), 'vscode-light');
  await light.page.screenshot({ path: screenshotPath('report-light-summary') });
  await light.page.locator('[role="tab"]#tab-cases').click();
  await light.page.locator(`ri-case-list .row[data-case="${JUDGE_ERROR_CASE}"][data-model="${MODELS[0]}"]`).click();
  await light.page.locator('ri-case-view h2').waitFor();
  await light.page.screenshot({ path: screenshotPath('report-light-case') });
  assert.deepEqual(dark.errors, []);
  assert.deepEqual(light.errors, []);
  await dark.page.close();
  await light.page.close();
});

for (const theme of ['dark', 'light', 'highContrast'] as PaletteName[]) {
  test(`VS Code ${theme} theme: summary, case and compare views (screenshots in test/webview/.screenshots)`, async () => {
    const later = rgbRun({ runId: 'run-2', name: 'RGB noise (new template)', createdAt: '2025-05-02T10:00:00.000Z', variant: 'after' });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors = collectPageErrors(page);
    await seedViewState(page, { runId: 'run-1', view: 'summary' });
    await page.goto(server.setPage({ runs: [run, later], theme }));
    await page.locator('ri-line-chart').waitFor();
    await page.screenshot({ path: screenshotPath(`vscode-${theme}-summary`) });
    await page.locator('[role="tab"]#tab-cases').click();
    await page.locator(`ri-case-list .row[data-case="${JUDGE_ERROR_CASE}"][data-model="${MODELS[0]}"]`).click();
    await page.locator('ri-case-view h2').waitFor();
    await page.locator('ri-case-list .viewport').focus();
    await page.screenshot({ path: screenshotPath(`vscode-${theme}-case`) });
    await page.locator('ri-case-view ri-span-legend').scrollIntoViewIfNeeded();
    await page.locator('ri-score-list button.evidence-link').first().click();
    await page.locator('ri-document-card mark.flash').first().waitFor();
    await page.screenshot({ path: screenshotPath(`vscode-${theme}-documents`) });
    await page.locator('[role="tab"]#tab-compare').click();
    await page.locator('ri-compare-view article').first().waitFor();
    await page.screenshot({ path: screenshotPath(`vscode-${theme}-compare`) });
    if (theme === 'highContrast') {
      // High contrast draws borders where other themes use a background.
      assert.equal(await computedStyle(page.locator('ri-compare-view article'), 'border-top-color'), 'rgb(111, 195, 223)');
    }
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(errors, []);
    await page.close();
  });
}
