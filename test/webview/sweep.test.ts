// The sweep page (sweep.html) opened from a file in Chromium: a real sweep of the bundled example (its retriever
// script run for real) drawn as a heatmap over two chosen settings and a table; a cell opens its questions' ranks by
// mouse and keyboard; the held setting changes the map; questions shown as text; screenshots in three themes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { paramsPerCell } from '../../src/core/corpus/sweep/cellRetriever.js';
import { expandGrid } from '../../src/core/corpus/sweep/grid.js';
import { readSweepQuestions } from '../../src/core/corpus/sweep/questions.js';
import { runSweep } from '../../src/core/corpus/sweep/runSweep.js';
import type { SweepReport } from '../../src/core/corpus/sweep/runSweep.js';
import { renderSweepHtml } from '../../src/core/report/sweepFiles.js';
import { createCommandRetriever } from '../../src/core/retrieval/command.js';
import { loadEvalSpec } from '../../src/core/spec/load.js';
import { collectPageErrors, cspViolations, launch, ROOT, screenshotPath, serve, waitFor, webviewBundle } from './harness.js';

const EXAMPLE = join(ROOT, 'examples', 'sweep');
const HOSTILE = '<img src=x onerror="window.__xss=1">Where is <b>Olympus Mons</b>?';

let browser: Browser;
let report: SweepReport;
let url: string;

before(async () => {
  browser = await launch();
  const spec = await loadEvalSpec(join(EXAMPLE, 'sweep.eval.yaml'));
  const never = new AbortController().signal;
  const { questions, k, suite } = await readSweepQuestions(spec, undefined, never);
  const retriever = createCommandRetriever({ type: 'command', command: [process.execPath, 'retrieve.mjs'], cwd: EXAMPLE, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
  try {
    const grid = expandGrid(spec.sweep!, { chunkSize: 64, overlap: 0, k });
    const result = await runSweep({ grid, questions, retrieverForCell: paramsPerCell(retriever), seed: spec.seed, signal: never, resamples: 200 });
    report = { name: spec.name, evalFile: spec.file, suite: suite.id, retriever: retriever.identity, ...result };
  } finally {
    await retriever.close!();
  }
  const shown = { ...report, questions: report.questions.map((q, i) => (i === 0 ? { ...q, question: HOSTILE } : q)) };
  const file = join(mkdtempSync(join(tmpdir(), 'rag-inspector-sweep-')), 'sweep.html');
  writeFileSync(file, renderSweepHtml(shown, await webviewBundle()));
  url = pathToFileURL(file).href;
});
after(async () => browser?.close());

async function open(options: { colorScheme?: 'light' | 'dark'; forcedColors?: 'active' } = {}): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 }, colorScheme: options.colorScheme ?? 'dark', ...(options.forcedColors ? { forcedColors: options.forcedColors } : {}) });
  const errors = collectPageErrors(page);
  await page.goto(url);
  await page.locator('ri-sweep-view ri-heatmap rect.cell').first().waitFor();
  return { page, errors };
}

const cellLabels = (page: Page) => page.locator('ri-sweep-view ri-heatmap rect.cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label') ?? ''));

