// LLM-Eval report: means per dimension that keep judge errors apart, the histogram of scores, and Pearson/Spearman against humans.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase, Score } from '../../../src/core/model.js';
import { binIndex, histogramBins } from '../../../src/core/suites/llmEval/report.js';
import { SCALE_CONFIG } from '../../../src/core/suites/llmEval/schema.js';
import { llmEvalSuite } from '../../../src/core/suites/llmEval/suite.js';
import { reportCasesOf } from '../../../src/core/suites/reportView.js';

const params = llmEvalSuite.parseParams({ dimensions: ['content'] }, { file: 't.eval.yaml' });
const human = [1, 2, 3, 4, 5];
const cases: EvalCase[] = human.map((h, i) => llmEvalSuite.expandRow({ ref: { file: 'd.jsonl', line: i + 1, index: i }, data: { id: i, context: 'c', response: 'r', human_content: h } }, params, { suiteId: 'le', seed: 1, models: [] })[0] as EvalCase);
// Reports read the engine's report view of a case (human scores included), not the case itself.
const byId = reportCasesOf(cases, llmEvalSuite);
const result = (i: number, modelKey: string, score: Partial<Score>, status: 'success' | 'error' = 'success'): CaseResult =>
  ({ caseId: cases[i]!.id, modelKey, status, scores: status === 'success' ? [{ metric: 'content', value: null, ...score }] : [], attempts: 1, startedAt: '', finishedAt: '' });

describe('histogram bins', () => {
  it('0–5: five unit bins, 5.0 in the top one; 0–100: ten bins of 10', () => {
    const bins = histogramBins(SCALE_CONFIG['0-5']);
    assert.deepEqual(bins.map((b) => b.label), ['[0, 1)', '[1, 2)', '[2, 3)', '[3, 4)', '[4, 5]']);
    assert.deepEqual([0, 0.9, 1, 4.5, 5].map((v) => binIndex(v, bins)), [0, 0, 1, 4, 4]);
    assert.equal(histogramBins(SCALE_CONFIG['0-100']).length, 10);
  });
});

describe('report', () => {
  // Model m scores [2, 4, 5, 4, 5] against human [1, 2, 3, 4, 5]:
  // r = Σdxdy/√(Σdx²Σdy²) with means 4 and 3: dx = [-2,0,1,0,1], dy = [-2,-1,0,1,2] → 6/√(6·10) = 0.7745966692414834;
  // ρ: ranks of m = [1,2.5,4.5,2.5,4.5] → 7/√(9·10) = 0.7378647873726218.
  const scoresM = [2, 4, 5, 4, 5];
  const results: CaseResult[] = [
    ...scoresM.map((v, i) => result(i, 'm', { value: v })),
    result(0, 'n', { value: 1 }),
    result(1, 'n', { judgeError: 'not JSON', label: 'judge-error' }),
    result(2, 'n', {}, 'error'),
  ];
  const report = llmEvalSuite.report(byId, results, params, 'le');

  it('means per dimension and model, judge and model errors undetermined', () => {
    const means = report.tables.find((t) => t.id === 'llm-eval-means')!;
    assert.deepEqual(means.columns, ['m', 'n']);
    const [m, n] = means.rows[0]!.cells;
    assert.equal(m!.value, 4);
    assert.equal(m!.n, 5);
    assert.deepEqual(n, { value: 1, n: 1, undetermined: 2 });
    assert.deepEqual(report.metrics.map((x) => [x.modelKey, x.name, x.value, x.n]), [['m', 'content', 4, 5], ['n', 'content', 1, 1]]);
  });

  it('a histogram of the scores per dimension', () => {
    const histogram = report.tables.find((t) => t.id === 'llm-eval-distribution-content')!;
    assert.deepEqual(histogram.rows.map((r) => r.cells[0]!.value), [0, 0, 1, 0, 4]);
    assert.deepEqual(histogram.rows.map((r) => r.cells[1]!.value), [0, 1, 0, 0, 0]);
  });

  it('Pearson and Spearman against the human scores, the paper\'s validation', () => {
    const agreement = report.tables.find((t) => t.id === 'llm-eval-human-agreement')!;
    assert.deepEqual(agreement.rows.map((r) => r.label), ['content · Pearson r', 'content · Spearman ρ']);
    assert.deepEqual(agreement.rows[0]!.cells[0], { value: 0.7745966692414834, n: 5 });
    assert.deepEqual(agreement.rows[1]!.cells[0], { value: 0.7378647873726218, n: 5 });
    assert.deepEqual(agreement.rows[0]!.cells[1], { value: null, n: 1 }, 'one pair: undefined, not 0');
  });

  it('notes say what produced the numbers', () => {
    const notes = report.notes.join('\n');
    assert.match(notes, /greedy decoding \(temperature 0\), response level without a reference/);
    assert.match(notes, /1 result\(s\) ended in a model error/);
  });
});
