// The inspector against a fake VS Code host speaking src/protocol.ts: Ready handshake, request ids, errors,
// commands, live notifications and setState — in Chromium under the panel's CSP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  CancelRun, CaseFinished, CompareRuns, ExportImage, GetCase, GetRun, ListRuns, OpenDatasetRow, OpenTemplate, PROTOCOL_VERSION,
  BatchProgress, Ready, RerunCase, Reveal, RunFinished, RunStarted, ShowCompare, isEnvelope,
} from '../../src/protocol.js';
import type { CompareRow } from '../../src/protocol.js';
import { JUDGE_ERROR_CASE, MODELS, listItem, rgbRun } from './builders.js';
import { NEEDLE_SUITES, needleGridRun } from './methodBuilders.js';
import type { FixtureRun } from './builders.js';
import { RAG_MODEL, RANKED_OUT_CASE, SOURCE_FILE, ragRun } from './ragBuilders.js';
import { collectPageErrors, cspViolations, screenshotPath, waitFor, useBrowser } from './harness.js';
import { flippedCases, responseTextOf } from '../../webview/api/compareRuns.js';

const session = useBrowser();


/** A host that answers from fixture runs, records everything the view sends, and can push notifications. */
class FakeHost {
  readonly received: unknown[] = [];
  readonly states: unknown[] = [];
  missingCase: string | undefined;
  /** Answer CompareRuns with every case both runs share, as extension versions before the flip filter did. */
  compareSendsAll = false;
  constructor(private readonly page: Page, readonly runs: FixtureRun[]) {}

  async attach(): Promise<void> {
    await this.page.exposeBinding('__hostPost', (_source, json: string) => this.receive(JSON.parse(json)));
    await this.page.exposeBinding('__hostState', (_source, json: string) => { this.states.push(JSON.parse(json)); });
  }

  send(message: unknown): Promise<void> {
    return this.page.evaluate((m) => (globalThis as unknown as { postMessage(m: unknown, origin: string): void }).postMessage(m, '*'), message);
  }

  private run(runId: string): FixtureRun | undefined {
    return this.runs.find((r) => r.detail.listing.runId === runId);
  }

  private receive(message: unknown): void {
    this.received.push(message);
    if (!isEnvelope(message)) return;
    const reply = (m: unknown) => void this.send(m);
    if (ListRuns.is(message)) reply(ListRuns.respond(message.id, this.runs.map((r) => r.detail.listing)));
    else if (GetRun.is(message)) {
      const run = this.run(message.params.runId);
      reply(run ? GetRun.respond(message.id, run.detail) : GetRun.fail(message.id, { code: 'not-found', message: `no run ${message.params.runId}` }));
    } else if (GetCase.is(message)) {
      const found = this.run(message.params.runId)?.cases.find((c) => `${c.evalCase.id}\u0000${c.result.modelKey}` === message.params.key);
      if (!found || message.params.key === this.missingCase) reply(GetCase.fail(message.id, { code: 'not-found', message: 'The run log no longer has this case' }));
      else reply(GetCase.respond(message.id, found));
    } else if (CompareRuns.is(message)) {
      const [a, b] = [this.run(message.params.before)!, this.run(message.params.after)!];
      const text = (run: FixtureRun, key: string) => responseTextOf(run.cases.find((c) => `${c.evalCase.id}\u0000${c.result.modelKey}` === key));
      const rows: CompareRow[] = this.compareSendsAll
        ? b.detail.cases.flatMap((after) => {
          const before = a.detail.cases.find((c) => c.key === after.key);
          return before ? [{ caseId: after.caseId, before, after, beforeText: text(a, after.key), afterText: text(b, after.key) }] : [];
        })
        : flippedCases(a.detail.cases, b.detail.cases, (side, item) => text(side === 'before' ? a : b, item.key));
      reply(CompareRuns.respond(message.id, rows));
    }
  }
}

async function openWithHost(runs: FixtureRun[]): Promise<{ page: Page; host: FakeHost; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 850 } });
  const errors = collectPageErrors(page);
  const host = new FakeHost(page, runs);
  await host.attach();
  await page.goto(session.server.setPage({ runs: [], vscode: true, theme: 'light' }));
  return { page, host, errors };
}

