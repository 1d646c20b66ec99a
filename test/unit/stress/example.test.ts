// The bundled examples/stress: runs offline with the extractive baseline, every suite reports its table, and the one
// row whose passages never contain its reference is reported at its line while the others run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';

const EXAMPLE = path.resolve(__dirname, '../../../examples/stress/stress-example.eval.yaml');
const workspaceDir = mkdtempSync(path.join(tmpdir(), 'stress-example-'));
after(() => rmSync(workspaceDir, { recursive: true, force: true }));

test('the stress example runs offline: five suites, their tables, and qa.jsonl:15 reported once (four suites read it)', async () => {
  const outcome = await runEvaluation(EXAMPLE, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true, workspaceDir });
  assert.equal(outcome.status, 'success');
  assert.deepEqual(outcome.reports.map((r) => [r.suiteId, r.method, r.tables[0]!.id]), [
    ['noise', 'stress', 'rgb-noise-accuracy'],
    ['rejection', 'stress', 'rgb-rejection'],
    ['counterfactual', 'stress', 'rgb-counterfactual'],
    ['position', 'stress', 'stress-position'],
    ['integration', 'stress', 'rgb-integration-accuracy'],
  ]);
  assert.deepEqual(outcome.problems.map((p) => `${path.basename(p.file)}:${p.line} ${p.suiteId}`), ['qa.jsonl:15 noise']);
  // 16 usable rows × (5 ratios + 1 rejection + 2 counterfactual (with and without documents) + 5 positions) + 5 integration rows.
  assert.equal(outcome.totals.cases, 16 * 13 + 5);
  const position = outcome.reports[3]!.tables[0]!;
  assert.deepEqual(position.rows.map((r) => r.label), ['1 (first)', '2', '3', '4', '5 (last)']);
  assert.ok(position.rows.every((r) => r.cells[0]!.n === 16));
});
