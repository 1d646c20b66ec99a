// A suite's retrieval metrics: means over the questions that have a relevant document, with seeded bootstrap
// intervals and n, the line chart's table, named metrics for thresholds, and notes on what was left out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LabelSource, RetrievalRecord } from '../../../src/core/retrieval/contract.js';
import { createRetrievalMetricsAggregator } from '../../../src/core/retrieval/metricsAggregator.js';

const close = (actual: unknown, expected: number) => {
  assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${String(actual)} ≉ ${expected}`);
};

function record(passages: [string, number | undefined, LabelSource?][], relevant?: RetrievalRecord['relevant']): RetrievalRecord {
  return {
    retriever: 'command: node bm25.mjs',
    k: 1,
    candidates: passages.map(([id, relevance, labelSource], index) => ({
      rank: index + 1, id, sent: index === 0, ...(relevance === undefined ? {} : { relevance }), ...(labelSource ? { labelSource } : {}),
    })),
    ...(relevant ? { relevant } : {}),
  };
}

// Q1: a relevant at rank 1 (R = 1).                 recall@1 1, recall@3 1,   P@3 1/3, RR 1,   Rprec 1,   nDCG@3 1
// Q2: b relevant at rank 2, z never retrieved (R=2): recall@1 0, recall@3 1/2, P@3 1/3, RR 1/2, Rprec 1/2,
//     nDCG@3 = (1/log2 3) / (1 + 1/log2 3) = 0.38685280723454163
// Q3: labels call nothing relevant → left out.  Q4: no label at all → left out.
// Q5: only the retrieved passage judged (answer match), relevant at rank 1: every measure 1 but P@3 = 1/3.
function questions(): RetrievalRecord[] {
  return [
    record([['a', 1, 'relevant_ids'], ['b', 0, 'relevant_ids'], ['c', 0, 'relevant_ids']], [{ id: 'a', grade: 1 }]),
    record([['a', 0, 'relevant_ids'], ['b', 1, 'relevant_ids']], [{ id: 'b', grade: 1 }, { id: 'z', grade: 1 }]),
    record([['a', 0, 'relevant_ids']], []),
    record([['a', undefined]]),
    record([['a', 1, 'answer-match']]),
  ];
}

function finished(seed = 7, models?: string[]) {
  const aggregator = createRetrievalMetricsAggregator({ suiteId: 'qa', ks: [3, 1, 3], seed, ...(models ? { models } : {}) });
  for (const question of questions()) aggregator.add(question);
  return aggregator.finish();
}

test('one table of the means over the questions with a relevant document, each with n and an interval around it', () => {
  const { tables } = finished();
  const table = tables[0];
  assert.equal(table?.id, 'qa-retrieval');
  assert.deepEqual(table?.columns, ['command: node bm25.mjs']);
  assert.deepEqual(table?.rows.map((row) => row.label), [
    'Recall@1', 'Recall@3', 'Precision@1', 'Precision@3', 'Hit rate@1', 'Hit rate@3', 'nDCG@1', 'nDCG@3', 'MRR', 'R-precision',
  ]);
  const cell = (label: string) => table?.rows.find((row) => row.label === label)?.cells[0];
  close(cell('Recall@1')?.value, 2 / 3); // (1 + 0 + 1) / 3
  close(cell('Recall@3')?.value, 5 / 6); // (1 + 1/2 + 1) / 3
  close(cell('Precision@3')?.value, 1 / 3);
  close(cell('Hit rate@3')?.value, 1);
  close(cell('nDCG@3')?.value, 0.7956176024115139); // (1 + 0.38685280723454163 + 1) / 3
  close(cell('MRR')?.value, 5 / 6);
  close(cell('R-precision')?.value, 5 / 6);
  for (const row of table?.rows ?? []) {
    const only = row.cells[0];
    assert.equal(only?.n, 3, `${row.label}: n counts the three questions with a relevant document`);
    assert.ok(only?.low !== undefined && only.high !== undefined && only.low <= (only.value as number) && (only.value as number) <= only.high, `${row.label}: interval around the mean`);
  }
  // Every question at precision@3 = 1/3: every resample has the same mean, so the interval closes on it.
  close(cell('Precision@3')?.low, 1 / 3);
  close(cell('Precision@3')?.high, 1 / 3);
  // Recall@1 is 1, 0, 1: resamples range from 0 to 1, and the 95% interval is wide.
  assert.ok((cell('Recall@1')?.low as number) < 0.5 && (cell('Recall@1')?.high as number) === 1);
});

test('the same seed gives the same intervals; the table stays the source of the line chart', () => {
  assert.deepEqual(finished(7), finished(7));
  const { tables, charts } = finished();
  const byK = tables[1];
  assert.equal(byK?.id, 'qa-retrieval-by-k');
  assert.deepEqual(byK?.columns, ['1', '3']);
  assert.deepEqual(byK?.rows.map((row) => row.label), ['Recall', 'Precision', 'Hit rate', 'nDCG']);
  assert.deepEqual(byK?.rows[0]?.cells, tables[0]?.rows.slice(0, 2).map((row) => row.cells[0]));
  assert.deepEqual(charts, [{ kind: 'line', tableId: 'qa-retrieval-by-k', title: 'Retrieval by k', xTitle: 'k (passages)', yTitle: 'mean over questions', min: 0, max: 1 }]);
});

test('named metrics for thresholds, repeated for each model under test', () => {
  const { metrics } = finished(7, ['m1', 'm2']);
  assert.deepEqual([...new Set(metrics.map((metric) => metric.modelKey))], ['m1', 'm2']);
  assert.deepEqual(metrics.filter((metric) => metric.modelKey === 'm1').map((metric) => metric.name), [
    'recall@1', 'recall@3', 'precision@1', 'precision@3', 'hit_rate@1', 'hit_rate@3', 'ndcg@1', 'ndcg@3', 'mrr', 'r_precision',
  ]);
  const mrr = metrics.find((metric) => metric.modelKey === 'm2' && metric.name === 'mrr');
  close(mrr?.value, 5 / 6);
  assert.equal(mrr?.n, 3);
  assert.equal(finished().metrics[0]?.modelKey, 'command: node bm25.mjs', 'without models, the retriever names the metric');
});

test('notes: the bootstrap, the questions left out and why, the label sources, and labels that judge only what was retrieved', () => {
  const { notes } = finished();
  assert.ok(notes[0]?.includes('1,000 resamples'));
  assert.ok(notes.includes('1 question with no relevant passage in the labels left out of every mean (as trec_eval does).'));
  assert.ok(notes.includes('1 question without any relevance label left out.'));
  assert.ok(notes.includes('Relevance labels from: answer-match, relevant_ids.'));
  assert.ok(notes.some((note) => note.startsWith('For 1 question the labels judge only the retrieved passages')));
});

test('no question with a relevant document: no table, and the notes say why', () => {
  const aggregator = createRetrievalMetricsAggregator({ suiteId: 'qa', ks: [1], seed: 1 });
  aggregator.add(record([['a', undefined]]));
  const report = aggregator.finish();
  assert.deepEqual([report.tables, report.charts, report.metrics], [[], [], []]);
  assert.deepEqual(report.notes, ['1 question without any relevance label left out.']);
});
