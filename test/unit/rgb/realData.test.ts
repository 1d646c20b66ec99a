// Case building on the real RGB files (test/data/rgb: CC BY-NC-SA, tests only).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import type { DatasetRow, EvalCase } from '../../../src/core/model.js';
import { DEFAULT_NOISE_RATES } from '../../../src/core/suites/rgb/params.js';
import type { Testbed } from '../../../src/core/suites/rgb/params.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { RGB_DATA as DATA } from '../testData.js';
import { SUITE_ID, params, readJsonl } from './builders.js';


/** The value a case's `source` ("positive_wrong[2]", "positive[1][0]") points at in the row. */
function atSource(row: Record<string, unknown>, source: string): unknown {
  const [, field, rest] = /^([a-z_]+)((?:\[\d+\])+)$/.exec(source) ?? [];
  assert.ok(field && rest, `bad source ${source}`);
  let value: unknown = row[field];
  for (const [, i] of rest.matchAll(/\[(\d+)\]/g)) value = (value as unknown[])[Number(i)];
  return value;
}

const ROLE_OF_FIELD: Record<string, string> = { positive: 'positive', negative: 'negative', positive_wrong: 'counterfactual' };

function checkCase(evalCase: EvalCase, row: DatasetRow, passageNum: number): void {
  const docs = evalCase.documents;
  assert.ok(docs.length <= Math.max(passageNum, (row.data.positive as unknown[]).length), `${evalCase.id}: ${docs.length} documents`);
  docs.forEach((d, i) => {
    assert.equal(d.id, `d${i}`);
    assert.equal(d.text, atSource(row.data, d.source!), `${evalCase.id} ${d.id} text is not ${d.source}`);
    assert.equal(d.role, ROLE_OF_FIELD[d.source!.split('[')[0]!], `${evalCase.id} ${d.id} role vs ${d.source}`);
    for (const span of d.spans) assert.equal(d.text.slice(span.start, span.end), span.text);
  });
  assert.equal(new Set(docs.map((d) => d.source)).size, docs.length, 'no passage twice');
  const p = evalCase.params as Record<string, number | null>;
  assert.equal(p.positives, docs.filter((d) => d.role === 'positive').length);
  assert.equal(p.negatives, docs.filter((d) => d.role === 'negative').length);
  assert.equal(p.counterfactuals, docs.filter((d) => d.role === 'counterfactual').length);
  assert.equal(p.effectiveNoiseRate, docs.length === 0 ? null : (p.negatives as number) / docs.length);
}

const FILES: { file: string; testbeds: Testbed[]; language: 'en' | 'zh' }[] = [
  { file: 'en_fact.json', testbeds: ['counterfactual_robustness', 'noise_robustness', 'negative_rejection'], language: 'en' },
  { file: 'zh_fact.json', testbeds: ['counterfactual_robustness', 'noise_robustness', 'negative_rejection'], language: 'zh' },
  { file: 'zh_refine.sample60.json', testbeds: ['noise_robustness', 'negative_rejection'], language: 'zh' },
];

describe('real RGB files', () => {
  const rows = new Map<string, DatasetRow[]>();
  before(async () => {
    for (const { file } of FILES) rows.set(file, await readJsonl(path.join(DATA, file)));
  });

  for (const { file, testbeds, language } of FILES) {
    for (const testbed of testbeds) {
      it(`${file}: every row builds a case at each default ${testbed} ratio, consistent with its row`, () => {
        const p = params({ testbed, language });
        const all = rows.get(file)!;
        assert.ok(all.length >= 60);
        let differing = 0;
        for (const row of all) {
          const cases = rgbSuite.expandRow(row, p, { suiteId: SUITE_ID, seed: 2333, models: [] });
          assert.deepEqual(cases.map((c) => c.params.noiseRate), [...DEFAULT_NOISE_RATES[testbed]]);
          for (const evalCase of cases) {
            checkCase(evalCase, row, p.passageNum);
            if (evalCase.params.effectiveNoiseRate !== evalCase.params.noiseRate) differing++;
          }
        }
        // The fact files have rows with a single positive, so some noise cases must run at another effective ratio;
        // the refined file has at least 5 of each, so none may.
        if (testbed === 'noise_robustness') {
          if (file.includes('_fact')) assert.ok(differing > 0, 'expected some rows to run at another effective ratio');
          else assert.equal(differing, 0);
        }
      });
    }
  }

  it('counterfactual cases show only rewritten passages at the default noise 0 and carry the fake answer', () => {
    const p = params({ testbed: 'counterfactual_robustness' });
    for (const row of rows.get('en_fact.json')!) {
      const [evalCase] = rgbSuite.expandRow(row, p, { suiteId: SUITE_ID, seed: 1, models: [] });
      assert.ok(evalCase!.documents.length > 0);
      assert.ok(evalCase!.documents.every((d) => d.role === 'counterfactual'));
      assert.ok((evalCase!.expected as { fakeanswer?: unknown }).fakeanswer);
    }
  });

  it('the same seed gives the same order; another seed another order', () => {
    const p = params({ testbed: 'noise_robustness', language: 'zh' });
    const orders = (seed: number) => rows.get('zh_refine.sample60.json')!
      .flatMap((row) => rgbSuite.expandRow(row, p, { suiteId: SUITE_ID, seed, models: [] }))
      .map((c) => (c.params.order as string[]).join(','));
    assert.deepEqual(orders(2333), orders(2333));
    const a = orders(2333);
    const b = orders(2334);
    const changed = a.filter((order, i) => order !== b[i]).length;
    assert.ok(changed > a.length / 2, `only ${changed} of ${a.length} orders changed`);
  });

  it('answer spans are found in the positives of the refined zh file', () => {
    const p = params({ testbed: 'noise_robustness', language: 'zh', noiseRates: [0] });
    let withSpan = 0;
    let positives = 0;
    for (const row of rows.get('zh_refine.sample60.json')!) {
      const [evalCase] = rgbSuite.expandRow(row, p, { suiteId: SUITE_ID, seed: 5, models: [] });
      for (const d of evalCase!.documents.filter((doc) => doc.role === 'positive')) {
        positives++;
        if (d.spans.some((s) => s.kind === 'answer')) withSpan++;
      }
    }
    assert.ok(withSpan / positives > 0.8, `${withSpan}/${positives} positives have an answer span`);
  });
});
