// Reports written while the run goes (report/liveReports.ts, engine/followLog.ts) are the bytes the one pass over the
// finished run log writes, and the tables fed as cases are logged are the tables read back from the log: on the bundled
// examples, on two models with errors, on a run cancelled and resumed, and on a resume that retries its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOptions, RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { planSuites } from '../../../src/core/engine/plan.js';
import { tablesFromLog } from '../../../src/core/engine/tablesFromLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { LiveReports } from '../../../src/core/report/liveReports.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import { writeReports } from '../../../src/core/report/writeReports.js';
import { readCaseLines, scanRunLog } from '../../../src/core/run/runLog.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { answerLandmarks, createWorkspace, rgbRows } from '../engine/workspace.js';

const ROOT = path.join(__dirname, '..', '..', '..');
const EXAMPLES = path.join(ROOT, 'examples');
const FORMATS = ['json', 'csv', 'junit', 'html'] as const;

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

interface LiveRun {
  outcome: RunOutcome;
  /** Undefined when the run could not give its reports live (they are then written from the log). */
  streamed: { written: string[] } | undefined;
  /** What the follower was given, in order, by the time the run returned. */
  lines: CaseLine[];
  out: string;
}

/** A run through runEvaluation with live reports (into `out`), as the CLI's run makes it. */
async function liveRun(evalFile: string, out: string, options: Partial<RunOptions> = {}): Promise<LiveRun> {
  const lines: CaseLine[] = [];
  const reports = new LiveReports((run) => writeReports(run, out, [...FORMATS]));
  const follower = {
    start: (...args: Parameters<typeof reports.start>) => reports.start(...args),
    add: async (line: CaseLine) => {
      lines.push(line);
      await reports.add(line);
    },
  };
  const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true, ...options, follower });
  assert.ok(outcome.followed, 'the outcome says what the follower was given');
  const streamed = await reports.finish(outcome.followed);
  return { outcome, streamed: streamed && { written: streamed.written }, lines, out };
}

/** The reports of the finished log, written in one pass over it (what `rag-inspector report` writes), compared file by file. */
async function assertSameAsFromLog(live: LiveRun, dir: string): Promise<void> {
  const fromLog = path.join(dir, 'from-log');
  await writeReports(await runDataFromLog(live.outcome.logFile), fromLog, [...FORMATS]);
  assert.deepEqual(readdirSync(live.out).sort(), readdirSync(fromLog).sort(), 'the same files, and no spool left behind');
  for (const name of readdirSync(fromLog)) assert.equal(readFileSync(path.join(live.out, name), 'utf8'), readFileSync(path.join(fromLog, name), 'utf8'), name);
  // The follower was given every line a reader of the log reads, in its order.
  const read: CaseLine[] = [];
  for await (const line of readCaseLines(await scanRunLog(live.outcome.logFile))) read.push(line);
  assert.deepEqual(live.lines, read);
}

/** The tables the run fed as cases were logged are the tables read back from its log. */
async function assertTablesFromLog(evalFile: string, outcome: RunOutcome): Promise<void> {
  const { suites } = await planSuites(await loadEvalSpec(evalFile), new AbortController().signal);
  const fromLog = await tablesFromLog(outcome.logFile, suites);
  assert.deepEqual(outcome.reports, fromLog.reports);
}

for (const [example, evalName] of [['rgb', 'rgb-example'], ['ifrag', 'ifrag-example'], ['needle', 'needle-example'], ['ragas', 'ragas-example'], ['stress', 'stress-example']] as const) {
  test(`${example}: the reports written while the run goes equal those written from its log`, async (t) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-live-reports-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    cpSync(path.join(EXAMPLES, example), path.join(dir, example), { recursive: true });
    const evalFile = path.join(dir, example, `${evalName}.eval.yaml`);
    const live = await liveRun(evalFile, path.join(dir, 'live'));
    assert.ok(live.streamed, 'written live');
    assert.ok(live.lines.length > 0);
    await assertSameAsFromLog(live, dir);
    await assertTablesFromLog(evalFile, live.outcome);
  });
}

/** Two models on the fixture server (a case's first line is then one model's or the other's), some rows failing. */
function twoModelWorkspace(rows: number) {
  return createWorkspace({
    rows: rgbRows(rows),
    evalYaml: () => `version: 1
name: live reports
models:
  - { provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }
  - extractive:bm25
concurrency: 4
maxRetries: 0
timeoutMs: 5000
suites:
  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0, 0.5], passageNum: 3 } }
`,
  });
}

