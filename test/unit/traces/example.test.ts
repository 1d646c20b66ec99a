// The bundled traces example stays what it says: its dataset is exactly what import-traces makes of its trace file,
// and its eval file loads and runs offline over those rows.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { importTraces, toJsonLines } from '../../../src/core/traces/importTraces.js';

const EXAMPLE = path.resolve(__dirname, '../../../examples/traces');

test('examples/traces/dataset.jsonl is import-traces of app-traces.jsonl', async () => {
  const outcome = await importTraces(path.join(EXAMPLE, 'app-traces.jsonl'), { where: [], seed: 2333 });
  assert.deepEqual(outcome.problems.map((p) => p.format()), []);
  assert.equal(outcome.rows.length, 3);
  assert.equal(toJsonLines(outcome.rows), readFileSync(path.join(EXAMPLE, 'dataset.jsonl'), 'utf8'), 'regenerate it with the command in examples/traces/README.md');
});

test('the example eval file loads with both suites on the imported dataset', async () => {
  const spec = await loadEvalSpec(path.join(EXAMPLE, 'traces-example.eval.yaml'));
  assert.deepEqual(spec.suites.map((s) => [s.method, path.basename(s.dataset ?? '')]), [['ragas', 'dataset.jsonl'], ['llm-eval', 'dataset.jsonl']]);
});
