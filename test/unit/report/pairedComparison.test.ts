// Two runs compared pair by pair on planted outcomes whose verdict is known: better, worse, no detectable change,
// cases present in one run only, errors left out of the pairs, and a lower-is-better metric worded the right way.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CaseResult, EvalCase, Score } from '../../../src/core/model.js';
import { caseVerdictLines, comparePaired, OUTCOME_METRIC } from '../../../src/core/report/pairedComparison.js';
import type { PairedRow } from '../../../src/core/report/pairedComparison.js';
import { runDataInMemory } from '../../../src/core/report/runData.js';
import type { RunData } from '../../../src/core/report/runData.js';
import { mcnemarExact } from '../../../src/core/pairedStats.js';

type Planted = 'pass' | 'fail' | 'error';

const evalCase = (id: string, suiteId: string, method: string): EvalCase => ({
  id, suiteId, method, row: { file: 'd.jsonl', line: 1, index: 0 }, question: id, documents: [], expected: [], params: {}, variables: {}, messages: [{ role: 'user', content: id }],
});

function result(id: string, outcome: Planted, extra: Score[] = []): CaseResult {
  const base = { caseId: id, modelKey: 'm:a', attempts: 1, startedAt: '', finishedAt: '' };
  if (outcome === 'error') return { ...base, status: 'error', scores: [], error: { stage: 'model', kind: 'server', message: 'down' } } as CaseResult;
  const pass = outcome === 'pass';
  return { ...base, status: 'success', pass, scores: [{ metric: 'correct', value: pass ? 1 : 0, pass }, ...extra] };
}

/** A run of the given outcomes (case ids c0, c1, …), optionally with a continuous score per case. */
function run(runId: string, outcomes: readonly Planted[], options: { method?: string; values?: readonly number[]; ids?: readonly string[] } = {}): RunData {
  const method = options.method ?? 'rgb';
  const ids = options.ids ?? outcomes.map((_, i) => `c${i}`);
  const cases = new Map(ids.map((id) => [id, evalCase(id, 's', method)]));
  const results = outcomes.map((o, i) => result(ids[i]!, o, options.values ? [{ metric: 'noise_sensitivity_relevant', value: options.values[i]! }] : []));
  return runDataInMemory({
    runId, name: 'n', specFile: 'x.eval.yaml', createdAt: '', status: 'success', models: ['m:a'],
    totals: { cases: outcomes.length, success: outcomes.length, error: 0, passed: 0, failed: 0, modelCalls: 0, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0 },
    reports: [{ suiteId: 's', method, tables: [], metrics: [], notes: [] }], thresholds: [], problems: [],
  }, cases, results);
}

/** n outcomes: `bothPass` passing on both sides, then `broken` pass → fail, `fixed` fail → pass, the rest failing on both. */
function plant(n: number, counts: { bothPass: number; broken: number; fixed: number }): { before: Planted[]; after: Planted[] } {
  const before: Planted[] = [];
  const after: Planted[] = [];
  for (let i = 0; i < n; i++) {
    if (i < counts.bothPass) { before.push('pass'); after.push('pass'); }
    else if (i < counts.bothPass + counts.broken) { before.push('pass'); after.push('fail'); }
    else if (i < counts.bothPass + counts.broken + counts.fixed) { before.push('fail'); after.push('pass'); }
    else { before.push('fail'); after.push('fail'); }
  }
  return { before, after };
}

const outcomeRow = (rows: PairedRow[]) => rows.find((r) => r.metric === OUTCOME_METRIC)!;

