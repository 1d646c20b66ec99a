// What keeps a 100,000-case run flat, checked on small runs: cases rendered only as the pool pulls them, no case held
// by the outcome, reports streamed from the run log equal to the same reports built in memory, one entry per (case, model).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { packageRoot } from '../../../src/core/assets.js';
import { expandedCases, planSuites, renderCase } from '../../../src/core/engine/plan.js';
import { forEachConcurrent } from '../../../src/core/pool.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import type { EvalCase } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { renderCsvReport } from '../../../src/core/report/csvReport.js';
import { renderHtmlReport } from '../../../src/core/report/html.js';
import { writeHtmlReport } from '../../../src/core/report/htmlReportFile.js';
import { inspectorRun } from '../../../src/core/report/inspectorRun.js';
import { renderJsonReport } from '../../../src/core/report/jsonReport.js';
import { renderJunitReport } from '../../../src/core/report/junitReport.js';
import { runDataInMemory } from '../../../src/core/report/runData.js';
import type { RunData } from '../../../src/core/report/runData.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import { renderToString } from '../../../src/core/report/textSink.js';
import { RunLogWriter, readRunLog } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { createWorkspace, rgbRows } from './workspace.js';

const options = () => ({ signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });

const extractiveEval = (rows: number) => `version: 1
name: scale test
models:
  - extractive:bm25
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    limit: ${rows}
    params: { testbed: noise_robustness, noiseRates: [0, 0.4], passageNum: 3 }
`;

test('cases are rendered as the pool pulls them: never more rendered and unfinished than the pool is wide', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(150), evalYaml: () => extractiveEval(150) });
  t.after(() => ws.cleanup());
  const signal = new AbortController().signal;
  const plan = await planSuites(await loadEvalSpec(ws.evalFile), signal);
  const suitePlan = plan.suites[0]!;
  let rendered = 0;
  let finished = 0;
  let mostAhead = 0;
  async function* cases(): AsyncGenerator<EvalCase> {
    for await (const evalCase of expandedCases(suitePlan, signal)) {
      const result = await renderCase(suitePlan, evalCase);
      assert.ok(!(result instanceof Error), String(result));
      rendered += 1;
      yield result;
    }
  }
  const width = 4;
  await forEachConcurrent(cases(), width, signal, async (evalCase) => {
    mostAhead = Math.max(mostAhead, rendered - finished);
    assert.ok(evalCase.messages.length > 0);
    await new Promise((resolve) => setImmediate(resolve));
    finished += 1;
  });
  assert.equal(finished, 300, 'two cases per row (noise 0 and 0.4)');
  assert.equal(rendered, 300);
  assert.ok(mostAhead <= width, `at most ${width} rendered ahead of the finished ones, saw ${mostAhead}`);
  assert.ok(mostAhead >= 2, 'the lanes did run side by side');
});

/** The ids expandedCases yields for each suite of the plan. */
async function idsOf(plan: Awaited<ReturnType<typeof planSuites>>, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for (const suitePlan of plan.suites) for await (const evalCase of expandedCases(suitePlan, signal)) ids.push(evalCase.id);
  return ids;
}

test('a small plan reads its rows once: the passes after the count pass take the cases it built', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(40), evalYaml: () => extractiveEval(40) });
  t.after(() => ws.cleanup());
  const signal = new AbortController().signal;
  const counted: string[] = [];
  const plan = await planSuites(await loadEvalSpec(ws.evalFile), signal, (_suitePlan, evalCase) => counted.push(evalCase.id));
  // Rows the dataset no longer has: were it read again, the run would build other cases than the ones counted.
  writeFileSync(ws.datasetFile, rgbRows(3, 500).map((row) => JSON.stringify(row)).join('\n') + '\n');
  assert.equal(counted.length, 80);
  assert.deepEqual(await idsOf(plan, signal), counted);
  assert.deepEqual(await idsOf(plan, signal), counted, 'and again for the run after the cache scan');
});

test('a larger plan holds none of its cases: the run reads its rows again, one at a time', async (t) => {
  // 600 rows of two cases each: above the cases a plan keeps.
  const ws = createWorkspace({ rows: rgbRows(600), evalYaml: () => extractiveEval(600) });
  t.after(() => ws.cleanup());
  const signal = new AbortController().signal;
  const plan = await planSuites(await loadEvalSpec(ws.evalFile), signal);
  assert.equal(plan.suites[0]!.counted, undefined);
  writeFileSync(ws.datasetFile, rgbRows(3, 500).map((row) => JSON.stringify(row)).join('\n') + '\n');
  assert.equal((await idsOf(plan, signal)).length, 6, 'the rows as they are now');
});

test('the count pass renders nothing and the run reports the same total it finishes', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(40), evalYaml: () => extractiveEval(40) });
  t.after(() => ws.cleanup());
  const totals: number[] = [];
  const outcome = await runEvaluation(ws.evalFile, { ...options(), onEvent: (e) => {
    if (e.type === 'run-started' || e.type === 'case-finished') totals.push(e.total);
  } });
  assert.deepEqual([...new Set(totals)], [80]);
  assert.equal(outcome.totals.cases, 80);
});

test('a run of a few thousand cases returns only its summary: no case, result or plan is held by the outcome', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(1500), evalYaml: () => extractiveEval(1500) });
  t.after(() => ws.cleanup());
  const outcome = await runEvaluation(ws.evalFile, options());
  assert.equal(outcome.totals.cases, 3000);
  assert.deepEqual(Object.keys(outcome).sort(), ['createdAt', 'logFile', 'problems', 'reports', 'runId', 'spec', 'status', 'thresholds', 'totals']);
  // @ts-expect-error the cases live in the run log only
  assert.equal(outcome.results, undefined);
  // @ts-expect-error the plan (with every rendered prompt) is not kept either
  assert.equal(outcome.plan, undefined);
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 3000, 'every case is in the log, with its messages');
  assert.ok(log.cases.every((line) => line.case.messages.length > 0));
});

