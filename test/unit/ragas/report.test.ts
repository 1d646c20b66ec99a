// RAGAS report: means that keep NaN, judge errors and model errors apart; notes; and the meta-evaluation against human scores.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase, Score } from '../../../src/core/model.js';
import { averageRanks, pearson, spearman } from '../../../src/core/suites/metaEval.js';
import { ragasSuite } from '../../../src/core/suites/ragas/suite.js';
import { reportCasesOf } from '../../../src/core/suites/reportView.js';
import { SUITE_ID, build, params, result } from './builders.js';

const value = (metric: string, v: number | null, extra: Partial<Score> = {}): Score => ({ metric, value: v, ...extra });

describe('Pearson and Spearman', () => {
  // x = [1,2,3,4,5], y = [2,4,5,4,5]: means 3 and 4; deviations dx = [-2,-1,0,1,2], dy = [-2,0,1,0,1];
  // Σdxdy = 4+0+0+0+2 = 6, Σdx² = 10, Σdy² = 6 → r = 6/√60 = 0.7745966692414834.
  // Ranks of y with ties averaged: 2→1, 4,4→2.5, 5,5→4.5 = [1,2.5,4.5,2.5,4.5]; against [1..5]:
  // Σdxdy = (-2)(-2)+(-1)(-0.5)+0+(1)(-0.5)+(2)(1.5) = 7, Σdy² = 4+0.25+2.25+0.25+2.25 = 9 → ρ = 7/√90 = 0.7378647873726218.
  const x = [1, 2, 3, 4, 5];
  const y = [2, 4, 5, 4, 5];

  it('computes the hand-worked values', () => {
    assert.equal(pearson(x, y), 0.7745966692414834);
    assert.deepEqual(averageRanks(y), [1, 2.5, 4.5, 2.5, 4.5]);
    assert.equal(spearman(x, y), 0.7378647873726218);
  });

  it('a perfect monotone but non-linear relation: ρ = 1, r < 1', () => {
    assert.equal(spearman([1, 2, 3, 4], [1, 4, 9, 100]), 1);
    assert.ok((pearson([1, 2, 3, 4], [1, 4, 9, 100]) as number) < 1);
  });

  it('undefined (null) with fewer than two pairs or no variance; mismatched lengths are a bug', () => {
    assert.equal(pearson([1], [2]), null);
    assert.equal(pearson([1, 2, 3], [5, 5, 5]), null);
    assert.throws(() => pearson([1, 2], [1]), RangeError);
  });
});

