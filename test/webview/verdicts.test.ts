// Human verdicts in the inspector, in Chromium against a fake host that keeps verdicts with the real core
// (core/verdicts): y / x / c on the open case and on a Ctrl-click multi-selection, the verdict bar, and the judge's
// agreement with them in the summary, each disagreeing case one click away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { GetCase, GetRun, GetVerdicts, ListRuns, SetVerdicts, isEnvelope } from '../../src/protocol.js';
import type { VerdictChange } from '../../src/protocol.js';
import type { VerdictLine } from '../../src/core/verdicts/model.js';
import { VerdictIndex } from '../../src/core/verdicts/store.js';
import { buildVerdictsView, verdictLines } from '../../src/core/verdicts/view.js';
import { MODELS, rgbRun } from './builders.js';
import type { FixtureRun } from './builders.js';
import { collectPageErrors, cspViolations, screenshotPath, useBrowser, waitFor } from './harness.js';

const session = useBrowser();

class VerdictHost {
  readonly changes: VerdictChange[] = [];
  private readonly lines: VerdictLine[] = [];
  constructor(private readonly page: Page, private readonly run: FixtureRun) {}

  async attach(): Promise<void> {
    await this.page.exposeBinding('__hostPost', (_source, json: string) => this.receive(JSON.parse(json)));
    await this.page.exposeBinding('__hostState', () => undefined);
  }

  private view() {
    return buildVerdictsView(this.run.cases, new VerdictIndex(this.lines));
  }

  private receive(message: unknown): void {
    if (!isEnvelope(message)) return;
    const reply = (m: unknown) => void this.page.evaluate((x) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(x, '*'), m);
    if (ListRuns.is(message)) reply(ListRuns.respond(message.id, [this.run.detail.listing]));
    else if (GetRun.is(message)) reply(GetRun.respond(message.id, this.run.detail));
    else if (GetCase.is(message)) reply(GetCase.respond(message.id, this.run.cases.find((c) => `${c.evalCase.id}\u0000${c.result.modelKey}` === message.params.key)!));
    else if (GetVerdicts.is(message)) reply(GetVerdicts.respond(message.id, this.view()));
    else if (SetVerdicts.is(message)) {
      const { change } = message.params;
      this.changes.push(change);
      const entries = this.run.cases.filter((c) => change.keys.includes(`${c.evalCase.id}\u0000${c.result.modelKey}`));
      this.lines.push(...verdictLines(entries, change));
      reply(SetVerdicts.respond(message.id, this.view()));
    }
  }
}

const key = (t: number) => `rgb-noise/${t}/noise=0\u0000${MODELS[0]}`;
const row = (page: Page, t: number) => page.locator(`ri-case-list .row[data-case="rgb-noise/${t}/noise=0"][data-model="${MODELS[0]}"]`);

test('y / x / c mark the open case and a multi-selection; the summary shows agreement and opens a disagreeing case', async () => {
  const run = rgbRun({ runId: 'run-v', name: 'RGB noise', createdAt: '2025-05-01T10:00:00.000Z' });
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 850 } });
  const errors = collectPageErrors(page);
  const host = new VerdictHost(page, run);
  await host.attach();
  await page.goto(session.server.setPage({ runs: [], vscode: true, theme: 'light' }));
  await page.locator('[role="tab"]#tab-cases').click();
  await row(page, 0).click();
  await page.locator('ri-case-view h2').waitFor();
  const bar = page.locator('ri-verdict-bar');

  await page.keyboard.press('y');
  await waitFor(() => host.changes.length === 1, 'the first verdict');
  assert.deepEqual(host.changes[0], { keys: [key(0)], label: 'correct' });
  await bar.locator('.state.correct').waitFor();

  await row(page, 1).click({ modifiers: ['Control'] });
  await row(page, 2).click({ modifiers: ['Control'] });
  assert.equal(await page.locator('ri-case-list .row.marked').count(), 3, 'the open case joins the Ctrl-click marks');
  assert.match(await bar.locator('.bar').innerText(), /3 selected cases/);
  await page.keyboard.press('x');
  await waitFor(() => host.changes.length === 2, 'the multi-selection verdict');
  assert.deepEqual({ ...host.changes[1], keys: [...host.changes[1]!.keys].sort() }, { keys: [key(0), key(1), key(2)].sort(), label: 'wrong' });

  await row(page, 0).click();
  assert.equal(await page.locator('ri-case-list .row.marked').count(), 0, 'a plain click clears the marks');
  await page.keyboard.press('c');
  const note = bar.locator('input.note-input');
  await note.waitFor();
  await note.fill('cites the counterfactual passage');
  await note.press('Enter');
  await waitFor(() => host.changes.length === 3, 'the note');
  assert.deepEqual(host.changes[2], { keys: [key(0)], label: null, note: 'cites the counterfactual passage' });
  await bar.locator('.note').waitFor();
  assert.match(await bar.locator('.bar').innerText(), /✗ wrong/, 'a note keeps the label');
  assert.equal(await row(page, 2).locator('.human.wrong').getAttribute('aria-label'), 'you: wrong', 'the list shows the verdict');
  await page.screenshot({ path: screenshotPath('verdicts-case') });

  await page.locator('[role="tab"]#tab-summary').click();
  const correct = page.locator('ri-agreement-view section[data-metric="correct"]');
  await correct.waitFor();
  await correct.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('verdicts-agreement') });
  // Verdicts are keyed by the rendered request and response: this fixture's noise ratios render the same prompt and
  // get the same answer, so a verdict on rgb-noise/0/noise=0 also holds for rgb-noise/0/noise=0.4, and so on.
  // Marked wrong: /0 (pass, 2 cases), /1 (pass, 2 cases), /2 (fail, 1 case) → the judge agrees on 1 of 5.
  assert.match(await correct.locator('p').first().innerText(), /agrees with you on 20 % of 5 cases/);
  assert.deepEqual(await correct.locator('tbody td').allInnerTexts(), ['0', '4', '0', '1']);
  assert.equal(await correct.locator('.kappa').innerText(), 'undefined', 'every verdict was "wrong": κ says nothing');
  await correct.locator('.disagreements button', { hasText: /^rgb-noise\/1\/noise=0 on / }).click();
  await waitFor(async () => (await page.locator('ri-case-list .row.open').getAttribute('data-key')) === key(1), 'the disagreeing case opens');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});
