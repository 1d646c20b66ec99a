// The needle report: heatmap tables per model (rows = depth, columns = length), the summary, metrics and chart specs.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { EvalCase, Score } from '../../../src/core/model.js';
import { needleReport } from '../../../src/core/suites/needle/report.js';
import type { HeatmapChartSpec } from '../../../src/core/suites/contract.js';
import { params, result } from './builders.js';

function cell(id: string, contextLength: number, requestedDepth: number | null): EvalCase {
  return {
    id, suiteId: 's', method: 'needle', row: { file: 'x', line: 1, index: 0 }, question: 'q', documents: [], expected: {}, variables: {}, messages: [],
    params: { contextLength, requestedDepth, actualDepthPercent: requestedDepth === null ? null : requestedDepth - 1, negative: requestedDepth === null, boundary: 'sentence', tokenizer: 'o200k_base', approximateTokenizer: false },
  };
}

const judged = (value: number | null): Score[] => [value === null ? { metric: 'judge_score', value: null, judgeError: 'no [[rating]]' } : { metric: 'judge_score', value, pass: value >= 7 }];
const railed = (label: 'pass' | 'refusal' | 'miss', pass: boolean): Score[] => [{ metric: 'rail', value: pass ? 1 : 0, pass, label }];

describe('needle report', () => {
  const p = params({ contextLengths: [2000, 1000], depths: [100, 0] });
  const cases = new Map([
    ['a', cell('a', 1000, 0)], ['b', cell('b', 2000, 0)], ['c', cell('c', 1000, 100)], ['d', cell('d', 2000, 100)],
  ]);

  it('one heatmap per model: depths ascending down, lengths ascending across, mean with n; errors undetermined', () => {
    const results = [
      result('a', 'm:one', judged(10)), result('b', 'm:one', judged(1)), result('c', 'm:one', judged(null)), result('d', 'm:one', [], 'error'),
      result('a', 'm:two', judged(8)), result('b', 'm:two', judged(8)), result('c', 'm:two', judged(6)), result('d', 'm:two', judged(9)),
    ];
    const report = needleReport(cases, results, p, 's');
    const one = report.tables.find((t) => t.id === 'needle-heatmap:m:one')!;
    assert.deepEqual(one.columns, ['1000', '2000']);
    assert.deepEqual(one.rows.map((r) => r.label), ['0', '100']);
    assert.deepEqual(one.rows[0]!.cells.map((c) => [c.value, c.n]), [[10, 1], [1, 1]]);
    assert.deepEqual(one.rows[1]!.cells.map((c) => [c.value, c.n, c.undetermined]), [[null, 0, 1], [null, 0, 1]]);
    assert.ok(report.tables.some((t) => t.id === 'needle-heatmap:m:two'));

    const metric = (model: string, name: string) => report.metrics.find((m) => m.modelKey === model && m.name === name);
    assert.deepEqual([metric('m:one', 'mean_score')?.value, metric('m:one', 'mean_score')?.n], [5.5, 2]);
    assert.deepEqual([metric('m:one', 'pass_rate')?.value, metric('m:one', 'miss_count')?.value], [0.5, 1]);
    assert.deepEqual([metric('m:two', 'mean_score')?.value, metric('m:two', 'pass_rate')?.value, metric('m:two', 'miss_count')?.value], [7.75, 0.75, 1]);

    const summary = report.tables.find((t) => t.id === 'needle-summary')!;
    assert.deepEqual(summary.columns, ['m:one', 'm:two']);
    const passRate = summary.rows[1]!.cells[0]!;
    assert.deepEqual([passRate.value, passRate.n, passRate.undetermined], [0.5, 2, 2]);
    assert.ok(passRate.low! < 0.5 && passRate.high! > 0.5, 'a Wilson interval');

    assert.deepEqual((report.charts as HeatmapChartSpec[] | undefined)?.map((c) => [c.kind, c.tableId, c.xTitle, c.yTitle, c.colors.join(' '), c.min, c.max]), [
      ['heatmap', 'needle-heatmap:m:one', 'Token Limit', 'Depth Percent', '#F0496E #EBB839 #0CD79F', 1, 10],
      ['heatmap', 'needle-heatmap:m:two', 'Token Limit', 'Depth Percent', '#F0496E #EBB839 #0CD79F', 1, 10],
    ]);
    assert.ok(report.notes.some((n) => n.includes('issue #39')), 'the judge\'s known verbosity bias is named');
    assert.ok(report.notes.some((n) => n.includes('1 result(s) ended in a model error')));
  });

  it('the scoring is explicit on the suite: a judge: in the eval file picks the judge by default, and the report says so', () => {
    const byJudge = needleReport(cases, [result('a', 'm', judged(8))], p, 's');
    assert.equal(byJudge.scoring, 'judge 1–10 (default: the eval file sets judge:; params.scoring: substring keeps substring scoring)');
    assert.equal(byJudge.notes[0], `Scoring: ${byJudge.scoring}.`);
    const found: Score[] = [{ metric: 'found', value: 1, pass: true }];
    assert.match(needleReport(cases, [result('a', 'm', found)], p, 's').scoring ?? '', /^substring \(default without judge: in the eval file; with one, classic needle suites are judge-scored/);
    assert.equal(needleReport(cases, [result('a', 'm', found)], params({ contextLengths: [1000], depths: [0], scoring: 'substring' }), 's').scoring, 'substring (params.scoring: substring)');
  });

  it('Arize: labels, not an inverted score; the negative test apart from the heatmap', () => {
    const arize = params({ variant: 'arize', contextLengths: [1000, 2000], depths: [0, 100] });
    const withNegatives = new Map([...cases, ['n1', cell('n1', 1000, null)], ['n2', cell('n2', 2000, null)]]);
    const results = [
      result('a', 'm', railed('pass', true)), result('b', 'm', railed('refusal', false)), result('c', 'm', railed('miss', false)), result('d', 'm', railed('pass', true)),
      result('n1', 'm', railed('refusal', true)), result('n2', 'm', railed('miss', false)),
    ];
    const report = needleReport(withNegatives, results, arize, 's');
    const heatmap = report.tables[0]!;
    assert.equal(heatmap.rows.flatMap((r) => r.cells).reduce((n, c) => n + (c.n ?? 0), 0), 4, 'negative cells are not in the heatmap');
    const summary = report.tables.find((t) => t.id === 'needle-summary')!;
    assert.deepEqual(summary.rows.map((r) => [r.label, r.cells[0]!.value]), [
      ['Mean score', 0.5],
      ['Pass rate (the number found)', 0.5],
      ['Misses', 2],
      ['Refused (UNANSWERABLE) with the needle present', 0.25],
      ['Not parsable (neither or both rails)', 0.25],
      ['Negative test: answered UNANSWERABLE', 0.5],
    ]);
    const names = report.metrics.map((m) => `${m.name}=${m.value}`);
    assert.deepEqual(names, ['mean_score=0.5', 'pass_rate=0.5', 'miss_count=2', 'refusal_count=1', 'negative_refusal_rate=0.5']);
    const chart = report.charts?.[0] as HeatmapChartSpec | undefined;
    assert.deepEqual([chart?.min, chart?.max], [0, 1]);
  });
});