describe('report', () => {
  const cases = [0, 1, 2, 3].map((i) => build({ id: i, user_input: `Q${i}?`, retrieved_contexts: ['c'], response: 'r', reference: 'g', human_scores: { faithfulness: [0.2, 0.4, 0.6, 0.8][i] } }, { metrics: ['faithfulness', 'context_recall'] }));
  // Reports read the engine's report view of a case (human scores included), not the case itself.
  const byId = reportCasesOf(new Map<string, EvalCase>(cases.map((c) => [c.id, c])), ragasSuite);

  it('means over determined values only: NaN, judge errors and model errors are counted as undetermined, never as 0', () => {
    const results: CaseResult[] = [
      result(cases[0]!.id, 'm', [value('faithfulness', 1), value('context_recall', 0.5)]),
      result(cases[1]!.id, 'm', [value('faithfulness', 0.5), value('context_recall', null, { label: 'no-statements' })]),
      result(cases[2]!.id, 'm', [value('faithfulness', null, { judgeError: 'not JSON', label: 'judge-error' }), value('context_recall', 1)]),
      result(cases[3]!.id, 'm', [], 'error'),
    ];
    const report = ragasSuite.report(byId, results, params({ metrics: ['faithfulness', 'context_recall'] }), SUITE_ID);
    const table = report.tables[0]!;
    assert.deepEqual(table.rows.map((r) => r.label), ['faithfulness', 'context_recall']);
    const faithfulness = table.rows[0]!.cells[0]!;
    assert.equal(faithfulness.value, 0.75);
    assert.equal(faithfulness.n, 2);
    assert.equal(faithfulness.undetermined, 2, 'the judge error and the model error');
    assert.ok(faithfulness.low! < 0.75 && faithfulness.high! > 0.75);
    const recall = table.rows[1]!.cells[0]!;
    assert.equal(recall.value, 0.75);
    assert.equal(recall.undetermined, 2, 'the NaN and the model error');
    assert.deepEqual(report.metrics.find((m) => m.name === 'faithfulness'), { suiteId: SUITE_ID, modelKey: 'm', name: 'faithfulness', value: 0.75, n: 2 });
    assert.ok(report.notes.some((n) => n.includes('1 result(s) ended in a model error')));
  });

  it('one column per model; a metric nobody could determine has value null with its undetermined count', () => {
    const results = cases.slice(0, 2).flatMap((c) => [
      result(c.id, 'a', [value('faithfulness', null, { label: 'needs-judge-model' }), value('context_recall', null, { label: 'needs-judge-model' })]),
      result(c.id, 'b', [value('faithfulness', null, { label: 'needs-judge-model' }), value('context_recall', null, { label: 'needs-judge-model' })]),
    ]);
    const report = ragasSuite.report(byId, results, params(), SUITE_ID);
    assert.deepEqual(report.tables[0]!.columns, ['a', 'b']);
    assert.deepEqual(report.tables[0]!.rows[0]!.cells[1], { value: null, n: 0, undetermined: 2 });
    assert.ok(report.notes.some((n) => n.startsWith('RAGAS metrics need a judge model')));
  });

  it('notes name the scoring mode: AP form and the noncommittal rule with its ragas version', () => {
    const results = [result(cases[0]!.id, 'm', [value('answer_relevancy', 0.9), value('context_precision', 0.9999999999)])];
    const reference = ragasSuite.report(byId, results, params(), SUITE_ID).notes.join('\n');
    assert.match(reference, /Σ v \+ 1e-10/);
    assert.match(reference, /rule "all" \(ragas after PR #2327/);
    const fixed = ragasSuite.report(byId, results, params({ contextPrecision: { exact: true }, answerRelevancy: { noncommittal: 'any' } }), SUITE_ID).notes.join('\n');
    assert.match(fixed, /exact average precision/);
    assert.match(fixed, /rule "any" \(ragas releases before PR #2327/);
  });

  it('meta-evaluation: Pearson and Spearman per metric against the rows\' human scores', () => {
    // metric [0.1, 0.5, 0.4, 0.9] vs human [0.2, 0.4, 0.6, 0.8]: ranks [1,3,2,4] vs [1,2,3,4] → ρ = 1 − 6·2/(4·15) = 0.8.
    const metric = [0.1, 0.5, 0.4, 0.9];
    const results = cases.map((c, i) => result(c.id, 'm', [value('faithfulness', metric[i]!)]));
    const report = ragasSuite.report(byId, results, params(), SUITE_ID);
    const agreement = report.tables.find((t) => t.id === 'ragas-human-agreement')!;
    assert.deepEqual(agreement.rows.map((r) => r.label), ['faithfulness · Pearson r', 'faithfulness · Spearman ρ']);
    assert.equal(agreement.rows[0]!.cells[0]!.value, pearson(metric, [0.2, 0.4, 0.6, 0.8]));
    assert.ok(Math.abs((agreement.rows[1]!.cells[0]!.value as number) - 0.8) < 1e-12);
    assert.equal(agreement.rows[1]!.cells[0]!.n, 4);
  });

  it('no human scores: no agreement table', () => {
    const plain = build({ id: 'x', user_input: 'Q', retrieved_contexts: ['c'], response: 'r' });
    const report = ragasSuite.report(reportCasesOf([plain], ragasSuite), [result(plain.id, 'm', [value('faithfulness', 1)])], params(), SUITE_ID);
    assert.equal(report.tables.some((t) => t.id === 'ragas-human-agreement'), false);
  });
});
