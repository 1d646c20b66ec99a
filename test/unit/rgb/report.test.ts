// Report tables: paper-shaped, one column per model side by side, Wilson intervals, errors kept apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { wilson } from '../../../src/core/stats.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { SUITE_ID, build, params, plainRow, result, score } from './builders.js';

describe('noise robustness report with two models', () => {
  const raw = { testbed: 'noise_robustness', noiseRates: [0, 0.8] };
  const cases: EvalCase[] = [0, 1, 2, 3].flatMap((i) => build(plainRow('Tampa, Florida', 5, 5, i), raw));
  const cached = new Map(cases.map((c) => [c.id, c]));

  async function resultsFor(modelKey: string, answer: (c: EvalCase) => string): Promise<CaseResult[]> {
    return Promise.all(cases.map(async (c) => result(c.id, modelKey, await score(c, answer(c), params(raw)))));
  }

  it('rows are ratios, columns are models, cells are Wilson proportions with n', async () => {
    // Model A is right everywhere; model B only at noise 0, and one of its calls failed.
    const a = await resultsFor('a:model', () => 'Tampa, Florida');
    const b = await resultsFor('b:model', (c) => (c.params.noiseRate === 0 ? 'Tampa, Florida' : 'Glendale, Arizona'));
    b[0] = { ...b[0]!, status: 'error', scores: [], error: { stage: 'model', kind: 'server', message: '500' } };
    const report = rgbSuite.report(cached, [...a, ...b], params(raw), SUITE_ID);
    const table = report.tables[0]!;
    assert.equal(table.id, 'rgb-noise-accuracy');
    assert.deepEqual(table.columns, ['a:model', 'b:model']);
    assert.deepEqual(table.rows.map((r) => r.label), ['0', '0.8']);
    const [zeroA, zeroB] = table.rows[0]!.cells;
    const [highA, highB] = table.rows[1]!.cells;
    const w = wilson(4, 4);
    assert.deepEqual(zeroA, { value: 1, low: w.low, high: w.high, n: 4, undetermined: 0 });
    assert.equal(zeroB!.value, 1);
    assert.equal(zeroB!.n, 3);
    assert.equal(zeroB!.undetermined, 1);
    assert.equal(highA!.value, 1);
    assert.equal(highB!.value, 0);
    const metric = (model: string, name: string) => report.metrics.find((m) => m.modelKey === model && m.name === name);
    assert.deepEqual(metric('b:model', 'accuracy'), { suiteId: SUITE_ID, modelKey: 'b:model', name: 'accuracy', value: 3 / 7, n: 7 });
    assert.equal(metric('b:model', 'accuracy@0.8')!.value, 0);
    assert.equal(metric('a:model', 'accuracy@0')!.value, 1);
    assert.ok(report.notes.some((n) => n.includes('model error')));
    assert.equal(report.method, 'rgb');
  });
});

describe('rejection and counterfactual reports with two models', () => {
  it('Table 3: Rej and Rej* rows, one column per model', async () => {
    const raw = { testbed: 'negative_rejection' };
    const cases = [0, 1].map((i) => build(plainRow('x', 1, 5, i), raw)[0]!);
    const results = [
      result(cases[0]!.id, 'a', await score(cases[0]!, 'insufficient information', params(raw))),
      result(cases[1]!.id, 'a', await score(cases[1]!, 'insufficient information', params(raw))),
      result(cases[0]!.id, 'b', await score(cases[0]!, 'Sure: y', params(raw))),
      result(cases[1]!.id, 'b', await score(cases[1]!, 'insufficient information', params(raw))),
    ];
    const report = rgbSuite.report(new Map(cases.map((c) => [c.id, c])), results, params(raw), SUITE_ID);
    const table = report.tables[0]!;
    assert.deepEqual(table.columns, ['a', 'b']);
    assert.deepEqual(table.rows.map((r) => r.label), ['Rej', 'Rej*']);
    assert.deepEqual(table.rows[0]!.cells.map((c) => c.value), [1, 0.5]);
    assert.deepEqual(table.rows[1]!.cells.map((c) => c.value), [null, null]);
  });

  it('counterfactual with several ratios gets one Table 7 per ratio', async () => {
    const raw = { testbed: 'counterfactual_robustness', noiseRates: [0, 0.4] };
    const row = { id: 9, query: 'q', answer: 'T', fakeanswer: 'F', positive: ['T.', 'T!', 'T?'], positive_wrong: ['F.', 'F!', 'F?'], negative: ['n1', 'n2'] };
    const cases = build(row, raw);
    const results = await Promise.all(cases.map(async (c) => result(c.id, 'a', await score(c, 'T', params(raw)))));
    const report = rgbSuite.report(new Map(cases.map((c) => [c.id, c])), results, params(raw), SUITE_ID);
    assert.deepEqual(report.tables.map((t) => t.id), ['rgb-counterfactual@0', 'rgb-counterfactual@0.4']);
    assert.ok(report.notes.some((n) => n.includes('withoutDocuments')));
  });
});