test('20 fixed and 2 broken of 120 is better, with the exact p-value; the reverse is worse and names the broken cases', async () => {
  const planted = plant(120, { bothPass: 60, broken: 2, fixed: 20 });
  const better = await comparePaired(run('a', planted.before), run('b', planted.after));
  const row = outcomeRow(better.rows);
  assert.deepEqual([row.n, row.fixed, row.broken, row.unchanged, row.verdict], [120, 20, 2, 98, 'better']);
  assert.equal(row.pValue, mcnemarExact(2, 20));
  assert.ok(row.pValue! < 0.001);
  assert.ok(Math.abs(row.difference! - 18 / 120) < 1e-12);
  assert.ok(row.low! > 0 && row.high! > row.difference!);
  assert.match(row.sentence, /^better \(p < 0\.001, n = 120\)$/);
  assert.equal(better.brokenCases.length, 2);
  assert.deepEqual(caseVerdictLines(better), ['s on m:a: better (p < 0.001, n = 120)']);
  assert.deepEqual(caseVerdictLines(better, ['other']), [], 'only the suites asked for');

  const worse = await comparePaired(run('b', planted.after), run('a', planted.before));
  const worseRow = outcomeRow(worse.rows);
  assert.equal(worseRow.verdict, 'worse');
  assert.ok(worseRow.high! < 0);
  assert.deepEqual(worse.brokenCases.map((c) => c.caseId).sort(), Array.from({ length: 20 }, (_, i) => `c${62 + i}`).sort());
});

test('7 fixed and 4 broken of 120 is no detectable change, with the change that would be', async () => {
  const planted = plant(120, { bothPass: 80, broken: 4, fixed: 7 });
  const comparison = await comparePaired(run('a', planted.before), run('b', planted.after));
  const row = outcomeRow(comparison.rows);
  assert.equal(row.verdict, 'no-change');
  assert.ok(Math.abs(row.pValue! - 0.548828125) < 1e-12);
  // 11 pairs disagreed: 10 against 1 is the least lopsided split McNemar calls significant → 9 of 120 = 7.5 points.
  assert.equal(row.detectable, 9 / 120);
  assert.equal(row.sentence, 'no detectable change at this size (n = 120; a change of ±7.5 points in pass rate would be detectable)');
});

test('no pairs at all, and too few to ever be significant, are said as such', async () => {
  const none = await comparePaired(run('a', []), run('b', []));
  assert.deepEqual(none.rows, []);
  const tiny = await comparePaired(run('a', ['pass', 'fail', 'pass']), run('b', ['fail', 'pass', 'fail']));
  const row = outcomeRow(tiny.rows);
  assert.equal(row.verdict, 'no-change');
  assert.match(row.sentence, /too few pairs for any change to be significant/);
});

test('cases in only one run are listed apart, never paired; errors are undetermined, never a fail', async () => {
  const before = run('a', ['pass', 'pass', 'fail', 'pass'], { ids: ['x', 'y', 'z', 'gone'] });
  const after = run('b', ['error', 'pass', 'pass', 'fail'], { ids: ['x', 'y', 'z', 'new'] });
  const comparison = await comparePaired(before, after);
  assert.deepEqual(comparison.onlyBefore, ['gone (m:a)']);
  assert.deepEqual(comparison.onlyAfter, ['new (m:a)']);
  const row = outcomeRow(comparison.rows);
  assert.deepEqual([row.n, row.undetermined, row.fixed, row.broken], [2, 1, 1, 0]);
  assert.deepEqual(comparison.brokenCases, [], 'an error is not a broken case');
});

test('a continuous metric the method marks lower-is-better: a drop is "better", from a seeded bootstrap', async () => {
  const n = 60;
  const outcomes: Planted[] = Array.from({ length: n }, () => 'pass');
  const beforeValues = Array.from({ length: n }, (_, i) => 0.5 + (i % 3) / 20);
  const afterValues = beforeValues.map((v, i) => v - 0.2 + (i % 2) / 50);
  const compareOnce = () => comparePaired(run('a', outcomes, { method: 'ragas', values: beforeValues }), run('b', outcomes, { method: 'ragas', values: afterValues }));
  const comparison = await compareOnce();
  const row = comparison.rows.find((r) => r.metric === 'noise_sensitivity_relevant')!;
  assert.equal(row.kind, 'continuous');
  assert.equal(row.lowerIsBetter, true);
  assert.equal(row.verdict, 'better');
  assert.equal(row.fixed, n);
  assert.ok(row.high! < 0, 'the mean change is negative');
  assert.deepEqual((await compareOnce()).rows, comparison.rows, 'the same runs give the same intervals');

  const rgb = await comparePaired(run('a', outcomes, { values: beforeValues }), run('b', outcomes, { values: afterValues }));
  assert.equal(rgb.rows.find((r) => r.metric === 'noise_sensitivity_relevant')!.verdict, 'worse', 'where the method does not say lower is better, lower is worse');
});
