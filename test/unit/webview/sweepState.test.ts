// What the sweep page reads and draws: embedded data that is not a sweep is named in words, never half-drawn; the
// heatmap's axes, held values, colour range and cells come from the sweep's own cells; a missing combination is hatched.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SweepCellResult, SweepReport } from '../../../src/core/corpus/sweep/runSweep.js';
import { cellQuestions, colourRange, defaultAxes, defaultFixed, readSweep, sweepHeatmap } from '../../../webview/state/sweep.js';

const metrics = (ndcg: number | null) => ({ recall: { value: ndcg }, precision: { value: ndcg }, hit_rate: { value: ndcg }, ndcg: { value: ndcg, low: 0, high: 1, n: 2 }, mrr: { value: ndcg }, r_precision: { value: ndcg } });
const cell = (chunkSize: number, overlap: number, k: number, ndcg: number | null, extra: Partial<SweepCellResult> = {}): SweepCellResult => ({
  key: `chunkSize=${chunkSize} overlap=${overlap} k=${k}`, settings: { chunkSize, overlap, k }, current: false, best: false, errors: 0,
  metrics: metrics(ndcg), ranks: [1, null], values: [ndcg, 0], ...extra,
});
const report: SweepReport = {
  name: 'n', evalFile: '/e.eval.yaml', suite: 'rag', retriever: 'r', metric: 'ndcg', retrievals: 8, notes: [], current: 'chunkSize=64 overlap=0 k=3',
  axes: [{ axis: 'chunkSize', values: [32, 64] }, { axis: 'overlap', values: [0, 8] }, { axis: 'k', values: [1, 3] }],
  questions: [{ id: 'q1', question: 'one?' }, { id: 'q2', question: 'two?' }],
  cells: [
    cell(32, 0, 1, 0.2), cell(32, 0, 3, 0.4), cell(32, 8, 1, 0.3), cell(32, 8, 3, 0.5),
    cell(64, 0, 1, 0.6), cell(64, 0, 3, 0.7, { current: true }), cell(64, 8, 1, 0.9, { best: true }),
  ],
};

it('reads an embedded sweep, and says what is wrong with one that is not', () => {
  assert.equal((readSweep(JSON.stringify({ format: 'rag-inspector/sweep', version: 1, sweep: report })) as SweepReport).cells.length, 7);
  assert.match(readSweep('{') as string, /^the embedded sweep is not JSON/);
  assert.equal(readSweep(JSON.stringify({ version: 2, sweep: report })), 'the embedded sweep is version 2; this viewer reads version 1');
  assert.equal(readSweep(JSON.stringify({ version: 1, sweep: { ...report, metric: 'accuracy' } })), 'the embedded sweep\'s metric accuracy is not one of recall, precision, hit_rate, ndcg, mrr, r_precision');
  assert.equal(readSweep(JSON.stringify({ version: 1, sweep: { ...report, cells: [{ key: 'x' }] } })), 'cell 0 of the embedded sweep is malformed');
});

it('starts on k across and the other largest axis down, the rest held at the best cell\'s values', () => {
  assert.deepEqual(defaultAxes(report), { x: 'k', y: 'chunkSize' });
  assert.deepEqual(defaultFixed(report), { chunkSize: 64, overlap: 8, k: 1 });
  assert.deepEqual(defaultAxes({ ...report, axes: [{ axis: 'chunkSize', values: [32, 64, 128] }] }), { x: 'chunkSize', y: undefined });
});

it('draws the chosen slice on the sweep\'s own colour range; a combination the sweep lacks is hatched', () => {
  assert.deepEqual(colourRange(report, 'ndcg'), { min: 0.2, max: 0.9 });
  const model = sweepHeatmap(report, 'k', 'chunkSize', 'ndcg', { overlap: 8 });
  assert.deepEqual(model.rows, ['32', '64']);
  assert.deepEqual(model.columns, ['1', '3']);
  assert.deepEqual(model.cells.map((row) => row.map((c) => c.value)), [[0.3, 0.5], [0.9, null]]);
  assert.deepEqual(model.cells[1]![0]!.keys, ['chunkSize=64 overlap=8 k=1']);
  assert.equal(model.cells[1]![0]!.fill, '#0cd79f'); // the top of the range: the palette's last colour
  assert.equal(model.cells[0]![0]!.fill !== undefined, true);
  assert.equal(model.cells[1]![1]!.fill, undefined);
  assert.deepEqual(model.cells[1]![1]!.keys, []);
  assert.equal(model.noData, 1);
  assert.equal(model.spec.title, 'nDCG@k by chunkSize × k');
});

it('lists a cell\'s questions with their first relevant rank and value', () => {
  assert.deepEqual(cellQuestions(report, report.cells[6]!), [{ id: 'q1', question: 'one?', rank: 1, value: 0.9 }, { id: 'q2', question: 'two?', rank: null, value: 0 }]);
});
