// Reports: undetermined cells, notes, and combineIfRagTables' grouping by dataset and instruction.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import type { SuiteReport } from '../../../src/core/suites/contract.js';
import { combineIfRagTables, ifragReport, isIfRagReport } from '../../../src/core/suites/ifrag/report.js';
import { TOKYO_ROW, build, dataset, datasetRow, params, result, score } from './builders.js';

/** One suite's report over the Tokyo row: the model answers `response` to every case. */
async function suiteReport(suiteId: string, instruction: string, response: string, file = 'test.jsonl'): Promise<SuiteReport> {
  const { pool } = dataset([TOKYO_ROW]);
  const raw = { instruction };
  const cases = build(datasetRow(TOKYO_ROW, 0, file), pool, raw, { suiteId });
  const results: CaseResult[] = [];
  for (const evalCase of cases) results.push(result(evalCase.id, 'm:one', await score(evalCase, response, raw)));
  return ifragReport(new Map(cases.map((c) => [c.id, c])), results, params(raw), suiteId);
}

describe('ifragReport', () => {
  it('counts a model error as undetermined, not as wrong, and says so', async () => {
    const { pool } = dataset([TOKYO_ROW]);
    const cases = build(datasetRow(TOKYO_ROW, 0), pool, { instruction: 'A', kinds: ['factual'] });
    const evalCase = cases[0] as EvalCase;
    const results = [result(evalCase.id, 'm:one', [], 'error'), result(evalCase.id, 'm:two', await score(evalCase, 'Tokyo', { instruction: 'A' }))];
    const report = ifragReport(new Map([[evalCase.id, evalCase]]), results, params({ instruction: 'A', kinds: ['factual'] }), 'ifrag-test');
    const [one, two] = report.tables[0]!.rows;
    assert.deepEqual([one!.label, one!.cells[0]!.value, one!.cells[0]!.undetermined], ['m:one', null, 1]);
    assert.deepEqual([two!.label, two!.cells[0]!.value, two!.cells[0]!.n], ['m:two', 1, 1]);
    assert.ok(report.notes.some((n) => /1 result\(s\) ended in a model error/.test(n)));
    assert.equal(report.metrics.find((m) => m.modelKey === 'm:one' && m.name === 'accuracy')?.value, null);
  });

  it('names the normalisation, the ID format and (for B) the citation rule', async () => {
    const b = await suiteReport('b', 'B', 'Tokyo');
    assert.ok(b.notes.some((n) => n.includes('RGB lowercase substring')));
    assert.ok(b.notes.some((n) => n.includes('[Document N]') && n.includes('document-number rule')));
    assert.deepEqual(b.tables.map((t) => t.id), ['ifrag-accuracy-B', 'ifrag-over-refusal-B', 'ifrag-citations-B']);
  });
});

describe('combineIfRagTables', () => {
  it('lines up A, B and C over one dataset kind-major, ignoring other methods', async () => {
    const reports = [await suiteReport('c', 'C', 'Tokyo and Kyoto'), await suiteReport('a', 'A', 'Tokyo'), await suiteReport('b', 'B', 'Tokyo')];
    const other: SuiteReport = { suiteId: 'rgb', method: 'rgb', tables: [], metrics: [], notes: [] };
    const [table, ...rest] = combineIfRagTables([other, ...reports]);
    assert.equal(rest.length, 0);
    assert.deepEqual(table!.columns, ['factual-A', 'factual-B', 'factual-C', 'counterfactual-A', 'counterfactual-B', 'counterfactual-C', 'multi-answer-A', 'multi-answer-B', 'multi-answer-C']);
    assert.deepEqual(table!.rows.map((r) => [r.label, ...r.cells.map((c) => c.value)]), [['m:one', 1, 0, 1, 0, 0, 1, 1, 0, 1]]);
    assert.match(table!.notes?.[0] ?? '', /a \(A\), b \(B\), c \(C\)/);
  });

  it('one table per dataset; a dataset with one suite gets none; a repeated instruction is named by suite', async () => {
    const lone = await suiteReport('lone', 'A', 'Tokyo', 'other.jsonl');
    const twice = [await suiteReport('a1', 'A', 'Tokyo'), await suiteReport('a2', 'A', 'Kyoto')];
    const tables = combineIfRagTables([lone, ...twice]);
    assert.equal(tables.length, 1);
    assert.deepEqual(tables[0]!.columns.slice(0, 2), ['factual-A [a1]', 'factual-A [a2]']);
  });

  it('accepts reports read back from JSON and rejects ones without the ifrag block', async () => {
    const report = JSON.parse(JSON.stringify(await suiteReport('a', 'A', 'Tokyo'))) as SuiteReport;
    assert.equal(isIfRagReport(report), true);
    const { ifrag: _info, ...stripped } = report as SuiteReport & { ifrag: unknown };
    assert.equal(isIfRagReport(stripped), false);
  });
});