const first = rgbRun({ runId: 'run-1', name: 'RGB noise', createdAt: '2025-05-01T10:00:00.000Z' });

test('a retrieved passage\'s source file opens at its first line through the open-row command', async () => {
  const { page, host, errors } = await openWithHost([ragRun()]);
  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator(`ri-case-list .row[data-case="${RANKED_OUT_CASE}"][data-model="${RAG_MODEL}"]`).click();
  const source = page.locator('ri-retrieval-view tr[data-rank="2"] button', { hasText: 'handbook.md:40–52' });
  await source.focus();
  await page.keyboard.press('Enter');
  await waitFor(() => host.received.some((m) => OpenDatasetRow.is(m)), 'the open command');
  const open = host.received.find((m) => OpenDatasetRow.is(m));
  assert.ok(open && OpenDatasetRow.is(open));
  assert.deepEqual(open.params, { file: SOURCE_FILE, line: 40 });
  assert.deepEqual(errors, []);
  await page.close();
});

test('sends Ready with the protocol version first, then requests with distinct ids', async () => {
  const { page, host, errors } = await openWithHost([first]);
  await page.locator('ri-run-summary').waitFor();
  const [ready, ...rest] = host.received;
  assert.ok(Ready.is(ready), 'the first message is Ready');
  assert.deepEqual(ready.params, { protocolVersion: PROTOCOL_VERSION });
  const ids = rest.filter((m): m is { id: number } => isEnvelope(m) && m.kind === 'request').map((m) => m.id);
  assert.ok(ids.length >= 2);
  assert.equal(new Set(ids).size, ids.length, 'request ids are unique');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('commands: open dataset row, open template, rerun; a failed request shows its error', async () => {
  const { page, host, errors } = await openWithHost([first]);
  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator(`ri-case-list .row[data-case="${JUDGE_ERROR_CASE}"][data-model="${MODELS[0]}"]`).click();
  const view = page.locator('ri-case-view');
  await view.locator('h2').waitFor();
  await view.locator('vscode-button', { hasText: 'Open dataset row' }).click();
  await view.locator('vscode-button', { hasText: 'Open template' }).click();
  await view.locator('vscode-button', { hasText: 'Rerun' }).click();
  await waitFor(() => host.received.filter((m) => isEnvelope(m) && m.kind === 'command').length >= 4, 'three commands');
  const open = host.received.find((m) => OpenDatasetRow.is(m));
  assert.ok(open && OpenDatasetRow.is(open));
  assert.deepEqual(open.params, { file: '/workspace/data/en_refine.jsonl', line: 7 });
  const template = host.received.find((m) => OpenTemplate.is(m));
  assert.ok(template && OpenTemplate.is(template));
  assert.equal(template.params.file, '/workspace/prompts/rgb/en.prompty');
  const rerun = host.received.find((m) => RerunCase.is(m));
  assert.ok(rerun && RerunCase.is(rerun));
  assert.deepEqual(rerun.params, { runId: 'run-1', key: `${JUDGE_ERROR_CASE}\u0000${MODELS[0]}` });

  // Input problems link to their file:line too.
  await page.locator('[role="tab"]#tab-summary').click();
  await page.locator('ri-run-summary ul.problems button.link').first().click();
  await waitFor(() => host.received.filter((m) => OpenDatasetRow.is(m)).length === 2, 'problem opened');

  // A request the host fails comes back as {code, message} and is shown, not swallowed.
  host.missingCase = `rgb-noise/0/noise=0\u0000${MODELS[0]}`;
  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator(`ri-case-list .row[data-case="rgb-noise/0/noise=0"][data-model="${MODELS[0]}"]`).click();
  const alert = view.locator('[role="alert"]');
  await alert.waitFor();
  assert.match(await alert.innerText(), /The run log no longer has this case \(not-found\)/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('live run: RunStarted, CaseFinished rows appear, Cancel, RunFinished, Reveal opens a case; setState holds navigation only', async () => {
  const { page, host, errors } = await openWithHost([first]);
  await page.locator('ri-run-summary').waitFor();
  const live = rgbRun({ runId: 'run-live', name: 'live run', createdAt: '2025-06-01T10:00:00.000Z' });
  const listing = { ...live.detail.listing, status: 'started' as const, totals: undefined };
  host.runs.push({ detail: { ...live.detail, listing, cases: [] }, cases: live.cases });
  await host.send(RunStarted.create({ runId: 'run-live', total: live.cases.length, listing }));
  // Switch to the live run through the picker, as a user would.
  await page.locator('vscode-single-select.run').evaluate((el) => {
    (el as unknown as { value: string }).value = 'run-live';
    el.dispatchEvent(new Event('change'));
  });
  await page.locator('[role="tab"]#tab-cases').click();
  await waitFor(async () => /0 of 0/.test(await page.locator('ri-case-filters .count').innerText()), 'empty live list');
  for (const [i, c] of live.cases.slice(0, 12).entries()) {
    await host.send(CaseFinished.create({ runId: 'run-live', item: listItem(c), done: i + 1, total: live.cases.length }));
  }
  await waitFor(async () => /^12 of 12$/.test(await page.locator('ri-case-filters .count').innerText()), '12 live rows');
  assert.match(await page.locator('header.bar .progress').innerText(), /12 \/ 30 cases/);
  await page.locator('vscode-button', { hasText: 'Cancel run' }).click();
  await waitFor(() => host.received.some((m) => CancelRun.is(m) && m.params.runId === 'run-live'), 'cancel sent');

  await host.send(RunFinished.create({ runId: 'run-live', detail: live.detail }));
  await waitFor(async () => /^30 of 30$/.test(await page.locator('ri-case-filters .count').innerText()), 'all rows');
  await host.send(Reveal.create({ runId: 'run-1', key: `${JUDGE_ERROR_CASE}\u0000${MODELS[1]}` }));
  await waitFor(async () => (await page.locator('ri-case-view .badge').first().innerText()) === MODELS[1]
    && (await page.locator('ri-case-view h2').innerText()) === JUDGE_ERROR_CASE, 'revealed case');
  assert.equal(await page.locator('ri-case-list .row.open').getAttribute('data-model'), MODELS[1]);

  const state = host.states.at(-1) as Record<string, unknown>;
  assert.equal(state.v, 1);
  assert.equal(state.runId, 'run-1');
  assert.equal(state.view, 'cases');
  assert.equal(state.caseKey, `${JUDGE_ERROR_CASE}\u0000${MODELS[1]}`);
  assert.ok(JSON.stringify(host.states).length < 20_000, 'no run data in setState');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('batch mode: the header shows the vendor batches\' requests done while no case finishes, then the cases, then nothing', async () => {
  const { page, host, errors } = await openWithHost([first]);
  await page.locator('ri-run-summary').waitFor();
  const live = rgbRun({ runId: 'run-batch', name: 'batched run', createdAt: '2025-06-02T10:00:00.000Z' });
  const listing = { ...live.detail.listing, status: 'started' as const, totals: undefined };
  host.runs.push({ detail: { ...live.detail, listing, cases: [] }, cases: live.cases });
  await host.send(RunStarted.create({ runId: 'run-batch', total: live.cases.length, listing }));
  await page.locator('vscode-single-select.run').evaluate((el) => {
    (el as unknown as { value: string }).value = 'run-batch';
    el.dispatchEvent(new Event('change'));
  });
  const batches = page.locator('header.bar .progress.batches');
  await host.send(BatchProgress.create({ runId: 'run-batch', open: 1, batches: 1, done: 0, total: 30 }));
  await waitFor(async () => (await batches.count()) === 1 && (await batches.innerText()) === 'vendor batch: 0 / 30 requests done', 'batch progress shown');
  await host.send(BatchProgress.create({ runId: 'run-batch', open: 2, batches: 2, done: 12, total: 30 }));
  await waitFor(async () => (await batches.innerText()) === '2 of 2 vendor batches open: 12 / 30 requests done', 'two batches');
  assert.equal(await batches.getAttribute('role'), 'status', 'read out by screen readers as it changes');
  await page.screenshot({ path: screenshotPath('batch-progress') });
  // Another run's batches are not this run's.
  await host.send(BatchProgress.create({ runId: 'run-other', open: 1, batches: 1, done: 1, total: 2 }));
  assert.equal(await batches.innerText(), '2 of 2 vendor batches open: 12 / 30 requests done');
  await host.send(BatchProgress.create({ runId: 'run-batch', open: 0, batches: 2, done: 30, total: 30 }));
  await waitFor(async () => (await batches.count()) === 0, 'batches ended: nothing about them');
  await host.send(CaseFinished.create({ runId: 'run-batch', item: listItem(live.cases[0]!), done: 1, total: live.cases.length }));
  await waitFor(async () => /1 \/ 30 cases/.test(await page.locator('header.bar .progress').first().innerText()), 'cases count');
  await host.send(RunFinished.create({ runId: 'run-batch', detail: live.detail }));
  await waitFor(async () => (await page.locator('header.bar .progress').count()) === 0, 'finished: no progress');
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('the compare view asks the host for the flipped cases', async () => {
  const later = rgbRun({ runId: 'run-2', name: 'RGB noise, new template', createdAt: '2025-05-03T10:00:00.000Z', variant: 'after' });
  const { page, host } = await openWithHost([first, later]);
  await page.locator('[role="tab"]#tab-compare').click();
  await page.locator('ri-compare-view p.summary').waitFor();
  const request = host.received.find((m) => CompareRuns.is(m));
  assert.ok(request && CompareRuns.is(request));
  assert.deepEqual(request.params, { before: 'run-1', after: 'run-2' }, 'the newest run against the one before it');
  assert.ok((await page.locator('ri-compare-view article').count()) > 0);
  await page.close();
});

test('the run picker\'s label follows the run from started to success', async () => {
  const { page, host, errors } = await openWithHost([first]);
  await page.locator('ri-run-summary').waitFor();
  const live = rgbRun({ runId: 'run-live', name: 'live run', createdAt: '2025-06-01T10:00:00.000Z' });
  const listing = { ...live.detail.listing, status: 'started' as const, totals: undefined };
  host.runs.push({ detail: { ...live.detail, listing, cases: [] }, cases: live.cases });
  await host.send(RunStarted.create({ runId: 'run-live', total: live.cases.length, listing }));
  const picker = page.locator('vscode-single-select.run');
  await picker.evaluate((el) => {
    (el as unknown as { value: string }).value = 'run-live';
    el.dispatchEvent(new Event('change'));
  });
  const face = picker.locator('.select-face .text');
  await waitFor(async () => /^live run · started · /.test(await face.innerText()), 'label says started');
  await host.send(RunFinished.create({ runId: 'run-live', detail: live.detail }));
  await waitFor(async () => (await page.locator('header.bar .badge').innerText()) === 'success', 'badge says success');
  await waitFor(async () => /^live run · success · /.test(await face.innerText()), 'label says success');
  assert.equal(await picker.evaluate((el) => (el as unknown as { value: string }).value), 'run-live', 'still the selected run');
  // The dropdown's own list agrees (it is what a keyboard user reads).
  const options = await picker.evaluate((el) => [...el.querySelectorAll('vscode-option')].map((o) => o.textContent!.trim()));
  assert.ok(options.some((o) => /^live run · success · /.test(o)) && !options.some((o) => /· started ·/.test(o)));
  assert.deepEqual(errors, []);
  await page.close();
});

test('the compare view lists only flipped cases even when the host sends every shared case', async () => {
  const later = rgbRun({ runId: 'run-2', name: 'RGB noise, new template', createdAt: '2025-05-03T10:00:00.000Z', variant: 'after' });
  const { page, host, errors } = await openWithHost([first, later]);
  host.compareSendsAll = true;
  await page.locator('[role="tab"]#tab-compare').click();
  await page.locator('ri-compare-view p.summary').waitFor();
  const flipped = flippedCases(first.detail.cases, later.detail.cases, () => '');
  assert.ok(flipped.length > 0 && flipped.length < later.detail.cases.length, 'some, not all, cases flip');
  assert.equal(await page.locator('ri-compare-view article').count(), flipped.length);
  assert.deepEqual(await page.locator('ri-compare-view article').evaluateAll((els) => els.map((e) => e.getAttribute('data-key'))), flipped.map((r) => r.after.key));
  assert.match(await page.locator('ri-compare-view p.summary').innerText(), new RegExp(`^${flipped.length} cases changed outcome`));
  for (const outcomes of await page.locator('ri-compare-view article header').evaluateAll((els) => els.map((e) => [...e.querySelectorAll('.outcome')].map((o) => o.className)))) {
    assert.notEqual(outcomes[0], outcomes[1], 'each listed case changed outcome');
  }
  assert.deepEqual(errors, []);
  await page.close();
});

test('ShowCompare opens the compare view on the pair the host names', async () => {
  const second = rgbRun({ runId: 'run-2', name: 'RGB noise, template 2', createdAt: '2025-05-03T10:00:00.000Z', variant: 'after' });
  const third = rgbRun({ runId: 'run-3', name: 'RGB noise, template 3', createdAt: '2025-05-04T10:00:00.000Z' });
  const { page, host, errors } = await openWithHost([first, second]);
  await page.locator('ri-run-summary').waitFor();
  // run-3 appears on disk after the view listed its runs: ShowCompare must still find it.
  host.runs.push(third);
  await host.send(ShowCompare.create({ before: 'run-1', after: 'run-3' }));
  await page.locator('ri-compare-view p.summary').waitFor();
  assert.equal(await page.locator('[role="tab"][aria-selected="true"]').getAttribute('id'), 'tab-compare');
  const request = host.received.filter((m) => CompareRuns.is(m)).at(-1);
  assert.ok(request && CompareRuns.is(request));
  assert.deepEqual(request.params, { before: 'run-1', after: 'run-3' });
  const pickers = await page.locator('ri-compare-view vscode-single-select').evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
  assert.deepEqual(pickers, ['run-1', 'run-3']);
  assert.match(await page.locator('ri-compare-view p.summary').innerText(), /^0 cases changed outcome/, 'run-1 and run-3 hold the same outcomes');
  const state = host.states.at(-1) as { view: string; compare: unknown };
  assert.equal(state.view, 'compare');
  assert.deepEqual(state.compare, { before: 'run-1', after: 'run-3' });
  assert.deepEqual(errors, []);
  await page.close();
});

test('a message from the host the view does not know is logged in its console, and the view goes on', async () => {
  const { page, host, errors } = await openWithHost([first]);
  const warnings: string[] = [];
  page.on('console', (message) => { if (message.type() === 'warning') warnings.push(message.text()); });
  await page.locator('ri-run-summary').waitFor();
  await host.send({ kind: 'notification', method: 'view/unknown', params: {} });
  await host.send('not an envelope');
  await waitFor(() => warnings.filter((w) => w.startsWith('RAG Inspector: ignored')).length === 2, 'two warnings');
  assert.deepEqual(warnings.filter((w) => w.startsWith('RAG Inspector: ignored')), [
    'RAG Inspector: ignored a notification "view/unknown" from the extension.',
    'RAG Inspector: ignored a message that is not a protocol envelope from the extension.',
  ]);
  // A known notification after them is still handled.
  await host.send(Reveal.create({ runId: 'run-1', key: `${JUDGE_ERROR_CASE}\u0000${MODELS[0]}` }));
  await page.locator('ri-case-view h2').waitFor();
  assert.deepEqual(errors, []);
  await page.close();
});

test('exporting a heatmap in VS Code sends ExportImage for the host to save', async () => {
  const grid = needleGridRun();
  const { page, host, errors } = await openWithHost([grid]);
  const map = page.locator(`ri-heatmap[data-suite="${NEEDLE_SUITES[2]}"]`);
  await map.locator('vscode-button.export-svg').click();
  await map.locator('vscode-button.export-png').click();
  await waitFor(() => host.received.filter((m) => ExportImage.is(m)).length === 2, 'two exports');
  const [svgExport, pngExport] = host.received.filter((m): m is { params: { fileName: string; dataUrl: string } } => ExportImage.is(m));
  assert.equal(svgExport!.params.fileName, 'heatmap-needle-anthropic-rev2-anthropic-claude-3-haiku.svg');
  assert.match(svgExport!.params.dataUrl, /^data:image\/svg\+xml;charset=utf-8,/);
  assert.match(decodeURIComponent(svgExport!.params.dataUrl.slice(svgExport!.params.dataUrl.indexOf(',') + 1)), /<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*class="cell"/);
  assert.match(pngExport!.params.fileName, /\.png$/);
  assert.match(pngExport!.params.dataUrl, /^data:image\/png;base64,iVBORw0KGgo/);
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});
