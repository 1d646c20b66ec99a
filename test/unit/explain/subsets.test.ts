// The subsets an explanation draws: every one when they fit in the budget, distinct ones stratified by size when they
// do not; and on a planted model with three passages, the surrogate never credits the passage the model does not
// read and names every harmful one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun } from '../../../src/core/explain/explainRun.js';
import { drawSubsets, planVariants } from '../../../src/core/explain/variants.js';
import { mulberry32 } from '../../../src/core/random.js';

describe('drawSubsets', () => {
  it('enumerates every subset once when 2^n fits in the budget', () => {
    const masks = drawSubsets(3, 16, mulberry32(1));
    assert.equal(masks.length, 8);
    assert.equal(new Set(masks.map((m) => m.join())).size, 8, 'no subset twice');
  });

  it('past the budget draws distinct subsets, as many of each size as uniform sampling gives on average', () => {
    for (const [n, budget] of [[5, 16], [7, 16], [10, 20], [20, 40]] as const) {
      const masks = drawSubsets(n, budget, mulberry32(n));
      assert.equal(masks.length, budget, `n=${n}`);
      assert.equal(new Set(masks.map((m) => m.join())).size, budget, `n=${n}: no subset twice`);
      const bySize = new Map<number, number>();
      for (const m of masks) bySize.set(m.filter(Boolean).length, (bySize.get(m.filter(Boolean).length) ?? 0) + 1);
      // Each size's count is its expected share under p=½ sampling, rounded one way or the other.
      let choose = 1;
      for (let k = 0; k <= n; k++) {
        const expected = (budget * choose) / 2 ** n;
        const got = bySize.get(k) ?? 0;
        assert.ok(got >= Math.floor(expected) && got <= Math.ceil(expected), `n=${n} size ${k}: ${got} for ${expected}`);
        choose = (choose * (n - k)) / (k + 1);
      }
    }
  });

  it('a case plans the same subsets every time (a resumed explanation runs only what is missing)', () => {
    const sources = Array.from({ length: 6 }, (_, i) => ({ id: `d${i}`, role: 'negative', answerBearing: false, preview: '' }));
    const plan = () => planVariants({ caseId: 'c', seed: 3, sources, sections: [], kinds: ['subsets'] }).map((v) => v.present.join());
    assert.deepEqual(plan(), plan());
  });
});

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'explain-subsets-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const REFUSAL = 'I can not answer the question because of the insufficient information in documents.';

/** Reads the passages shown: answers from the positive one, misled by any HARM passage, never reading IGNORED ones. */
function plantedModel(req: RecordedRequest): string {
  const body = /Document:\n([\s\S]*?) \n\nQuestion:/.exec(req.lastUserMessage)?.[1] ?? '';
  const docs = body.split('\n').filter((line) => line !== '' && !line.includes('IGNORED'));
  if (docs.some((d) => d.includes('HARM'))) return 'It was held in Glendale, Arizona.';
  return docs.some((d) => d.includes('Tampa')) ? 'It was held in Tampa, Florida.' : REFUSAL;
}

describe('three passages on a planted model', () => {
  it('the passage the model never reads is never "helps"; every harmful passage is named', async () => {
    server.addRule({ match: { model: 'model-a' }, reply: plantedModel });
    const ignored = Array.from({ length: 6 }, (_, i) => ({ id: `ignored${i}`, query: `Where was Super Bowl 2021 played (${i})?`, answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: [`IGNORED note ${i}: the stadium has a roof.`, `IGNORED filler ${i}: tickets are on sale.`] }));
    const harmful = Array.from({ length: 6 }, (_, i) => ({ id: `harmful${i}`, query: `Where was Super Bowl 2021 played (harm ${i})?`, answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: [`HARM one ${i}: the game moved to Glendale, Arizona.`, `HARM two ${i}: Glendale, Arizona hosted it.`] }));
    const ws = path.join(dir, 'rgb');
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'data.jsonl'), [...ignored, ...harmful].map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(path.join(ws, 'x.eval.yaml'), `version: 1\nname: subsets\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\nmaxRetries: 0\nseed: 11\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.67], passageNum: 3 } }\n`);
    const credentials = envCredentials({});
    const run = await runEvaluation(path.join(ws, 'x.eval.yaml'), { signal: new AbortController().signal, credentials });
    const { explanation } = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, variants: ['loo', 'subsets'] });
    assert.equal(explanation?.cases.length, 12);
    for (const e of explanation!.cases) {
      assert.equal(e.sources.length, 3, e.caseId);
      const effect = (marker: string) => e.attributions.filter((a) => e.sources.find((s) => s.id === a.sourceId)!.preview.includes(marker)).map((a) => a.effect);
      if (e.caseId.includes('ignored')) {
        assert.equal(e.original.pass, true, e.caseId);
        assert.deepEqual(effect('IGNORED'), ['inert', 'inert'], `${e.caseId}: the unread passages`);
        assert.deepEqual(effect('Tampa'), ['decisive'], e.caseId);
      } else {
        assert.equal(e.original.pass, false, e.caseId);
        assert.deepEqual(effect('HARM'), ['harms', 'harms'], `${e.caseId}: both harmful passages named`);
      }
      assert.equal(e.surrogate?.samples, 8, `${e.caseId}: every subset, once`);
    }
  });
});
