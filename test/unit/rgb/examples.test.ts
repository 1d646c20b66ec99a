// The bundled examples/rgb dataset: every file parses, every row builds cases for its testbed, the draft eval file names them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { readJsonl } from './builders.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples/rgb');

interface SuiteEntry {
  id: string;
  method: string;
  dataset: string;
  params: Record<string, unknown>;
}

const evalFile = parse(readFileSync(path.join(EXAMPLES, 'rgb-example.eval.yaml'), 'utf8')) as { suites: SuiteEntry[]; seed: number };

describe('examples/rgb', () => {
  it('has one suite per testbed and one for the zh file', () => {
    const testbeds = new Set(evalFile.suites.map((s) => s.params.testbed));
    assert.deepEqual([...testbeds].sort(), ['counterfactual_robustness', 'information_integration', 'negative_rejection', 'noise_robustness']);
    assert.ok(evalFile.suites.some((s) => s.dataset === 'zh.jsonl' && s.params.language === 'zh'));
  });

  for (const suite of evalFile.suites) {
    it(`${suite.id}: ${suite.dataset} parses and every row builds its cases`, async () => {
      assert.equal(suite.method, 'rgb');
      const params = rgbSuite.parseParams(suite.params, { file: 'rgb-example.eval.yaml' });
      const rows = await readJsonl(path.join(EXAMPLES, suite.dataset));
      assert.ok(rows.length >= 8, `${rows.length} rows`);
      const ids = new Set<string>();
      for (const row of rows) {
        const cases = rgbSuite.expandRow(row, params, { suiteId: suite.id, seed: evalFile.seed, models: [] });
        assert.equal(cases.length, params.noiseRates.length + (params.withoutDocuments ? 1 : 0));
        for (const evalCase of cases) {
          assert.ok(!ids.has(evalCase.id), `duplicate case id ${evalCase.id}`);
          ids.add(evalCase.id);
          if (!evalCase.params.noDocuments) assert.ok(evalCase.documents.length > 0);
        }
      }
    });
  }

  it('has the sizes and shapes the README promises', async () => {
    const read = (file: string) => readJsonl(path.join(EXAMPLES, file));
    const en = await read('en.jsonl');
    const zh = await read('zh.jsonl');
    const int = await read('en_int.jsonl');
    const fact = await read('en_fact.jsonl');
    assert.ok(en.length >= 20 && zh.length >= 20 && int.length >= 8 && fact.length >= 8);
    for (const row of [...en, ...zh]) {
      assert.ok((row.data.positive as string[]).length >= 3 && (row.data.negative as string[]).length >= 4);
    }
    for (const row of int) assert.equal((row.data.answer as unknown[]).length, 2);
    assert.ok(zh.some((row) => (row.data.answer as unknown[]).some((part) => Array.isArray(part) && part.length > 1)), 'some zh answers list alternatives');
  });
});
