// The bundled example: every row is a valid IF-RAG row, and the offline baseline gives the table the README describes.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readDataset } from '../../../src/core/data/readDataset.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { combineIfRagTables, isIfRagReport } from '../../../src/core/suites/ifrag/report.js';
import { readIfRagRow } from '../../../src/core/suites/ifrag/rows.js';

const EXAMPLE = path.resolve('examples/ifrag');

test('every example row is valid; all but one carry hand-written counterfactual evidence for the substitute, free of the true answer', async () => {
  let rows = 0;
  let withCounterfactual = 0;
  for await (const item of readDataset(path.join(EXAMPLE, 'ifrag.jsonl'))) {
    assert.ok(item.ok, item.ok ? '' : item.error.format());
    const row = readIfRagRow(item.row);
    rows++;
    if (!row.counterfactual) continue;
    withCounterfactual++;
    const mentions = (passage: string, aliases: string[]) => aliases.some((a) => passage.toLowerCase().includes(a.toLowerCase()));
    assert.ok(row.counterfactual.passages.some((p) => mentions(p, row.counterfactual!.answer)), String(row.id));
    for (const passage of row.counterfactual.passages) assert.ok(!mentions(passage, row.answer), passage);
  }
  assert.deepEqual([rows, withCounterfactual], [11, 10]);
});

test('the example eval runs offline and gives the 9-column table of the README', async (t) => {
  // A copy, so the run's log and cache do not land in the repository.
  const dir = mkdtempSync(path.join(tmpdir(), 'ifrag-example-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(EXAMPLE, dir, { recursive: true });
  const outcome = await runEvaluation(path.join(dir, 'ifrag-example.eval.yaml'), { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(outcome.status, 'success');
  assert.deepEqual(outcome.problems, []);
  const [table] = combineIfRagTables(outcome.reports);
  const row = table!.rows[0]!;
  assert.equal(row.label, 'extractive:bm25');
  const fractions = row.cells.map((c) => `${Math.round((c.value as number) * (c.n as number))}/${c.n}`);
  assert.deepEqual(fractions, ['10/11', '9/11', '10/11', '9/10', '8/10', '9/10', '9/10', '8/10', '0/10']);
  assert.ok(outcome.reports.filter(isIfRagReport).every((r) => r.notes.some((n) => /1 row\(s\) have no counterfactual data/.test(n))));
});
