// The failure split: shares of each model's failed cases per cause with Wilson intervals, and its bar charts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createFailureSplitAggregator } from '../../../src/core/retrieval/failureSplit.js';
import { wilson } from '../../../src/core/stats.js';

test('rows are the causes that occur in the contract order, columns the models sorted, each share with n = failed cases', () => {
  const split = createFailureSplitAggregator('qa');
  // model b: 3 failures (2 ranked-out, 1 generation); model a: 1 failure (not-retrieved)
  split.add('b', 'generation');
  split.add('b', 'ranked-out');
  split.add('a', 'not-retrieved');
  split.add('b', 'ranked-out');
  const { tables, charts } = split.finish();
  assert.equal(tables.length, 1);
  const table = tables[0];
  assert.equal(table?.id, 'qa-failure-causes');
  assert.deepEqual(table?.columns, ['a', 'b']);
  assert.deepEqual(table?.rows.map((row) => row.label), ['not-retrieved', 'ranked-out', 'generation']);
  const rankedOut = table?.rows[1]?.cells;
  const twoOfThree = wilson(2, 3);
  assert.deepEqual(rankedOut?.[1], { value: 2 / 3, low: twoOfThree.low, high: twoOfThree.high, n: 3 });
  assert.deepEqual(rankedOut?.[0], { value: 0, low: 0, high: wilson(0, 1).high, n: 1 });
  assert.equal(table?.rows[0]?.cells[0]?.value, 1);
  assert.ok(table?.notes?.some((note) => note.startsWith('ranked-out: a relevant passage was retrieved but ranked below')));
  assert.ok(!table?.notes?.some((note) => note.startsWith('distracted:')), 'only the causes that occur are explained');
  assert.deepEqual(charts.map((chart) => [chart.kind, chart.tableId, chart.column, chart.filter]), [
    ['bar', 'qa-failure-causes', 0, { field: 'cause' }],
    ['bar', 'qa-failure-causes', 1, { field: 'cause' }],
  ]);
});

test('no failed case: no table and no chart (nothing to split)', () => {
  assert.deepEqual(createFailureSplitAggregator('qa').finish(), { tables: [], charts: [], notes: [] });
});
