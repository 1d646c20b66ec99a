// An interrupted run in the inspector (real Chromium, the panel's CSP): badge "interrupted", Resume run in place of
// Cancel run (by keyboard too), the ResumeRun command sent once however often it is pressed; a run still going keeps
// Cancel and turns interrupted when the host lists it so; a static report shows the badge but no action.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { CancelRun, GetRun, ListRuns, ResumeRun, RunStarted, isEnvelope } from '../../src/protocol.js';
import type { RunListing } from '../../src/protocol.js';
import { rgbRun } from './builders.js';
import type { FixtureRun } from './builders.js';
import { collectPageErrors, cspViolations, screenshotPath, seedViewState, waitFor, useBrowser } from './harness.js';

const session = useBrowser();


/** A run as the extension lists one with no summary: 'started', its first cases only, no totals. */
function startedRun(runId: string, name: string, createdAt: string, flags: Pick<RunListing, 'interrupted'>): FixtureRun {
  const run = rgbRun({ runId, name, createdAt });
  const listing: RunListing = { ...run.detail.listing, status: 'started', totals: undefined, ...flags };
  return { detail: { ...run.detail, listing, reports: [], thresholds: [], cases: run.detail.cases.slice(0, 7) }, cases: run.cases.slice(0, 7) };
}

const finished = rgbRun({ runId: 'run-1', name: 'RGB noise', createdAt: '2025-05-01T10:00:00.000Z' });
const interrupted = startedRun('run-cut', 'RGB noise (cut)', '2025-05-03T10:00:00.000Z', { interrupted: true });
const running = startedRun('run-going', 'RGB noise (terminal)', '2025-05-02T10:00:00.000Z', {});

/** Answers ListRuns and GetRun from fixture runs and records what the view sends. */
async function openWithHost(runs: FixtureRun[], beforeLoad?: (page: Page) => Promise<void>): Promise<{ page: Page; received: unknown[]; send(message: unknown): Promise<void>; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1200, height: 700 } });
  await beforeLoad?.(page);
  const errors = collectPageErrors(page);
  const received: unknown[] = [];
  const send = (message: unknown) => page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, origin: string): void }).postMessage(m, '*'), message);
  await page.exposeBinding('__hostPost', (_source, json: string) => {
    const message: unknown = JSON.parse(json);
    received.push(message);
    if (!isEnvelope(message)) return;
    if (ListRuns.is(message)) void send(ListRuns.respond(message.id, runs.map((r) => r.detail.listing)));
    else if (GetRun.is(message)) {
      const run = runs.find((r) => r.detail.listing.runId === message.params.runId);
      void send(run ? GetRun.respond(message.id, run.detail) : GetRun.fail(message.id, { code: 'not-found', message: `no run ${message.params.runId}` }));
    }
  });
  await page.exposeBinding('__hostState', () => undefined);
  await page.goto(session.server.setPage({ runs: [], vscode: true, theme: 'dark' }));
  return { page, received, send, errors };
}

async function pick(page: Page, runId: string): Promise<void> {
  await page.locator('vscode-single-select.run').evaluate((el, id) => {
    (el as unknown as { value: string }).value = id;
    el.dispatchEvent(new Event('change'));
  }, runId);
}

/** The text of the focused element, through shadow roots (focus inside the app is the app's shadow root's). */
function focusedText(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    type Focusable = { activeElement: Focusable | null; shadowRoot?: Focusable | null; textContent?: string | null };
    let at = (globalThis as unknown as { document: Focusable }).document.activeElement;
    while (at?.shadowRoot?.activeElement) at = at.shadowRoot.activeElement;
    return at?.textContent?.trim();
  });
}

const badge = (page: Page) => page.locator('header.bar .badge');
const button = (page: Page, text: string) => page.locator('header.bar vscode-button', { hasText: text });

