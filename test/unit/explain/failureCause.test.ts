// The cause of a failed rag case from Explain's evidence, through Explain's own attribution (explainCase) on planted
// variant outcomes: each cause, the precedence between them, and undetermined with the missing variants named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explainCase } from '../../../src/core/explain/attribute.js';
import { failureCauseFromExplanation } from '../../../src/core/explain/failureCause.js';
import type { CaseExplanation, ExplainSource, VariantKind, VariantOutcome } from '../../../src/core/explain/model.js';
import { planVariants } from '../../../src/core/explain/variants.js';
import type { RetrievalRecord } from '../../../src/core/retrieval/contract.js';

// The retriever returned doc-a, doc-b, doc-c, doc-d; the first three were sent as d0, d1, d2 (k = 3).
function record(relevant: string[]): RetrievalRecord {
  return {
    retriever: 'command: node bm25.mjs',
    k: 3,
    candidates: ['doc-a', 'doc-b', 'doc-c', 'doc-d'].map((id, i) => ({
      rank: i + 1, id, sent: i < 3, ...(i < 3 ? { documentId: `d${i}` } : {}), relevance: relevant.includes(id) ? 1 : 0, labelSource: 'relevant_ids' as const,
    })),
    relevant: relevant.map((id) => ({ id, grade: 1 })),
  };
}

/** Explain's explanation of the case with the relevant passages answer-bearing, from planted pass/fail outcomes. */
function explained(relevant: string[], kinds: VariantKind[], passes: Record<string, boolean | null | 'missing'>): CaseExplanation {
  const ids = ['doc-a', 'doc-b', 'doc-c'];
  const sources: ExplainSource[] = ids.map((id, i) => ({ id: `d${i}`, role: relevant.includes(id) ? 'positive' : 'unknown', answerBearing: relevant.includes(id), preview: id }));
  const variants = planVariants({ caseId: 'q1', seed: 1, sources, sections: [], kinds });
  const outcomes = new Map<string, VariantOutcome>();
  for (const variant of variants) {
    const pass = variant.id in passes ? passes[variant.id] as boolean | null | 'missing' : false;
    if (pass === 'missing') continue;
    outcomes.set(variant.id, { variantId: variant.id, pass, signal: pass === null ? null : pass ? 1 : 0, cached: false, ...(pass === null ? { undeterminedBecause: 'model error: timeout' } : {}) });
  }
  return explainCase({ caseId: 'q1', modelKey: 'm', suiteId: 'qa', method: 'rag', meaning: '', sources, variants, outcomes });
}

test('position: the case passes with the relevant passage moved first', () => {
  const finding = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { 'position:0': true }));
  assert.deepEqual(finding, { cause: 'position', words: 'the case passes with relevant passage doc-b (d1, rank 2) moved first', passageId: 'doc-b', rank: 2 });
});

test('distracted: another sent passage harms (leaving it out makes the case pass), named with its rank', () => {
  const finding = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { 'loo:d2': true }));
  assert.deepEqual(finding, { cause: 'distracted', words: 'passage doc-c (d2, rank 3) misleads the model: without it the case passes', passageId: 'doc-c', rank: 3 });
});

test('position comes before distracted when both hold', () => {
  const finding = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { 'loo:d2': true, 'position:0': true }));
  assert.equal(finding.cause, 'position');
});

test('retrieved-not-used: the relevant passage is inert and nothing harms', () => {
  const finding = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], {}));
  assert.deepEqual(finding, {
    cause: 'retrieved-not-used', words: 'relevant passage doc-b (d1, rank 2) was sent and changes nothing when left out: the model ignored it', passageId: 'doc-b', rank: 2,
  });
});

test('a relevant passage already first needs no position sweep', () => {
  const finding = failureCauseFromExplanation(record(['doc-a']), explained(['doc-a'], ['loo'], {}));
  assert.equal(finding.cause, 'retrieved-not-used');
});

test('generation: the relevant passage helps, yet the answer fails', () => {
  const explanation = explained(['doc-b'], ['loo', 'position'], {});
  const helping: CaseExplanation = { ...explanation, attributions: explanation.attributions.map((a) => (a.sourceId === 'd1' ? { ...a, effect: 'helps', attribution: 0.4 } : a)) };
  assert.deepEqual(failureCauseFromExplanation(record(['doc-b']), helping), {
    cause: 'generation', words: 'relevant passage doc-b (d1, rank 2) was sent and helps, yet the answer fails', passageId: 'doc-b', rank: 2,
  });
});

test('undetermined, naming what is missing: no position sweep, a leave-one-out run that did not finish', () => {
  const noSweep = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo'], {}));
  assert.equal(noSweep.cause, 'undetermined');
  assert.match(noSweep.words, /missing evidence: the position sweep of the relevant passage/);
  const harmButNoSweep = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo'], { 'loo:d2': true }));
  assert.equal(harmButNoSweep.cause, 'undetermined');
  assert.match(harmButNoSweep.words, /doc-c \(d2, rank 3\) harms, but position is not ruled out/);
  const cancelled = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { 'loo:d2': 'missing' }));
  assert.equal(cancelled.cause, 'undetermined');
  assert.match(cancelled.words, /the effect of doc-c \(leave-one-out or subsets\)/);
  const errored = failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { 'position:0': null }));
  assert.match(errored.words, /the position sweep's run with doc-b first \(undetermined\)/);
});

test('two relevant passages inert one at a time: undetermined without the subsets', () => {
  const finding = failureCauseFromExplanation(record(['doc-a', 'doc-b']), explained(['doc-a', 'doc-b'], ['loo', 'position'], {}));
  assert.equal(finding.cause, 'undetermined');
  assert.match(finding.words, /cannot tell whether the model ignored them or used either; missing evidence: the subsets/);
});

test('the explanation\'s own run passing or undetermined gives no cause', () => {
  assert.match(failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { original: true })).words, /passed when Explain ran it again/);
  assert.match(failureCauseFromExplanation(record(['doc-b']), explained(['doc-b'], ['loo', 'position'], { original: null })).words, /undetermined \(model error: timeout\)/);
});

test('no relevant passage sent: retrieval decides, whatever Explain found', () => {
  const finding = failureCauseFromExplanation(record(['doc-d']), explained([], ['loo'], { 'loo:d2': true }));
  assert.deepEqual(finding, { cause: 'ranked-out', words: 'relevant passage doc-d at rank 4, cut-off 3', passageId: 'doc-d', rank: 4 });
});