/** The same run, its cases read into memory: how every report was built before they were streamed. */
async function inMemory(run: RunData, logFile: string): Promise<RunData> {
  const log = await readRunLog(logFile);
  const { caseCount: _count, entries: _entries, ...meta } = run;
  return runDataInMemory(meta, new Map(log.cases.map((l) => [l.case.id, l.case])), log.cases.map((l) => l.result));
}

for (const example of ['rgb/rgb-example.eval.yaml', 'ragas/ragas-example.eval.yaml', 'ifrag/ifrag-example.eval.yaml']) {
  test(`reports streamed from the run log equal the in-memory ones: ${example}`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-scale-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const source = path.join(packageRoot(), 'examples', path.dirname(example));
    cpSync(source, dir, { recursive: true, filter: (file) => !file.includes('.rag-inspector') });
    const outcome: RunOutcome = await runEvaluation(path.join(dir, path.basename(example)), { ...options(), workspaceDir: dir });
    assert.ok(outcome.totals.cases > 0);
    const streamed = await runDataFromLog(outcome.logFile);
    const held = await inMemory(streamed, outcome.logFile);
    assert.equal(await renderJsonReport(streamed), await renderJsonReport(held));
    assert.equal(await renderCsvReport(streamed), await renderCsvReport(held));
    assert.equal(await renderJunitReport(streamed), await renderJunitReport(held));
    const { detail, cases } = await inspectorRun(held);
    assert.equal(await renderToString((sink) => writeHtmlReport(streamed, sink, 'void 0')), renderHtmlReport(detail, [...cases.values()], 'void 0'));
    JSON.parse(await renderJsonReport(streamed));
  });
}

test('the HTML report embeds details up to its budget, failures first, lists every case and says so', async (t) => {
  // Three rows whose answer is in no passage: the reader cannot find it, so their cases fail.
  const unanswerable = [0, 1, 2].map((i) => JSON.stringify({ id: 900 + i, query: `Where is ruin ${i}?`, answer: [`Nowhere${i}`], positive: [`Ruin ${i} is old.`], negative: ['Ruins are old.'] }));
  const ws = createWorkspace({ rows: rgbRows(30), evalYaml: () => extractiveEval(40), extraLines: unanswerable });
  t.after(() => ws.cleanup());
  const outcome = await runEvaluation(ws.evalFile, options());
  const run = await runDataFromLog(outcome.logFile);
  const log = await readRunLog(outcome.logFile);
  const failures = log.cases.filter((l) => l.result.pass === false || l.result.status === 'error').length;
  assert.ok(failures > 0 && failures < log.cases.length, 'the unanswerable rows fail, the others pass');
  const oneCase = JSON.stringify({ runId: run.runId, evalCase: log.cases[0]!.case, result: log.cases[0]!.result }).length;
  const html = await renderToString((sink) => writeHtmlReport(run, sink, 'void 0', { detailBudget: oneCase * (failures + 2) }));
  const json = html.slice(html.indexOf('>', html.indexOf('id="rag-inspector-data"')) + 1, html.indexOf('</script>'));
  const data = JSON.parse(json) as { runs: { detail: { cases: { key: string; pass?: boolean; status: string }[]; problems: { message: string }[] }; cases: { result: { pass?: boolean; status: string } }[] }[] };
  const [embedded] = data.runs;
  assert.equal(embedded!.detail.cases.length, log.cases.length, 'every case is listed');
  assert.ok(embedded!.cases.length < log.cases.length, 'not every detail fits');
  const embeddedFailures = embedded!.cases.filter((c) => c.result.pass === false || c.result.status === 'error').length;
  assert.equal(embeddedFailures, failures, 'every failure fits and comes first');
  assert.match(embedded!.detail.problems[0]!.message, new RegExp(`lists all ${log.cases.length} cases but embeds the full details .* of ${embedded!.cases.length} of them, failures first`));
});

test('a (case, model) written twice in a resumed log is reported once, as its later line', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => extractiveEval(3) });
  t.after(() => ws.cleanup());
  const outcome = await runEvaluation(ws.evalFile, options());
  const first = (await readRunLog(outcome.logFile)).cases[0]!;
  const writer = await RunLogWriter.reopen(outcome.logFile);
  writer.appendCase({ case: first.case, result: { ...first.result, pass: false, status: 'error', error: { stage: 'model', kind: 'server', message: 'rerun' } } });
  writer.close();

  const run = await runDataFromLog(outcome.logFile);
  assert.equal(run.caseCount, 6);
  const report = JSON.parse(await renderJsonReport(run)) as { cases: { caseId: string; status: string }[] };
  assert.equal(report.cases.length, 6);
  assert.deepEqual(report.cases.filter((c) => c.caseId === first.case.id).map((c) => c.status), ['error'], 'the later line wins');
  const rows = (await renderCsvReport(run)).trim().split('\n');
  assert.equal(rows.length, 7, 'header and six rows');

  // Resuming the same log reruns nothing and its tables count each case once.
  const resumed = await runEvaluation(ws.evalFile, { ...options(), resume: outcome.logFile });
  assert.equal(resumed.totals.cases, 6);
  assert.equal(resumed.totals.error, 1);
  assert.equal(readdirSync(path.dirname(outcome.logFile)).length, 1, 'the same log was finished');
});
