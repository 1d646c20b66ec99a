// The layer rule (eslint/layers.mjs) run through ESLint with the project's own config, on code placed in core's folders.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { ESLint } from 'eslint';
// @ts-expect-error -- a plain ES module of the lint config, without types
import { CORE_LAYERS as layers } from '../../../eslint/layers.mjs';

const CORE_LAYERS = layers as string[];

const REPO = path.resolve(__dirname, '../../..');
const eslint = new ESLint({ cwd: REPO });

/** The layer rule's messages for `code` as if it were the file `file` (relative to the repository). */
async function layerProblems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO, file) });
  return result!.messages.filter((m) => m.ruleId === 'layers/direction').map((m) => m.message);
}

describe('core layers', () => {
  it('a lower layer importing a higher one fails, naming both and the order', async () => {
    const problems = await layerProblems('src/core/data/example.ts', "import type { Suite } from '../suites/contract.js';\nexport type S = Suite;\n");
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /src\/core\/data \(reading datasets\) may not import from src\/core\/suites/);
    // The whole order, lowest first, as the rule's table has it (the table gains a folder when core does).
    assert.ok(problems[0]!.endsWith(`Layers, lowest first: ${CORE_LAYERS.join(' < ')}.`), problems[0]);
    assert.match(CORE_LAYERS.join(' < '), /^\(base\) < vendor < data < .* < report < agentTools$/);
  });

  it('run may not reach the engine, nor the engine the reports', async () => {
    assert.equal((await layerProblems('src/core/run/example.ts', "export { runEvaluation } from '../engine/runEvaluation.js';\n")).length, 1);
    assert.equal((await layerProblems('src/core/engine/example.ts', "import { writeReports } from '../report/writeReports.js';\nexport const w = writeReports;\n")).length, 1);
  });

  it('the base (files directly in src/core) imports no folder', async () => {
    assert.equal((await layerProblems('src/core/example.ts', "import { readDataset } from './data/readDataset.js';\nexport const r = readDataset;\n")).length, 1);
  });

  it('core may not import the webview wire format or the extension', async () => {
    const protocol = await layerProblems('src/core/report/example.ts', "import type { RunDetail } from '../../protocol.js';\nexport type R = RunDetail;\n");
    assert.equal(protocol.length, 1);
    assert.match(protocol[0]!, /may not import '..\/..\/protocol.js'/);
    assert.equal((await layerProblems('src/core/engine/example.ts', "const m = import('../../extension/panel.js');\nexport { m };\n")).length, 1);
  });

  it('downward and same-folder imports pass', async () => {
    const code = [
      "import { caseKey } from '../model.js';",
      "import { runEvaluation } from '../engine/runEvaluation.js';",
      "import { readDataset } from '../data/readDataset.js';",
      "import { wilsonInterval } from '../stats.js';",
      "import { writeReports } from './writeReports.js';",
      'export const all = [caseKey, runEvaluation, readDataset, wilsonInterval, writeReports];', '',
    ].join('\n');
    assert.deepEqual(await layerProblems('src/core/report/example.ts', code), []);
  });

  it('a folder that is not in the order is named, so a new one gets a place', async () => {
    const problems = await layerProblems('src/core/scratch/example.ts', "import { caseKey } from '../model.js';\nexport const k = caseKey;\n");
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /src\/core\/scratch is not a known layer/);
  });
});
