// The command line over a dataset whose rows share an id: every row runs, both lines of each collision are listed,
// the status does not read as a clean success, the exit code says a problem was found, and a rerun hits the cache.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { test } from 'node:test';
import { createWorkspace, rgbRows } from '../engine/workspace.js';

const CLI = path.resolve('src/cli/main.ts');

function cli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, CI: 'true' }, encoding: 'utf8' });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

test('rows sharing id 7: three cases, both lines of each collision listed, the status says so, exit 2; the rerun is all cache hits', (t) => {
  const rows = rgbRows(3).map((row) => ({ ...row, id: 7 }));
  const ws = createWorkspace({
    rows,
    evalYaml: ({ dataset }) => `version: 1
name: one id thrice
models: [ "extractive:bm25" ]
suites:
  - { id: noise, method: rgb, dataset: ${dataset}, params: { testbed: noise_robustness, noiseRates: [0], passageNum: 2 } }
`,
  });
  t.after(() => ws.cleanup());
  const first = cli(['run', ws.evalFile, '--out', path.join(ws.dir, 'out')]);
  assert.equal(first.code, 2, first.stderr);
  assert.match(first.stdout, /Input problems \(4\):/);
  for (const line of [1, 2, 3]) assert.match(first.stdout, new RegExp(`data\\.jsonl:${line}: .*give each row a unique id`));
  assert.match(first.stdout, /Cases: 3 /);
  assert.match(first.stdout, /Status: success, with 4 input problems \(listed above\)/);

  const again = cli(['run', ws.evalFile, '--out', path.join(ws.dir, 'out2')]);
  assert.match(again.stdout, /model calls: 0, cache hits: 3/);
});
