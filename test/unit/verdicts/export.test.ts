// Verdicts travel with the reports: verdicts.json beside report.json when the workspace has verdicts, none otherwise.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { runDataInMemory } from '../../../src/core/report/runData.js';
import { writeReports } from '../../../src/core/report/writeReports.js';
import { VerdictStore } from '../../../src/core/verdicts/store.js';
import { verdictLines } from '../../../src/core/verdicts/view.js';

const evalCase = (id: string): EvalCase => ({ id, suiteId: 's', method: 'rgb', row: { file: 'd', line: 1, index: 0 }, question: id, documents: [], expected: [], params: {}, variables: {}, messages: [{ role: 'user', content: id }] });
const result = (id: string, pass: boolean): CaseResult => ({
  caseId: id, modelKey: 'm:a', status: 'success', attempts: 1, startedAt: '', finishedAt: '', pass,
  response: { text: `answer ${id}`, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, cached: false }, scores: [{ metric: 'correct', value: pass ? 1 : 0, pass }],
});

test('verdicts.json is written with the reports when the workspace (an ancestor of the eval file, up to the folder given) has verdicts, never from above it', async (t) => {
  const workspace = mkdtempSync(path.join(tmpdir(), 'rag-inspector-verdict-export-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  mkdirSync(path.join(workspace, 'evals'));
  const cases = new Map([['a', evalCase('a')], ['b', evalCase('b')]]);
  const results = [result('a', true), result('b', true)];
  const run = runDataInMemory({
    runId: 'r1', name: 'n', specFile: path.join(workspace, 'evals', 'x.eval.yaml'), createdAt: '', status: 'success', models: ['m:a'],
    totals: { cases: 2, success: 2, error: 0, passed: 2, failed: 0, modelCalls: 2, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0 },
    reports: [], thresholds: [], problems: [],
  }, cases, results);

  const none = await writeReports(run, path.join(workspace, 'out0'), ['json']);
  assert.deepEqual(none.map((f) => path.basename(f)), ['report.json'], 'no verdicts, no file');

  const entries = results.map((r) => ({ evalCase: cases.get(r.caseId)!, result: r }));
  await VerdictStore.inWorkspace(workspace).append([...verdictLines([entries[0]!], { keys: [], label: 'correct' }), ...verdictLines([entries[1]!], { keys: [], label: 'wrong' })]);
  // The eval file's folder is not the workspace: looked for no higher than it, the workspace's verdicts are not read.
  const notAbove = await writeReports(run, path.join(workspace, 'out1'), ['json'], { verdictsWithin: path.join(workspace, 'evals') });
  assert.deepEqual(notAbove.map((f) => path.basename(f)), ['report.json'], 'verdicts above the folder given are not read');
  const written = await writeReports(run, path.join(workspace, 'out'), ['json'], { verdictsWithin: workspace });
  assert.deepEqual(written.map((f) => path.basename(f)), ['report.json', 'verdicts.json']);
  const exported = JSON.parse(readFileSync(written[1]!, 'utf8')) as { cases: Record<string, { label: string }>; agreement: { metric: string; n: number; disagreements: string[] }[] };
  assert.deepEqual(Object.values(exported.cases).map((c) => c.label), ['correct', 'wrong']);
  assert.deepEqual(exported.agreement.map((a) => [a.metric, a.n, a.disagreements]), [['correct', 2, ['b\u0000m:a']]]);
  assert.ok(!existsSync(path.join(workspace, 'evals', '.rag-inspector')), 'nothing written beside the eval file');
});