test('two models, errors, then a resume that retries them: written live, the same as from the log', async (t) => {
  const rows = 12;
  const ws = twoModelWorkspace(rows);
  t.after(() => ws.cleanup());
  server.addRule({ match: { contains: 'landmark number 3?' }, fault: { kind: 'status', status: 500, body: { error: { message: 'down' } } }, times: 2 });
  answerLandmarks(server, rows);
  const first = await liveRun(ws.evalFile, path.join(ws.dir, 'first'));
  assert.ok(first.streamed);
  assert.equal(first.outcome.totals.error, 2, 'both cases of row 3 on the server failed');
  await assertSameAsFromLog(first, path.join(ws.dir, 'first-check'));
  await assertTablesFromLog(ws.evalFile, first.outcome);

  // The errored pairs are logged again: their new lines count, where they stand; the earlier cases are read back first.
  const resumed = await liveRun(ws.evalFile, path.join(ws.dir, 'resumed'), { resume: first.outcome.logFile, retryErrors: true });
  assert.ok(resumed.streamed, 'a resume is written live too');
  assert.equal(resumed.outcome.totals.error, 0);
  assert.equal(resumed.lines.length, first.lines.length, 'every pair once: the earlier ones and the retried ones');
  await assertSameAsFromLog(resumed, path.join(ws.dir, 'resumed-check'));
  await assertTablesFromLog(ws.evalFile, resumed.outcome);
});

test('a run cancelled midway, then resumed: the earlier cases read back once, the rest live, the same as from the log', async (t) => {
  const rows = 16;
  const ws = twoModelWorkspace(rows);
  t.after(() => ws.cleanup());
  answerLandmarks(server, rows);
  const controller = new AbortController();
  let finished = 0;
  const cancelled = await liveRun(ws.evalFile, path.join(ws.dir, 'cancelled'), {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === 'case-finished' && ++finished === 10) controller.abort();
    },
  });
  assert.equal(cancelled.outcome.status, 'cancelled');
  assert.ok(cancelled.streamed);
  await assertSameAsFromLog(cancelled, path.join(ws.dir, 'cancelled-check'));

  const resumed = await liveRun(ws.evalFile, path.join(ws.dir, 'resumed'), { resume: cancelled.outcome.logFile });
  assert.ok(resumed.streamed);
  assert.equal(resumed.outcome.totals.cases, rows * 2 * 2, 'every (case, model): two noise rates, two models');
  await assertSameAsFromLog(resumed, path.join(ws.dir, 'resumed-check'));
  await assertTablesFromLog(ws.evalFile, resumed.outcome);
});

test('a retried pair that is not run again keeps its earlier line where it stands: the run says so and the log is read instead', async (t) => {
  const rows = 6;
  const ws = twoModelWorkspace(rows);
  t.after(() => ws.cleanup());
  server.addRule({ match: { contains: 'landmark number 2?' }, fault: { kind: 'status', status: 500, body: { error: { message: 'down' } } }, times: 2 });
  answerLandmarks(server, rows);
  const first = await liveRun(ws.evalFile, path.join(ws.dir, 'first'));
  assert.equal(first.outcome.totals.error, 2);
  // --retry-errors, but the filter keeps one of the two errored pairs from running: its earlier line still counts.
  const kept = first.lines.find((line) => line.result.status === 'error')!.result;
  const resumed = await liveRun(ws.evalFile, path.join(ws.dir, 'resumed'), {
    resume: first.outcome.logFile,
    retryErrors: true,
    caseFilter: (caseId, modelKey) => !(caseId === kept.caseId && modelKey === kept.modelKey),
  });
  assert.equal(resumed.outcome.totals.error, 1, 'the pair kept out is still an error');
  assert.equal(resumed.outcome.followed?.exact, false);
  assert.equal(resumed.streamed, undefined, 'not written live');
  assert.deepEqual(readdirSync(path.join(ws.dir, 'resumed')), [], 'and nothing left of the live attempt');
  await assertTablesFromLog(ws.evalFile, resumed.outcome);
});

test('rag-inspector run writes its reports live: the bytes rag-inspector report writes from the same log', (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-live-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(path.join(EXAMPLES, 'rgb'), path.join(dir, 'rgb'), { recursive: true });
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'main.ts'), ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  const run = cli('run', path.join(dir, 'rgb', 'rgb-example.eval.yaml'), '--no-cache', '--quiet', '--out', path.join(dir, 'live'));
  assert.equal(run.status, 0, run.stderr);
  const [log] = readdirSync(path.join(dir, 'rgb', '.rag-inspector', 'runs')).filter((name) => name.endsWith('.jsonl'));
  const report = cli('report', path.join(dir, 'rgb', '.rag-inspector', 'runs', log!), '--out', path.join(dir, 'from-log'));
  assert.equal(report.status, 0, report.stderr);
  assert.deepEqual(readdirSync(path.join(dir, 'live')).sort(), ['cases.csv', 'junit.xml', 'report.html', 'report.json']);
  for (const name of readdirSync(path.join(dir, 'live'))) assert.equal(readFileSync(path.join(dir, 'live', name), 'utf8'), readFileSync(path.join(dir, 'from-log', name), 'utf8'), name);
  // What the run prints of its tables and totals is what the report command prints of the same log.
  assert.equal(run.stdout.replace(/Reports: .*/, ''), report.stdout.replace(/Reports: .*/, ''));
});
