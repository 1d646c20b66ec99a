// `explain:` in an eval file: loaded with its defaults, a wrong variant name reported at its line and column.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { InputErrors } from '../../../src/core/errors.js';

const suite = 'suites:\n  - { id: a, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness } }\n';

test('explain: is loaded with failed defaulting to false; an unknown variant is named at its place', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'explain-spec-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'data.jsonl'), '{}\n');
  const file = (name: string, explain: string) => {
    const target = path.join(dir, name);
    writeFileSync(target, `version: 1\nname: x\nmodels: [ "extractive:bm25" ]\n${explain}\n${suite}`);
    return target;
  };
  assert.deepEqual((await loadEvalSpec(file('ok.eval.yaml', 'explain: { variants: [loo, position], maxCalls: 40 }'))).explain, { failed: false, variants: ['loo', 'position'], maxCalls: 40 });
  assert.equal((await loadEvalSpec(file('none.eval.yaml', ''))).explain, undefined);
  const error = await loadEvalSpec(file('bad.eval.yaml', 'explain: { failed: true, variants: [loo, shuffle] }')).catch((e: unknown) => e);
  assert.ok(error instanceof InputErrors);
  assert.match(error.errors[0]!.format(), /bad\.eval\.yaml:4:\d+: explain\.variants\[1\] is not one of the allowed values — use one of: loo, subsets, position, instruction/);
});
