// A sweep cell's end-to-end run read for the sweep view: accuracy and the failure split per model from the rag
// report's own tables, and a run that did not end cleanly said in words, never shown as a success.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellModels, finishedCellRun } from '../../../src/core/report/sweepCellRun.js';
import { createFailureSplitAggregator } from '../../../src/core/retrieval/failureSplit.js';
import type { RunStatus, RunTotals } from '../../../src/core/model.js';
import type { SuiteReport } from '../../../src/core/suites/contract.js';
import { wilsonCell } from '../../../src/core/suites/reportCells.js';

/** A rag suite's report as its aggregator writes it: accuracy per model, then the failure split's table. */
function ragReport(): SuiteReport {
  const split = createFailureSplitAggregator('corpus');
  for (const cause of ['not-retrieved', 'not-retrieved', 'ranked-out'] as const) split.add('m:a', cause);
  split.add('m:b', 'generation');
  const accuracy = { id: 'accuracy', title: 'Answer accuracy', columns: ['m:a', 'm:b'], rows: [{ label: 'accuracy', cells: [wilsonCell(7, 10, 1), wilsonCell(9, 10, 0)] }] };
  return { suiteId: 'corpus', method: 'rag', tables: [accuracy, ...split.finish().tables], metrics: [], notes: [] };
}

const totals = (over: Partial<RunTotals>): RunTotals => ({ cases: 10, success: 10, error: 0, passed: 7, failed: 3, modelCalls: 10, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0, ...over });
const run = (status: RunStatus, over: Partial<RunTotals> = {}) => ({ runId: 'r1', createdAt: '2026-11-29T07:00:00.000Z', status, totals: totals(over) });

test('each model\'s accuracy with its interval and the causes its failures have, in the split\'s order', () => {
  const [a, b] = cellModels([ragReport()], 'corpus');
  assert.equal(a!.model, 'm:a');
  assert.equal(a!.accuracy.value, 0.7);
  assert.equal(a!.accuracy.n, 10);
  assert.equal(a!.accuracy.undetermined, 1);
  assert.ok(typeof a!.accuracy.low === 'number' && a!.accuracy.low < 0.7 && (a!.accuracy.high as number) > 0.7);
  assert.deepEqual(a!.split.map((s) => [s.cause, s.share.value, s.share.n]), [['not-retrieved', 2 / 3, 3], ['ranked-out', 1 / 3, 3]]);
  assert.deepEqual(b!.split.map((s) => s.cause), ['generation'], 'a cause another model has is not listed with a zero share');
});

test('a report of another suite, or none, gives no numbers rather than zeros', () => {
  assert.deepEqual(cellModels([ragReport()], 'other'), []);
  assert.deepEqual(cellModels([], 'corpus'), []);
});

test('only a clean run has no problem; errors, unreadable judge answers, a cancel, a stop and an interruption are each said in words', () => {
  assert.equal(finishedCellRun('k=1', run('success'), [ragReport()], 'corpus').problem, undefined);
  const errored = finishedCellRun('k=1', run('completed-with-errors', { error: 2, success: 8 }), [ragReport()], 'corpus');
  assert.equal(errored.status, 'completed-with-errors');
  assert.equal(errored.errors, 2);
  assert.match(errored.problem!, /^2 of 10 case\(s\) ended in an error and are not in the accuracy/);
  assert.match(finishedCellRun('k=1', run('cancelled'), [], 'corpus').problem!, /^cancelled before every case ran/);
  assert.match(finishedCellRun('k=1', run('error'), [], 'corpus').problem!, /stopped with an error/);
  assert.match(finishedCellRun('k=1', { ...run('started'), interrupted: true }, [], 'corpus').problem!, /did not finish \(interrupted\); Resume Interrupted Run/);
  assert.match(finishedCellRun('k=1', run('started'), [], 'corpus').problem!, /has not finished yet/);
  assert.match(finishedCellRun('k=1', run('completed-with-judge-errors', { judgeErrors: 3 }), [], 'corpus').problem!, /^3 judge answer\(s\) could not be read: undetermined/);
});
