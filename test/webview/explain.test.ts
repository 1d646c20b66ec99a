// "Explain a failure" in Chromium: an explained case (core's attribution from a planted cause) on the document cards
// with effect, value and support as text, the harmful document outlined, the summary and the position curve; keyboard
// from the summary to a card; the live fill-in from the host's notifications; screenshots in the three themes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runEvaluation } from '../../src/core/engine/runEvaluation.js';
import { aggregateSuites } from '../../src/core/explain/aggregate.js';
import { explainRun } from '../../src/core/explain/explainRun.js';
import { envCredentials } from '../../src/core/providers/registry.js';
import { writeHtmlReport } from '../../src/core/report/htmlReportFile.js';
import { runDataFromLog } from '../../src/core/report/runDataSources.js';
import { writeFileStreaming } from '../../src/core/report/textSink.js';
import { startFixtureServer } from '../fixtures/llmServer.js';
import type { RecordedRequest } from '../fixtures/llmServer.js';
import type { Page } from 'playwright-core';
import {
  CancelExplain, CaseExplained, ExplainCase, ExplainFailed, ExplainFinished, ExplainProgress, ExplainStarted, GetCase, GetExplanation,
  GetRun, ListRuns, isEnvelope,
} from '../../src/protocol.js';
import type { ExplainPlan } from '../../src/protocol.js';
import { MODELS, rgbRun } from './builders.js';
import type { FixtureRun } from './builders.js';
import { HARMFUL_SOURCE, UNDETERMINED_SOURCE, explainedCase, withExplanation } from './explainBuilders.js';
import { collectPageErrors, computedStyle, cspViolations, screenshotPath, seedViewState, useBrowser, waitFor, webviewBundle } from './harness.js';
import type { PaletteName } from '../../webview/theme/palettes.js';

const session = useBrowser();

/** A failing case of model 0 with no judge error: (0 + 0 + 8) % 3 === 2 in the fixture's outcome rule. */
const CASE_ID = 'rgb-noise/0/noise=0.8';
const MODEL = MODELS[0];
const KEY = `${CASE_ID}\u0000${MODEL}`;

const base = rgbRun({ runId: 'run-x', name: 'RGB noise', createdAt: '2025-05-01T10:00:00.000Z' });
const detail = base.cases.find((c) => c.evalCase.id === CASE_ID && c.result.modelKey === MODEL)!;
const explanation = explainedCase(detail);
const explained = withExplanation(base, [explanation]);

async function openExplained(run: FixtureRun, theme: PaletteName, csp = true): Promise<{ page: Page; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const errors = collectPageErrors(page);
  await seedViewState(page, { runId: run.detail.listing.runId, view: 'cases' });
  await page.goto(session.server.setPage({ runs: [run], theme, csp }));
  await page.locator(`ri-case-list .row[data-case="${CASE_ID}"][data-model="${MODEL}"]`).click();
  await page.locator('ri-case-view h2').filter({ hasText: CASE_ID }).waitFor();
  return { page, errors };
}

const card = (page: Page, id: string) => page.locator(`ri-case-view ri-document-card[data-doc-id="${id}"]`);

test('the planted cause is what core finds: the counterfactual harms, the undetermined run stays undetermined', () => {
  const effects = Object.fromEntries(explanation.attributions.map((a) => [a.sourceId, a.effect]));
  assert.equal(effects[HARMFUL_SOURCE], 'harms');
  assert.equal(effects[UNDETERMINED_SOURCE], 'undetermined');
  assert.ok(explanation.positionCurve, 'the answer-bearing document was moved through every position');
});