test('the heatmap: k across, chunk size down, overlap held at the best cell\'s; the best line and the table', async () => {
  const { page, errors } = await open();
  const view = page.locator('ri-sweep-view');
  const best = report.cells.find((c) => c.best)!;
  assert.match(await view.locator('p.best').innerText(), new RegExp(`^Best by nDCG@k: ${best.key}`));
  assert.equal(await view.locator('select.x-axis').inputValue(), 'k');
  assert.equal(await view.locator('select.y-axis').inputValue(), 'chunkSize');
  assert.equal(await view.locator('select.fixed[data-axis="overlap"]').inputValue(), String(best.settings.overlap));
  const labels = await cellLabels(page);
  assert.equal(labels.length, 4 * 3);
  // Each heatmap cell says the value of the sweep cell at its settings.
  const at = (size: number, k: number) => report.cells.find((c) => c.settings.chunkSize === size && c.settings.k === k && c.settings.overlap === best.settings.overlap)!;
  for (const label of labels) {
    const match = /chunkSize (\d+), k (\d+): score ([\d.]+), n 23/.exec(label);
    assert.ok(match, label);
    const value = at(Number(match[1]), Number(match[2])).metrics.ndcg.value as number;
    assert.equal(Number(match[3]).toFixed(2), value.toFixed(2), label);
  }
  assert.equal(await view.locator('table.cells tbody tr').count(), report.cells.length);
  assert.match(await view.locator(`table.cells tr[data-cell="${best.key}"]`).innerText(), /★ best/);
  assert.match(await view.locator('table.cells tr[data-cell="chunkSize=64 overlap=0 k=3"]').innerText(), /• current/);
  await page.screenshot({ path: screenshotPath('sweep-dark'), fullPage: true });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a cell opens its questions\' ranks, by mouse and by keyboard; the held overlap changes the map', async () => {
  const { page, errors } = await open();
  const view = page.locator('ri-sweep-view');
  const cells = view.locator('ri-heatmap rect.cell');
  assert.equal(await view.locator('ri-heatmap .legend path.marker').count(), 0, 'no key for undetermined results a sweep never has');
  // Row 0 is chunkSize 8, column 0 is k 1.
  await cells.first().hover();
  assert.match(await view.locator('ri-heatmap .tip').innerText(), /chunkSize=8 overlap=\d+ k=1\. Click or Enter opens its questions' ranks\./);
  await cells.first().click();
  const ranks = view.locator('section.ranks');
  await ranks.waitFor();
  const opened = report.cells.find((c) => c.key === `chunkSize=8 overlap=${report.cells.find((x) => x.best)!.settings.overlap} k=1`)!;
  assert.equal(await ranks.locator('h3').innerText(), `Questions of ${opened.key}`);
  assert.equal(await ranks.locator('tbody tr').count(), 23);
  const shownRanks = await ranks.locator('tbody tr td:nth-child(3)').allInnerTexts();
  assert.deepEqual(shownRanks, opened.ranks.map((rank) => (rank === null ? '✗ not in top 1' : `✓ ${rank}`)));
  // The question is text: no element made of it, no script run.
  assert.equal(await ranks.locator('tbody tr').first().locator('td.question').innerText(), HOSTILE);
  assert.equal(await page.locator('img').count(), 0);
  assert.equal(await page.evaluate('window.__xss'), undefined);

  // Keyboard (the mouse out of the way): the first cell, ArrowDown to chunkSize 16, ArrowRight to k 3, Enter.
  await page.mouse.move(0, 0);
  await cells.first().focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitForText(ranks.locator('h3'), /Questions of chunkSize=16 overlap=\d+ k=3/);
  await page.screenshot({ path: screenshotPath('sweep-ranks'), fullPage: true });

  // Holding the other overlap redraws every cell with that overlap's numbers.
  const before = await cellLabels(page);
  const other = report.axes.find((a) => a.axis === 'overlap')!.values.find((v) => v !== report.cells.find((c) => c.best)!.settings.overlap)!;
  await view.locator('select.fixed[data-axis="overlap"]').selectOption(String(other));
  const afterLabels = await cellLabels(page);
  assert.notDeepEqual(afterLabels, before);
  const c8k1 = report.cells.find((c) => c.settings.chunkSize === 8 && c.settings.k === 1 && c.settings.overlap === other)!;
  assert.equal(Number(/score ([\d.]+)/.exec(afterLabels[0]!)![1]).toFixed(2), (c8k1.metrics.ndcg.value as number).toFixed(2));
  // The table's own button opens a cell too.
  await view.locator('table.cells tr[data-cell="chunkSize=64 overlap=0 k=3"] button.open').click();
  await waitForText(ranks.locator('h3'), /Questions of chunkSize=64 overlap=0 k=3/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('light and high contrast (screenshots)', async () => {
  for (const [name, options] of [['light', { colorScheme: 'light' }], ['high-contrast', { forcedColors: 'active' }]] as const) {
    const { page, errors } = await open(options);
    await page.locator('ri-sweep-view ri-heatmap rect.cell').nth(4).click();
    await page.locator('ri-sweep-view section.ranks').waitFor();
    await page.screenshot({ path: screenshotPath(`sweep-${name}`), fullPage: true });
    assert.equal(await page.locator('body').getAttribute('class'), name === 'light' ? 'vscode-light' : 'vscode-high-contrast');
    assert.deepEqual(errors, []);
    await page.close();
  }
});

async function waitForText(locator: ReturnType<Page['locator']>, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await locator.innerText().catch(() => '');
    if (pattern.test(text)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${pattern} (last: ${text})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

test('the page opened from a file has no end-to-end part: nothing to run it with', async () => {
  const { page, errors } = await open();
  assert.equal(await page.locator('ri-sweep-view section.end-to-end').count(), 0);
  assert.equal(await page.locator('ri-sweep-view input.pick').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

/** Plays a message from the host into the page, as VS Code delivers it. */
async function fromHost(page: Page, message: unknown): Promise<void> {
  await page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(m, '*'), message);
}

test('inside VS Code\'s sweep panel: cells picked by keyboard run end to end through the host; each cell\'s accuracy, failure split and errors shown; a cell opens its run', async () => {
  const server = await serve();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  try {
    const errors = collectPageErrors(page);
    const posted: Array<{ kind: string; method: string; params?: Record<string, unknown> }> = [];
    const saved: unknown[] = [];
    await page.exposeFunction('__hostPost', (message: string) => { posted.push(JSON.parse(message)); });
    await page.exposeFunction('__hostState', (state: string) => { saved.push(JSON.parse(state)); });
    await page.goto(server.setPage({ runs: [], vscode: true, sweep: report }));
    await page.locator('ri-sweep-view ri-heatmap rect.cell').first().waitFor();
    assert.equal(await page.locator('rag-inspector-app').count(), 0, 'the run inspector is not started');
    await waitFor(() => posted.length > 0, 'the ready handshake', 10_000);
    assert.deepEqual(posted.map((m) => m.method), ['webview/ready'], 'the view only says it is ready');
    const view = page.locator('ri-sweep-view');
    const run = view.locator('button.run-end-to-end');
    assert.equal(await run.isDisabled(), true, 'nothing picked, nothing to run');

    // Keyboard only: "Pick the best cell" by Enter, then a second cell's checkbox by Space.
    const best = report.cells.find((c) => c.best)!;
    const other = report.cells.find((c) => !c.best && c.current) ?? report.cells.find((c) => !c.best)!;
    await view.locator('button.pick-best').focus();
    await page.keyboard.press('Enter');
    await view.locator(`table.cells tr[data-cell="${other.key}"] input.pick`).focus();
    await page.keyboard.press('Space');
    assert.equal(await view.locator(`table.cells tr[data-cell="${best.key}"] input.pick`).isChecked(), true);
    assert.equal(await view.locator(`table.cells tr[data-cell="${other.key}"] input.pick`).isChecked(), true);
    await waitForText(run, /Run end to end \(2 cells\)/);
    // Kept in the view state, so a panel hidden and shown again (its page reloaded) keeps the picks.
    assert.deepEqual(new Set((saved.at(-1) as { sweepPicked: string[] }).sweepPicked), new Set([best.key, other.key]));
    await run.focus();
    await page.keyboard.press('Enter');
    await waitFor(() => posted.some((m) => m.method === 'sweep/runCells'), 'the run request', 10_000);
    const request = posted.find((m) => m.method === 'sweep/runCells')!;
    assert.equal(request.kind, 'command');
    assert.deepEqual(new Set(request.params!.cells as string[]), new Set([best.key, other.key]));

    // The host says where the cells stand: one running (Cancel offered), then one finished, one whose cases errored.
    const share = (value: number, n: number) => ({ value, low: Math.max(0, value - 0.2), high: Math.min(1, value + 0.2), n });
    await fromHost(page, { kind: 'notification', method: 'sweep/cellRuns', params: { running: true, named: [], message: 'End to end: 2 cells, cost plan: no priced model call.', runs: [{ cellKey: best.key, state: 'running', models: [], runId: 'run-a', cases: 23, done: 5 }] } });
    await waitForText(view.locator('table.end-to-end'), /running \(5\/23 cases\)/);
    assert.equal(await view.locator('button.cancel-end-to-end').count(), 1);
    assert.equal(await view.locator('p.status').innerText(), 'Running end to end… End to end: 2 cells, cost plan: no priced model call.');
    assert.equal(await view.locator('input.pick').first().isDisabled(), true, 'picks are held while cells run');
    await view.locator('button.cancel-end-to-end').click();
    await waitFor(() => posted.some((m) => m.method === 'sweep/cancelCells'), 'the cancel command', 10_000);
    await fromHost(page, { kind: 'notification', method: 'sweep/cellRuns', params: { running: false, named: [], runs: [
      { cellKey: best.key, state: 'finished', runId: 'run-a', createdAt: '2026-11-28T09:30:00.000Z', status: 'success', cases: 23, errors: 0, models: [{ model: 'openai-compatible:fixture', accuracy: share(0.61, 23), split: [{ cause: 'not-retrieved', share: share(0.56, 9) }, { cause: 'ranked-out', share: share(0.44, 9) }] }] },
      { cellKey: other.key, state: 'finished', runId: 'run-b', status: 'completed-with-errors', cases: 23, errors: 23, models: [{ model: 'openai-compatible:fixture', accuracy: { value: null, n: 0, undetermined: 23 }, split: [] }], problem: '23 of 23 case(s) ended in an error and are not in the accuracy; open the run for their causes' },
    ] } });
    const results = view.locator('table.end-to-end');
    await waitForText(results, /0\.610/);
    const bestRow = results.locator(`tr[data-cell="${best.key}"]`);
    assert.match(await bestRow.innerText(), /0\.610 \[0\.410, 0\.810\] n 23/);
    assert.match(await bestRow.locator('li[data-cause="not-retrieved"]').innerText(), /not-retrieved: 0\.560 \[0\.360, 0\.760\] n 9/);
    assert.match(await bestRow.locator('.when').innerText(), /^run of .*2026/);
    assert.match(await bestRow.locator('li[data-cause="ranked-out"]').innerText(), /ranked-out: 0\.440 \[0\.240, 0\.640\] n 9/);
    // The errored cell never reads as a success: no accuracy, its status and what happened in words.
    const erroredRow = results.locator(`tr[data-cell="${other.key}"]`);
    assert.match(await erroredRow.innerText(), /— \(no answer scored\)/);
    assert.doesNotMatch(await erroredRow.innerText(), /no failed case/, 'no split is claimed for a cell with no answer scored');
    assert.match(await erroredRow.innerText(), /completed with errors/);
    assert.match(await erroredRow.locator('.problem').innerText(), /23 of 23 case\(s\) ended in an error/);
    await page.screenshot({ path: screenshotPath('sweep-end-to-end'), fullPage: true });
    await bestRow.locator('button.open-run').click();
    await waitFor(() => posted.some((m) => m.method === 'sweep/openRun'), 'the open-run command', 10_000);
    assert.deepEqual(posted.find((m) => m.method === 'sweep/openRun')!.params, { runId: 'run-a' });
    assert.deepEqual(await cspViolations(page), []);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});

test('inside VS Code\'s sweep panel: the cells the eval file\'s sweep.endToEnd names come picked', async () => {
  const server = await serve();
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  try {
    const errors = collectPageErrors(page);
    const posted: string[] = [];
    await page.exposeFunction('__hostPost', (message: string) => { posted.push(message); });
    await page.exposeFunction('__hostState', () => undefined);
    await page.goto(server.setPage({ runs: [], vscode: true, sweep: report }));
    await page.locator('ri-sweep-view ri-heatmap rect.cell').first().waitFor();
    await waitFor(() => posted.length > 0, 'the ready handshake', 10_000);
    const named = report.cells.find((c) => !c.best && !c.current)!;
    await fromHost(page, { kind: 'notification', method: 'sweep/cellRuns', params: { running: false, runs: [], named: [named.key] } });
    const view = page.locator('ri-sweep-view');
    await waitForText(view.locator('button.run-end-to-end'), /Run end to end \(1 cell\)/);
    assert.equal(await view.locator(`table.cells tr[data-cell="${named.key}"] input.pick`).isChecked(), true);
    assert.equal(await view.locator('input.pick:checked').count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
    await server.close();
  }
});
