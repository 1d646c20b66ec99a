// The faithfulness check every explanation carries: the sources it credits, removed together, must flip the outcome
// the way it predicts. A planted model where two passages interact (each alone is "harmful", both together are not the
// cause) must be reported as not flipping; a planted harmful pair as flipping; the check's call is in the cost plan.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun, planExplanation } from '../../../src/core/explain/explainRun.js';
import { explainCase } from '../../../src/core/explain/attribute.js';
import { planVariants } from '../../../src/core/explain/variants.js';
import type { ExplainSource, VariantOutcome } from '../../../src/core/explain/model.js';
import { formatCaseExplanation, formatPlan } from '../../../src/core/explain/explanationText.js';
import { attributionCsv } from '../../../src/core/report/explanationReport.js';

const sources: ExplainSource[] = ['d0', 'd1', 'd2'].map((id, i) => ({ id, role: i === 0 ? 'positive' : 'negative', answerBearing: i === 0, preview: id }));
const outcome = (variantId: string, pass: boolean | null, undeterminedBecause?: string): VariantOutcome => ({ variantId, pass, signal: pass === null ? null : Number(pass), cached: false, ...(undeterminedBecause ? { undeterminedBecause } : {}) });
const explain = (outcomes: VariantOutcome[]) => explainCase({
  caseId: 'c', modelKey: 'm', suiteId: 's', method: 'rgb', meaning: '', sources,
  variants: planVariants({ caseId: 'c', seed: 1, sources, sections: [], kinds: ['loo'] }),
  outcomes: new Map(outcomes.map((o) => [o.variantId, o])),
});

describe('the faithfulness check, from outcomes', () => {
  it('a single decisive source is checked by its own leave-one-out run (no call)', () => {
    const e = explain([outcome('original', true), outcome('loo:d0', false), outcome('loo:d1', true), outcome('loo:d2', true)]);
    assert.deepEqual(e.faithfulness && { removed: e.faithfulness.removed, predicted: e.faithfulness.predicted, status: e.faithfulness.status, variantId: e.faithfulness.variantId }, { removed: ['d0'], predicted: 'fails', status: 'flips', variantId: 'loo:d0' });
  });

  it('two harms that do not flip the verdict together: said in the summary, never passed over', () => {
    const e = explain([outcome('original', false), outcome('loo:d0', false), outcome('loo:d1', true), outcome('loo:d2', true), outcome('faithfulness:d1+d2', false)]);
    assert.equal(e.faithfulness?.status, 'does-not-flip');
    assert.deepEqual(e.faithfulness?.removed, ['d1', 'd2']);
    assert.match(e.summary, /removing d1, d2 together does not make it pass: the attributions do not account for the outcome and may mislead/);
    assert.match(formatCaseExplanation(e), /check: FAILS — the attribution may mislead: removing d1, d2 together/);
  });

  it('not run yet, undetermined, and nothing credited are each said as such', () => {
    assert.equal(explain([outcome('original', false), outcome('loo:d0', false), outcome('loo:d1', true), outcome('loo:d2', true)]).faithfulness?.status, 'not-run');
    assert.equal(explain([outcome('original', false), outcome('loo:d0', false), outcome('loo:d1', true), outcome('loo:d2', true), outcome('faithfulness:d1+d2', null, 'judge error (x): unreadable')]).faithfulness?.status, 'undetermined');
    assert.equal(explain([outcome('original', true), outcome('loo:d0', true), outcome('loo:d1', true), outcome('loo:d2', true)]).faithfulness?.status, 'nothing-to-check');
    assert.equal(explain([outcome('original', null, 'model error: 500')]).faithfulness?.status, 'nothing-to-check');
  });
});

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'explain-faithful-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const REFUSAL = 'I can not answer the question because of the insufficient information in documents.';

/**
 * Planted: HARM passages mislead; the NOTE passages interact — both together confuse the model, and with neither it
 * will not answer (it wants one corroborating note), so each NOTE alone looks harmful though removing both fixes nothing.
 */
function plantedModel(req: RecordedRequest): string {
  const body = /Document:\n([\s\S]*?) \n\nQuestion:/.exec(req.lastUserMessage)?.[1] ?? '';
  const docs = body.split('\n').filter((line) => line !== '');
  const has = (marker: string) => docs.filter((d) => d.includes(marker)).length;
  if (has('HARM')) return 'It was held in Glendale, Arizona.';
  if (req.lastUserMessage.includes('(notes)') && has('NOTE') !== 1) return has('NOTE') === 2 ? 'It was held in Glendale, Arizona.' : REFUSAL;
  return has('Tampa') ? 'It was held in Tampa, Florida.' : REFUSAL;
}

describe('on a planted model', () => {
  it('an interacting pair does not flip and is said to mislead; a harmful pair flips; the plan counts the checks', async () => {
    server.addRule({ match: { model: 'model-a' }, reply: plantedModel });
    const filler = (i: number) => [`Filler one ${i}: tickets are on sale.`, `Filler two ${i}: the stadium has a roof.`];
    const rows = [
      { id: 'notes', query: 'Where was Super Bowl 2021 played (notes)?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['NOTE A: the city hosted it.', 'NOTE B: the bay hosted it.', ...filler(0)] },
      { id: 'harms', query: 'Where was Super Bowl 2021 played (harms)?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['HARM one: the game moved to Glendale, Arizona.', 'HARM two: Glendale, Arizona hosted it.', ...filler(1)] },
    ];
    const ws = path.join(dir, 'rgb');
    mkdirSync(ws, { recursive: true });
    writeFileSync(path.join(ws, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    writeFileSync(path.join(ws, 'x.eval.yaml'), `version: 1\nname: faithful\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\nmaxRetries: 0\nseed: 5\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.8], passageNum: 5 } }\n`);
    const credentials = envCredentials({});
    const run = await runEvaluation(path.join(ws, 'x.eval.yaml'), { signal: new AbortController().signal, credentials });
    const options = { signal: new AbortController().signal, credentials, variants: ['loo' as const, 'subsets' as const], noCache: true };

    // 32 subsets of five passages do not fit the default 16: the check may need a call of its own, one per case.
    const plan = await planExplanation(run.logFile, options);
    assert.equal(plan.checks, 2);
    assert.match(formatPlan(plan), /2 of them at most for the faithfulness checks/);
    const before = server.requests.length;
    const { explanation } = await explainRun(run.logFile, options);
    assert.ok(server.requests.length - before <= plan.calls, 'no more calls than planned');

    const notes = explanation!.cases.find((c) => c.caseId.includes('notes'))!;
    const named = (ids: readonly string[]) => ids.map((id) => notes.sources.find((s) => s.id === id)!.preview.slice(0, 6)).sort();
    assert.equal(notes.original.pass, false);
    assert.deepEqual(named(notes.faithfulness!.removed), ['NOTE A', 'NOTE B']);
    assert.equal(notes.faithfulness?.status, 'does-not-flip');
    assert.match(notes.summary, /may mislead/);

    const harms = explanation!.cases.find((c) => c.caseId.includes('harms'))!;
    assert.equal(harms.faithfulness?.status, 'flips');
    assert.equal(harms.faithfulness?.removed.length, 2);
    assert.match(attributionCsv(explanation!), /,flips,/);
  });
});
