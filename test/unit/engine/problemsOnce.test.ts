// A bad row of a dataset that several suites read is one input problem, not one per suite.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { planSuites } from '../../../src/core/engine/plan.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { createWorkspace, rgbRows } from './workspace.js';

const twoSuitesYaml = ({ dataset }: { dataset: string }) => `version: 1
name: two suites, one dataset
models: [ "extractive:bm25" ]
suites:
  - { id: first, method: rgb, dataset: ${dataset}, params: { testbed: noise_robustness, noiseRates: [0] } }
  - { id: second, method: rgb, dataset: ${dataset}, params: { testbed: noise_robustness, noiseRates: [0.4] } }
`;

test('two suites on one dataset report its broken line once, under the first suite; each suite still skips it', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: twoSuitesYaml, extraLines: ['{ not json'] });
  t.after(() => ws.cleanup());
  const plan = await planSuites(await loadEvalSpec(ws.evalFile), new AbortController().signal);
  const atLine3 = plan.problems.filter((p) => p.file === ws.datasetFile && p.line === 3);
  assert.equal(atLine3.length, 1, JSON.stringify(plan.problems, null, 1));
  assert.equal(atLine3[0]!.suiteId, 'first');
});

test('different problems on the same line stay apart', async (t) => {
  // Row 1 lacks a query in both suites (the same problem, once); the broken line is another problem.
  const rows = rgbRows(2);
  const ws = createWorkspace({ rows, evalYaml: twoSuitesYaml, extraLines: ['{ not json', '{"id": 9}'] });
  t.after(() => ws.cleanup());
  const plan = await planSuites(await loadEvalSpec(ws.evalFile), new AbortController().signal);
  const lines = plan.problems.filter((p) => p.file === ws.datasetFile).map((p) => p.line);
  assert.deepEqual(lines, [3, 4]);
});
