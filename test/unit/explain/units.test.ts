// The pure parts of an explanation: the LASSO fit, the variants a case gets, and effects read from outcomes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fitLasso } from '../../../src/core/explain/lasso.js';
import { defaultSubsetCount, planVariants, sectionNames } from '../../../src/core/explain/variants.js';
import { explainCase } from '../../../src/core/explain/attribute.js';
import type { ExplainSource, VariantOutcome } from '../../../src/core/explain/model.js';
import { mulberry32 } from '../../../src/core/random.js';
import { caseSources } from '../../../src/core/explain/sources.js';
import type { EvalCase } from '../../../src/core/model.js';

describe('fitLasso', () => {
  it('recovers a sparse rule and leaves the other columns at 0', () => {
    const random = mulberry32(5);
    const rows = Array.from({ length: 40 }, () => Array.from({ length: 6 }, () => (random() < 0.5 ? 1 : 0)));
    const y = rows.map((r) => 0.2 + 0.7 * r[1]! - 0.4 * r[4]!);
    const fit = fitLasso(rows, y, 0.001);
    assert.ok(Math.abs(fit.weights[1]! - 0.7) < 0.02, `w1 ${fit.weights[1]}`);
    assert.ok(Math.abs(fit.weights[4]! + 0.4) < 0.02, `w4 ${fit.weights[4]}`);
    for (const j of [0, 2, 3, 5]) assert.ok(Math.abs(fit.weights[j]!) < 0.01, `w${j} ${fit.weights[j]}`);
    assert.ok(fit.r2 > 0.99);
  });

  it('a larger penalty shrinks every weight to 0; a constant column says nothing', () => {
    const rows = [[1, 0], [1, 1], [1, 0], [1, 1]];
    const fit = fitLasso(rows, [0, 1, 0, 1], 10);
    assert.deepEqual(fit.weights, [0, 0]);
    assert.equal(fitLasso(rows, [0, 1, 0, 1], 0.01).weights[0], 0);
  });
});

const sources = (n: number): ExplainSource[] => Array.from({ length: n }, (_, i) => ({ id: `d${i}`, role: i === 2 ? 'positive' : 'negative', answerBearing: i === 2, preview: `doc ${i}` }));

describe('planVariants', () => {
  it('leave-one-out, seeded subsets, every position of the answer-bearing document, removable sections', () => {
    const request = { caseId: 'c', seed: 1, sources: sources(4), sections: sectionNames(['system', 'user']), kinds: ['loo', 'subsets', 'position', 'instruction'] as const };
    const variants = planVariants({ ...request, kinds: [...request.kinds] });
    assert.equal(variants.filter((v) => v.kind === 'loo').length, 4);
    assert.equal(variants.filter((v) => v.kind === 'subsets').length, defaultSubsetCount(4));
    assert.deepEqual(variants.filter((v) => v.kind === 'position').map((v) => v.present), [
      ['d2', 'd0', 'd1', 'd3'], ['d0', 'd2', 'd1', 'd3'], ['d0', 'd1', 'd2', 'd3'], ['d0', 'd1', 'd3', 'd2'],
    ]);
    assert.deepEqual(variants.filter((v) => v.kind === 'instruction').map((v) => v.removedSection), ['system'], 'the user section with the question is kept');
    assert.deepEqual(planVariants({ ...request, kinds: [...request.kinds] }), variants, 'the same variants every time (resume)');
    // Four sources' 16 subsets fit the budget: every one, whatever the seed; six sources' 64 do not: the seed draws them.
    assert.deepEqual(planVariants({ ...request, seed: 2, kinds: [...request.kinds] }).filter((v) => v.kind === 'subsets'), variants.filter((v) => v.kind === 'subsets'));
    const drawn = (seed: number) => planVariants({ ...request, sources: sources(6), seed, kinds: ['subsets'] });
    assert.notDeepEqual(drawn(2), drawn(1));
    assert.deepEqual(sectionNames(['system', 'user', 'assistant', 'user']), ['system', 'user', 'assistant', 'user#2']);
  });
});

describe('explainCase', () => {
  const outcome = (variantId: string, pass: boolean | null, undeterminedBecause?: string): VariantOutcome => ({ variantId, pass, signal: pass === null ? null : Number(pass), cached: false, ...(undeterminedBecause ? { undeterminedBecause } : {}) });
  const input = (outcomes: VariantOutcome[]) => ({
    caseId: 'c', modelKey: 'm', suiteId: 's', method: 'rgb', meaning: '', sources: sources(3),
    variants: planVariants({ caseId: 'c', seed: 1, sources: sources(3), sections: [], kinds: ['loo'] }),
    outcomes: new Map(outcomes.map((o) => [o.variantId, o])),
  });

  it('a judge error in a leave-one-out variant is undetermined, never a flip', () => {
    const e = explainCase(input([outcome('original', true), outcome('loo:d0', true), outcome('loo:d1', null, 'judge error (ed_star): not Yes or No'), outcome('loo:d2', false)]));
    assert.deepEqual(e.attributions.map((a) => a.effect), ['inert', 'undetermined', 'decisive']);
    assert.match(e.summary, /passes because of d2 \(positive\).*1 source undetermined/);
  });

  it('an undetermined original leaves every source undetermined; a missing variant makes the explanation partial', () => {
    const e = explainCase(input([outcome('original', null, 'model error: 500'), outcome('loo:d0', false)]));
    assert.ok(e.attributions.every((a) => a.effect === 'undetermined'));
    assert.equal(e.missingVariants, 2);
    assert.match(e.summary, /^undetermined: the original ended in model error: 500/);
  });
});

describe('caseSources', () => {
  it('a variant case says what it shows: its documents\' order and role counts, not the original\'s', () => {
    const doc = (id: string, role: 'positive' | 'negative', source: string) => ({ id, role, text: `${id} text`, spans: [], source });
    const original = {
      id: 'noise/1/noise=0.67', suiteId: 'noise', method: 'rgb', row: { file: 'd.jsonl', line: 1, index: 0 }, question: 'q?',
      documents: [doc('d0', 'positive', 'positive[0]'), doc('d1', 'negative', 'negative[0]'), doc('d2', 'negative', 'negative[1]')],
      expected: {}, messages: [], variables: { question: 'q?' },
      params: { noiseRate: 0.67, effectiveNoiseRate: 2 / 3, positives: 1, negatives: 2, counterfactuals: 0, passageNum: 3, order: ['positive[0]', 'negative[0]', 'negative[1]'] },
    } as unknown as EvalCase;
    const variant = caseSources(original).variant(['d2', 'd0']);
    assert.deepEqual(variant.documents.map((d) => d.id), ['d2', 'd0']);
    assert.deepEqual(variant.params, { noiseRate: 0.67, effectiveNoiseRate: 0.5, positives: 1, negatives: 1, counterfactuals: 0, passageNum: 3, order: ['negative[1]', 'positive[0]'] });
    assert.deepEqual(original.params.order, ['positive[0]', 'negative[0]', 'negative[1]'], 'the original is left as it was');
  });
});