test('an explained case in the report: summary first, each card with effect, value and support as text, the harmful one outlined', async () => {
  const { page, errors } = await openExplained(explained, 'dark');
  const view = page.locator('ri-case-view');
  const summary = view.locator('ri-explanation .summary');
  await summary.waitFor();
  assert.equal(await summary.innerText(), explanation.summary);
  // The summary comes before the question and the documents.
  const [summaryBox, questionBox] = [await summary.boundingBox(), await view.locator('.question').boundingBox()];
  assert.ok(summaryBox && questionBox && summaryBox.y < questionBox.y, 'the summary is at the top');

  for (const a of explanation.attributions) {
    const row = card(page, a.sourceId).locator('.attribution');
    const text = await row.innerText();
    assert.match(text, new RegExp(`\\b${a.effect}\\b`), `${a.sourceId} names its effect in words`);
    assert.match(text, new RegExp(`support: ${a.support.leaveOneOut} leave-one-out, ${a.support.subsetsWith} subsets? with it, ${a.support.subsetsWithout} without`));
    if (a.attribution !== null) assert.ok(text.includes('(subsets)'), `${a.sourceId}'s value is the surrogate weight`);
  }
  const harmful = card(page, HARMFUL_SOURCE);
  assert.match(await harmful.locator('.attribution').innerText(), /▼ harms.*without it: passes/s);
  assert.equal(await computedStyle(harmful.locator('article'), 'outline-style'), 'solid');
  for (const a of explanation.attributions.filter((x) => x.effect !== 'harms')) {
    assert.equal(await computedStyle(card(page, a.sourceId).locator('article'), 'outline-style'), 'none', `${a.sourceId} is not outlined`);
  }
  assert.match(await card(page, UNDETERMINED_SOURCE).locator('.attribution').innerText(), /\? undetermined.*without it: undetermined/s);
  assert.match(await harmful.locator('article').getAttribute('aria-label') ?? '', /harms/);

  // The position curve as text for every point and as a chart; instruction effects listed.
  const why = view.locator('ri-explanation section');
  const expected = explanation.positionCurve!.points.map((p) => `${p.position + 1}: ${p.pass === null ? '? undetermined' : p.pass ? '✓ passes' : '✗ fails'}`).join(' · ');
  assert.ok((await why.innerText()).includes(expected));
  assert.equal(await why.locator('ri-line-chart path.line').count(), 1);
  assert.match(await why.innerText(), /without the system section: ✗ fails/);
  // The faithfulness check: the credited sources removed together, and whether the outcome flipped as predicted.
  assert.ok(explanation.faithfulness && explanation.faithfulness.status !== 'nothing-to-check', explanation.faithfulness?.note);
  assert.ok((await why.locator('.check').innerText()).includes(explanation.faithfulness.note));
  assert.deepEqual(await cspViolations(page), []);
  assert.deepEqual(errors, []);
  await page.close();
});

test('keyboard: a source in the explanation moves focus to its card\'s attribution, which reads out its effect', async () => {
  const { page, errors } = await openExplained(explained, 'light');
  const button = page.locator('ri-explanation button.link', { hasText: HARMFUL_SOURCE });
  await button.focus();
  await page.keyboard.press('Enter');
  await waitFor(() => page.evaluate(`(() => {
    let el = document.activeElement;
    while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
    return el && el.classList.contains('attribution') && el.getRootNode().host.dataset.docId === ${JSON.stringify(HARMFUL_SOURCE)};
  })()`), 'focus on the harmful card');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the summary and previews are text, never HTML', async () => {
  const hostile = { ...explanation, summary: 'fails because of <img src=x onerror="window.__xss = 1"> d2' };
  const { page, errors } = await openExplained(withExplanation(base, [hostile]), 'dark', false);
  const summary = page.locator('ri-explanation .summary');
  await summary.waitFor();
  assert.equal(await summary.innerText(), hostile.summary);
  assert.equal(await page.evaluate('window.__xss'), undefined);
  assert.equal(await page.locator('ri-explanation img').count(), 0);
  assert.deepEqual(errors, []);
  await page.close();
});

