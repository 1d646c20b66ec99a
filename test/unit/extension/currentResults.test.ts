// The current-results rules that diagnostics, CodeLens, hovers, reruns and the Test Explorer share, on real run logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { caseKey } from '../../../src/core/model.js';
import type { CaseResult, EvalCase, InputProblem } from '../../../src/core/model.js';
import { RunLogWriter, listRuns } from '../../../src/core/run/runLog.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import { MAX_CHAIN, currentResults, newestFirst } from '../../../src/extension/currentResults.js';
import type { IndexedRun, LatestResults } from '../../../src/extension/currentResults.js';

const SPEC = '/w/rgb.eval.yaml';
const DATASET = '/w/en.jsonl';
const MODEL = 'm:a';

interface RunOptions {
  runId: string;
  /** Minutes after 12:00, so the start order is explicit. */
  minute: number;
  /** Row number → passed. */
  cases: Record<number, boolean>;
  specFile?: string;
  specHash?: string;
  datasetHash?: string;
  /** Omitted: the run is still going (no summary line). */
  problems?: InputProblem[];
}

function evalCase(row: number): EvalCase {
  return {
    id: `noise/${row}/noise=0`, suiteId: 'noise', method: 'rgb', testbed: 'noise_robustness', row: { file: DATASET, line: row + 1, index: row },
    question: `Question ${row}?`, template: '/w/qa.prompt', documents: [], expected: ['x'], params: {}, variables: {}, messages: [{ role: 'user', content: `Question ${row}?` }],
  };
}

function result(row: number, pass: boolean): CaseResult {
  return {
    caseId: `noise/${row}/noise=0`, modelKey: MODEL, status: 'success', attempts: 1, pass,
    scores: [{ metric: 'accuracy', value: pass ? 1 : 0, pass }], startedAt: '2026-11-22T12:00:00.000Z', finishedAt: '2026-11-22T12:00:01.000Z',
  };
}

async function writeRun(dir: string, run: RunOptions): Promise<void> {
  const writer = await RunLogWriter.create(dir, {
    runId: run.runId,
    createdAt: `2026-11-22T12:${String(run.minute).padStart(2, '0')}:00.000Z`,
    tool: { name: 'rag-inspector', version: '0.1.0' },
    spec: { file: run.specFile ?? SPEC, hash: run.specHash ?? 'spec-1', name: 'rgb' },
    inputs: [{ kind: 'dataset', file: DATASET, hash: run.datasetHash ?? 'data-1' }],
    models: [MODEL],
    seed: 1,
  });
  for (const [row, pass] of Object.entries(run.cases)) writer.appendCase({ case: evalCase(Number(row)), result: result(Number(row), pass) });
  if (run.problems) {
    const totals = { cases: 0, success: 0, error: 0, passed: 0, failed: 0, modelCalls: 0, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0 };
    writer.appendSummary({ status: 'success', finishedAt: '2026-11-22T13:00:00.000Z', totals, reports: [], thresholds: [], problems: run.problems });
  }
  writer.close();
}

/** The logs written into a fresh folder, read the way RunStore reads them (listed newest first, each by its index). */
async function resultsOf(runs: RunOptions[], read: (file: string) => Promise<IndexedRun | undefined> = (file) => RunLogIndex.build(file)): Promise<LatestResults | undefined> {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-current-results-'));
  try {
    for (const run of runs) await writeRun(dir, run);
    return await currentResults(SPEC, newestFirst(await listRuns(dir)), read);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Row → [passed, run id] of each current result. */
function verdicts(results: LatestResults | undefined): Record<number, [boolean | undefined, string]> {
  assert.ok(results, 'the eval file has current results');
  return Object.fromEntries([...results.entries.values()].map((e) => [e.evalCase.row.index, [e.result.pass, e.runId]]));
}

test('a rerun of the failed cases is completed by the run before it: each (case, model) from the newest run that has it', async () => {
  const results = await resultsOf([
    { runId: 'r1', minute: 1, cases: { 0: true, 1: false, 2: false }, problems: [] },
    { runId: 'r2', minute: 2, cases: { 1: true }, problems: [] },
  ]);
  assert.deepEqual(verdicts(results), { 0: [true, 'r1'], 1: [true, 'r2'], 2: [false, 'r1'] });
  assert.equal(results?.latestRunId, 'r2');
  assert.deepEqual(results?.runIds, ['r2', 'r1']);
  assert.ok(results?.entries.has(caseKey('noise/1/noise=0', MODEL)), 'entries are keyed like the inspector\'s list');
});

test('runs of an earlier version of the eval file do not count, nor anything older than them', async () => {
  const results = await resultsOf([
    { runId: 'r1', minute: 1, cases: { 0: false, 3: false }, problems: [] },
    { runId: 'r2', minute: 2, specHash: 'spec-0', cases: { 0: true, 2: false }, problems: [] },
    { runId: 'r3', minute: 3, cases: { 1: true }, problems: [] },
  ]);
  assert.deepEqual(verdicts(results), { 1: [true, 'r3'] });
  assert.deepEqual(results?.runIds, ['r3']);
});

test('an earlier result whose dataset changed since is left out: its row may have moved', async () => {
  const results = await resultsOf([
    { runId: 'r1', minute: 1, datasetHash: 'data-0', cases: { 0: false, 1: false }, problems: [] },
    { runId: 'r2', minute: 2, cases: { 1: true }, problems: [] },
  ]);
  assert.deepEqual(verdicts(results), { 1: [true, 'r2'] });
});

test('"newest" is the start time in the header, not the run id (two runs in one second share an id prefix)', async () => {
  const results = await resultsOf([
    { runId: 'r-b', minute: 1, cases: { 0: false }, problems: [] },
    { runId: 'r-a', minute: 2, cases: { 0: true }, problems: [] },
  ]);
  assert.deepEqual(verdicts(results), { 0: [true, 'r-a'] });
  assert.equal(results?.latestRunId, 'r-a');
});

test('input problems come from the newest run that finished; a run still going has none yet', async () => {
  const problem: InputProblem = { file: DATASET, line: 9, message: 'bad row' };
  const results = await resultsOf([
    { runId: 'r1', minute: 1, cases: { 0: true }, problems: [problem] },
    { runId: 'r2', minute: 2, cases: { 1: true } },
  ]);
  assert.deepEqual(results?.problems, [problem]);
  assert.deepEqual(verdicts(results), { 0: [true, 'r1'], 1: [true, 'r2'] });
});

test('a log that cannot be read is skipped, the runs before it still count', async () => {
  const results = await resultsOf([
    { runId: 'r1', minute: 1, cases: { 0: false }, problems: [] },
    { runId: 'r2', minute: 2, cases: { 1: true }, problems: [] },
  ], async (file) => (path.basename(file) === 'r2.jsonl' ? undefined : RunLogIndex.build(file)));
  assert.deepEqual(verdicts(results), { 0: [false, 'r1'] });
});

test(`at most ${MAX_CHAIN} runs are folded`, async () => {
  const runs = Array.from({ length: MAX_CHAIN + 1 }, (_, i): RunOptions => ({ runId: `r${String(i).padStart(2, '0')}`, minute: i, cases: { [i]: true }, problems: [] }));
  const results = await resultsOf(runs);
  assert.equal(results?.entries.size, MAX_CHAIN);
  assert.equal(verdicts(results)[0], undefined, 'the oldest run is past the chain');
});

test('an eval file without runs has no current results; runs of other eval files are not its', async () => {
  assert.equal(await resultsOf([{ runId: 'r1', minute: 1, specFile: '/w/other.eval.yaml', cases: { 0: true }, problems: [] }]), undefined);
});