test('an interrupted run: badge, Resume run by keyboard sends ResumeRun; a run still going keeps Cancel; resuming turns it back to started', async () => {
  const { page, received, send, errors } = await openWithHost([finished, interrupted, running]);
  // The newest run opens first: the interrupted one.
  await waitFor(async () => (await badge(page).innerText()) === 'interrupted', 'interrupted badge');
  assert.equal(await button(page, 'Resume run').count(), 1);
  assert.equal(await button(page, 'Cancel run').count(), 0, 'nothing to cancel in a run nothing runs');
  assert.equal(await page.locator('header.bar .progress').count(), 0);
  assert.match(await page.locator('vscode-single-select.run .select-face .text').innerText(), /^RGB noise \(cut\) · interrupted · /);
  await page.locator('header.bar').screenshot({ path: screenshotPath('interrupted-run-dark') });

  // Keyboard: Tab from the run picker reaches Resume run (the badge is not a stop), Enter presses it.
  await page.locator('vscode-single-select.run').focus();
  await page.keyboard.press('Tab');
  assert.equal(await focusedText(page), 'Resume run');
  await page.keyboard.press('Enter');
  await waitFor(() => received.some((m) => ResumeRun.is(m) && m.params.runId === 'run-cut'), 'ResumeRun sent');
  // Until the run starts again the button says so and takes no second click.
  await waitFor(async () => (await button(page, 'Resuming…').count()) === 1, 'Resuming…');
  assert.equal(await button(page, 'Resuming…').getAttribute('aria-disabled'), 'true');
  await page.locator('header.bar').screenshot({ path: screenshotPath('interrupted-run-resuming-dark') });
  await button(page, 'Resuming…').click({ force: true });
  await page.keyboard.press('Enter');
  await page.waitForTimeout(200);
  assert.equal(received.filter((m) => ResumeRun.is(m)).length, 1);

  // A started run that is not interrupted (a terminal still writing it) is shown as before.
  await pick(page, 'run-going');
  await waitFor(async () => (await badge(page).innerText()) === 'started', 'started badge');
  assert.equal(await button(page, 'Resume run').count(), 0);
  await button(page, 'Cancel run').click();
  await waitFor(() => received.some((m) => CancelRun.is(m) && m.params.runId === 'run-going'), 'CancelRun sent');

  // The host resumes the run: RunStarted under the same id clears the flag on the run shown.
  await pick(page, 'run-cut');
  await waitFor(async () => (await badge(page).innerText()) === 'interrupted', 'interrupted again');
  const resumed: RunListing = { ...interrupted.detail.listing, interrupted: undefined };
  delete resumed.interrupted;
  await send(RunStarted.create({ runId: 'run-cut', total: 23, listing: resumed }));
  await waitFor(async () => (await badge(page).innerText()) === 'started', 'started after resume');
  assert.equal(await button(page, 'Cancel run').count(), 1);
  assert.equal(await button(page, 'Resume run').count(), 0);
  assert.match(await page.locator('header.bar .progress').innerText(), /0 \/ 23 cases/);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a Resume run the host does not follow (it asked a question, or refused) comes back after a while', async () => {
  const { page, received, errors } = await openWithHost([finished, interrupted], (p) => p.clock.install());
  await waitFor(async () => (await badge(page).innerText()) === 'interrupted', 'interrupted badge');
  await button(page, 'Resume run').click();
  await waitFor(async () => (await button(page, 'Resuming…').count()) === 1, 'Resuming…');
  await page.clock.runFor(9_000);
  await waitFor(async () => (await button(page, 'Resume run').count()) === 1, 'Resume run again');
  await button(page, 'Resume run').click();
  await waitFor(() => received.filter((m) => ResumeRun.is(m)).length === 2, 'second ResumeRun');
  assert.deepEqual(errors, []);
  await page.close();
});

test('a started run shown while its log goes quiet turns interrupted without reopening the panel', async () => {
  const runs = [finished, running];
  const { page, errors } = await openWithHost(runs, (p) => p.clock.install());
  await waitFor(async () => (await badge(page).innerText()) === 'started', 'started badge');
  assert.equal(await button(page, 'Cancel run').count(), 1);
  // The host would now list it as interrupted (its writer died and the log stayed quiet).
  runs[1] = startedRun('run-going', 'RGB noise (terminal)', '2025-05-02T10:00:00.000Z', { interrupted: true });
  await page.clock.runFor(31_000);
  await waitFor(async () => (await badge(page).innerText()) === 'interrupted', 'interrupted badge');
  assert.equal(await button(page, 'Resume run').count(), 1);
  assert.equal(await button(page, 'Cancel run').count(), 0);
  assert.match(await page.locator('vscode-single-select.run .select-face .text').innerText(), /^RGB noise \(terminal\) · interrupted · /);
  assert.deepEqual(errors, []);
  await page.close();
});

test('a static report shows an interrupted run\'s badge but no Resume (nothing there can run)', async () => {
  const page = await session.browser.newPage({ viewport: { width: 1200, height: 700 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: 'run-cut' });
  await page.goto(session.server.setPage({ runs: [finished, interrupted], theme: 'light' }));
  await waitFor(async () => (await badge(page).innerText()) === 'interrupted', 'interrupted badge');
  assert.equal(await page.locator('header.bar vscode-button').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});