for (const theme of ['dark', 'light', 'highContrast'] as const) {
  test(`explained case in the VS Code ${theme} theme (screenshot)`, async () => {
    const { page, errors } = await openExplained(explained, theme);
    await page.locator('ri-explanation .summary').waitFor();
    await page.locator('ri-case-view').evaluate((el) => (el as unknown as { scrollIntoView(): void }).scrollIntoView());
    await page.screenshot({ path: screenshotPath(`explain-${theme}-summary`) });
    await card(page, HARMFUL_SOURCE).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`explain-${theme}-cards`) });
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the Summary view sums the explained cases per suite and model: decisive vs labelled, pass rate by position, what harms most', async () => {
  // Three cases of one model explained (the same planted cause in each), as Explain failed cases leaves a run.
  const details = base.cases.filter((c) => c.result.modelKey === MODEL).slice(0, 3);
  const cases = details.map((d) => explainedCase(d));
  const [suite] = aggregateSuites(cases);
  assert.ok(suite && suite.accuracyByPosition.length >= 2 && suite.mostHarmful.length > 0, 'the planted cause gives a curve and a harmful source');
  for (const theme of ['dark', 'light', 'highContrast'] as const) {
    const page = await session.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = collectPageErrors(page);
    await seedViewState(page, { runId: base.detail.listing.runId, view: 'summary' });
    await page.goto(session.server.setPage({ runs: [withExplanation(base, cases)], theme, csp: true }));
    const section = page.locator('ri-explanation-summary section.suite');
    await section.waitFor();
    const text = (await section.innerText()).replace(/\s+/g, ' ');
    assert.ok(text.includes(`${suite.suiteId} · ${MODEL} · 3 cases explained`), text);
    const { agree, n } = suite.decisiveIsLabelled;
    assert.ok(text.includes(n > 0 ? `Decisive sources the dataset labels answer-bearing: ${agree} of ${n}` : 'No source was decisive in these cases.'), text);
    for (const p of suite.accuracyByPosition) assert.ok(text.includes(`${p.position + 1}: ${p.passed} of ${p.n} pass`), `position ${p.position + 1} as text: ${text}`);
    assert.ok(text.includes(`“${suite.mostHarmful[0]!.preview}”`) && text.includes(`harms ${suite.mostHarmful[0]!.cases} case`), text);
    assert.equal(await section.locator('ri-line-chart').count(), 1, 'the curve is drawn too');
    await page.locator('ri-explanation-summary').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`explain-${theme}-run-summary`) });
    assert.deepEqual(errors, []);
    await page.close();
  }
});

test('README screenshot: the case pane of an explained case, summary to documents (dark)', async () => {
  const { page, errors } = await openExplained(explained, 'dark');
  await page.setViewportSize({ width: 1180, height: 2000 });
  const pane = page.locator('.case-pane');
  const top = await page.locator('ri-explanation').boundingBox();
  const bottom = await card(page, UNDETERMINED_SOURCE).boundingBox();
  const box = await pane.boundingBox();
  assert.ok(top && bottom && box, 'the summary and the cards are laid out');
  await page.screenshot({ path: screenshotPath('explain-readme'), clip: { x: box.x, y: top.y - 8, width: box.width, height: bottom.y + bottom.height - top.y + 16 } });
  assert.deepEqual(errors, []);
  await page.close();
});

test('report.html of an explained run: the explained case shows its attribution, a case not explained shows none', async () => {
  // A real run and explanation on the fixture server: the scripted model is misled whenever the DISTRACTOR is shown.
  const server = await startFixtureServer();
  try {
    server.addRule({ reply: (req: RecordedRequest) => (req.lastUserMessage.includes('DISTRACTOR') ? 'Glendale, Arizona.' : 'Tampa, Florida.') });
    const ws = mkdtempSync(join(tmpdir(), 'explain-report-'));
    const rows = [
      { id: 0, query: 'Where was Super Bowl 2021 played?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['DISTRACTOR: the game moved to Glendale, Arizona.', 'Tickets are on sale.'] },
      { id: 1, query: 'Where was Super Bowl 2021 held?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was held in Tampa, Florida.'], negative: ['Tickets are on sale.', 'Fans travelled far.'] },
    ];
    writeFileSync(join(ws, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(join(ws, 'x.eval.yaml'), `version: 1\nname: explained report\nmodels:\n  - { provider: openai-compatible, model: m, baseUrl: ${server.openaiBaseUrl} }\nmaxRetries: 0\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.67], passageNum: 3 } }\n`);
    const credentials = envCredentials({});
    const run = await runEvaluation(join(ws, 'x.eval.yaml'), { signal: new AbortController().signal, credentials });
    const explainedRun = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, failed: true, variants: ['loo'] });
    const explainedCase = explainedRun.explanation!.cases[0]!;
    assert.equal(explainedRun.explanation!.cases.length, 1, 'one case failed and was explained');
    const file = join(ws, 'report.html');
    const bundle = await webviewBundle();
    await writeFileStreaming(file, async (sink) => writeHtmlReport(await runDataFromLog(run.logFile), sink, bundle));

    const page = await session.browser.newPage({ viewport: { width: 1300, height: 900 } });
    const errors = collectPageErrors(page);
    await page.goto(pathToFileURL(file).href);
    await page.locator('[role="tab"]#tab-cases').click();
    await page.locator(`ri-case-list .row[data-case="${explainedCase.caseId}"]`).click();
    const summary = page.locator('ri-explanation .summary');
    await summary.waitFor();
    assert.equal(await summary.innerText(), explainedCase.summary);
    const harmful = explainedCase.attributions.find((a) => a.effect === 'harms');
    assert.ok(harmful, 'the distractor harms');
    assert.match(await card(page, harmful.sourceId).locator('.attribution').innerText(), /▼ harms/);
    // The report has no host: no Explain button, no Explain failed cases.
    assert.equal(await page.locator('vscode-button', { hasText: /Explain/ }).count(), 0);
    await page.locator(`ri-case-list .row:not([data-case="${explainedCase.caseId}"])`).first().click();
    await page.locator('ri-case-view h2').filter({ hasNotText: explainedCase.caseId }).waitFor();
    assert.equal(await page.locator('ri-explanation .summary').count(), 0);
    assert.equal(await page.locator('ri-document-card .attribution').count(), 0);
    assert.deepEqual(errors, []);
    await page.close();
  } finally {
    await server.close();
  }
});

// ——— against a host: the buttons send the protocol's commands, the notifications fill the cards in ———

/** Answers the few requests the view makes and records every message it sends. */
async function openWithHost(run: FixtureRun): Promise<{ page: Page; received: unknown[]; send: (m: unknown) => Promise<void>; errors: string[] }> {
  const page = await session.browser.newPage({ viewport: { width: 1300, height: 900 } });
  const errors = collectPageErrors(page);
  const received: unknown[] = [];
  const send = (m: unknown) => page.evaluate((message) => (globalThis as unknown as { postMessage(m: unknown, o: string): void }).postMessage(message, '*'), m);
  await page.exposeBinding('__hostState', () => undefined);
  await page.exposeBinding('__hostPost', (_source, json: string) => {
    const message = JSON.parse(json) as unknown;
    received.push(message);
    if (ListRuns.is(message)) void send(ListRuns.respond(message.id, [run.detail.listing]));
    else if (GetRun.is(message)) void send(GetRun.respond(message.id, run.detail));
    else if (GetCase.is(message)) void send(GetCase.respond(message.id, run.cases.find((c) => `${c.evalCase.id}\u0000${c.result.modelKey}` === message.params.key)!));
    else if (GetExplanation.is(message)) void send(GetExplanation.respond(message.id, null));
  });
  await page.goto(session.server.setPage({ runs: [], vscode: true, theme: 'dark' }));
  return { page, received, send, errors };
}

const plan: ExplainPlan = { cases: [{ caseId: CASE_ID, modelKey: MODEL, variants: 33, fromCache: 1 }], variants: 33, alreadyDone: 0, fromCache: 1, calls: 32, checks: 0, estimatedUsd: 0.0031, unpriced: [], truncated: false };

test('Explain on a case: the command to the host, then leave-one-out outcomes on the cards at once, then the attribution', async () => {
  const { page, received, send, errors } = await openWithHost(base);
  await page.locator('[role="tab"]#tab-cases').click();
  await page.locator(`ri-case-list .row[data-case="${CASE_ID}"][data-model="${MODEL}"]`).click();
  const view = page.locator('ri-case-view');
  await view.locator('h2').waitFor();
  assert.equal(await card(page, HARMFUL_SOURCE).locator('.attribution').count(), 0, 'nothing before it is explained');

  await view.locator('vscode-button', { hasText: /^\s*Explain\s*$/ }).click();
  const asked = await waitFor(() => received.find((m) => ExplainCase.is(m)), 'ExplainCase');
  assert.ok(ExplainCase.is(asked));
  assert.deepEqual(asked.params, { runId: 'run-x', key: KEY });

  await send(ExplainStarted.create({ runId: 'run-x', plan }));
  const status = page.locator('header.bar [role="status"]', { hasText: 'Explaining' });
  await status.waitFor();
  assert.match(await status.innerText(), /starting · 32 model calls planned/);
  const pass = { pass: true, signal: 1, cached: false };
  await send(ExplainProgress.create({ runId: 'run-x', key: KEY, variantIds: [`loo:${HARMFUL_SOURCE}`], outcome: { variantId: `loo:${HARMFUL_SOURCE}`, ...pass }, done: 1, total: 33 }));
  const live = card(page, HARMFUL_SOURCE).locator('.attribution');
  await waitFor(async () => /explaining.*without it: passes/s.test(await live.innerText().catch(() => '')), 'the live leave-one-out outcome');
  assert.match(await status.innerText(), /1 \/ 33 variant runs/);
  // A run not yet finished says so, and names no effect before core has decided one.
  assert.doesNotMatch(await live.innerText(), /harms|decisive|helps|inert/);
  await card(page, HARMFUL_SOURCE).scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('explain-dark-running') });

  // Cancel while it runs goes to the host as the protocol's command.
  await page.locator('header.bar vscode-button', { hasText: 'Cancel explanation' }).click();
  await waitFor(() => received.some((m) => CancelExplain.is(m) && m.params.runId === 'run-x'), 'CancelExplain');

  await send(CaseExplained.create({ runId: 'run-x', key: KEY, explanation }));
  await waitFor(async () => /▼ harms/.test(await live.innerText().catch(() => '')), 'the attribution');
  assert.equal(await page.locator('ri-explanation .summary').innerText(), explanation.summary);
  await send(ExplainFinished.create({ runId: 'run-x', explanation: withExplanation(base, [explanation]).explanation }));
  await waitFor(async () => (await status.count()) === 0, 'progress gone');
  assert.ok(await view.locator('vscode-button', { hasText: 'Explain again' }).isVisible());
  assert.deepEqual(errors, []);
  await page.close();
});

test('Explain failed cases on the run sends ExplainFailed; a declined cost (finished with nothing) leaves the run as it was', async () => {
  const { page, received, send, errors } = await openWithHost(base);
  const button = page.locator('header.bar vscode-button', { hasText: 'Explain failed cases' });
  await button.click();
  const asked = await waitFor(() => received.find((m) => ExplainFailed.is(m)), 'ExplainFailed');
  assert.ok(ExplainFailed.is(asked));
  assert.deepEqual(asked.params, { runId: 'run-x' });
  await send(ExplainFinished.create({ runId: 'run-x', explanation: null }));
  assert.ok(await button.isVisible());
  assert.equal(received.filter((m) => isEnvelope(m) && m.kind === 'command' && m.method.startsWith('explain/')).length, 1);
  assert.deepEqual(errors, []);
  await page.close();
});
