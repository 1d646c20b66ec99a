// An explained RGB case built by the product's own explain code: core plans the variants of a fixture case
// (caseSources, planVariants), each variant's result is read by variantOutcome, and explainCase computes the
// attribution. Only the model is scripted — a planted cause, so the expected effects are known:
//   the model trusts whichever of d0 (the answer) and d2 (the counterfactual) it reads last, so the case fails as
//   run (d0 before d2), passes without d2 (harms), passes with d0 moved after d2 (the position curve), and the
//   leave-one-out run without d3 ended in a judge error (undetermined, never a flip).
import { explainCase } from '../../src/core/explain/attribute.js';
import type { CaseExplanation, RunExplanation, VariantOutcome, VariantSpec } from '../../src/core/explain/model.js';
import { variantOutcome } from '../../src/core/explain/outcome.js';
import { caseSources } from '../../src/core/explain/sources.js';
import { planVariants, sectionNames } from '../../src/core/explain/variants.js';
import type { CaseResult } from '../../src/core/model.js';
import type { CaseDetail } from '../../src/protocol.js';
import type { FixtureRun } from './builders.js';

/** The leave-one-out run that ends in a judge error. */
export const UNDETERMINED_SOURCE = 'd3';
export const HARMFUL_SOURCE = 'd2';

/** Passes when the answer-bearing d0 is present and shown after the counterfactual d2 (or d2 is absent). */
function planted(present: readonly string[]): boolean {
  const answer = present.indexOf('d0');
  const counterfactual = present.indexOf('d2');
  return answer >= 0 && (counterfactual < 0 || answer > counterfactual);
}

function resultOf(detail: CaseDetail, variant: VariantSpec): CaseResult {
  const base = detail.result;
  if (variant.id === `loo:${UNDETERMINED_SOURCE}`) {
    return { ...base, pass: false, scores: [{ metric: 'correct', value: null, judgeError: 'The judge answered "maybe?", which is not one of: correct, wrong' }] };
  }
  const pass = planted(variant.present);
  const text = pass ? 'The answer is the one d0 gives.' : 'Based on the documents, the answer is the one d2 gives.';
  return {
    ...base,
    status: 'success',
    pass,
    scores: [{ metric: 'correct', value: pass ? 1 : 0, pass }],
    response: { text, usage: { inputTokens: 400, outputTokens: 12 }, latencyMs: 500, cached: false },
  };
}

/** The case explained through core's code from scripted variant results. */
export function explainedCase(detail: CaseDetail): CaseExplanation {
  const { sources, meaning } = caseSources(detail.evalCase);
  const sections = sectionNames(detail.evalCase.messages.map((m) => m.role));
  const variants = planVariants({ caseId: detail.evalCase.id, seed: detail.evalCase.seed ?? 7, sources, sections, kinds: ['loo', 'subsets', 'position', 'instruction'] });
  const outcomes = new Map<string, VariantOutcome>(variants.map((v) => [v.id, variantOutcome(v.id, resultOf(detail, v))]));
  return explainCase({
    caseId: detail.evalCase.id, modelKey: detail.result.modelKey, suiteId: detail.evalCase.suiteId, method: detail.evalCase.method,
    meaning, sources, variants, outcomes,
  });
}

/** The run with its explanation embedded as the HTML report embeds it (StaticRun.explanation). */
export function withExplanation(run: FixtureRun, cases: readonly CaseExplanation[]): FixtureRun & { explanation: RunExplanation } {
  const runId = run.detail.listing.runId;
  return {
    ...run,
    explanation: {
      format: 1, runId, runLog: `/workspace/.rag-inspector/runs/${runId}.jsonl`, variantLog: `/workspace/.rag-inspector/explanations/${runId}.jsonl`,
      createdAt: '2025-05-01T11:00:00.000Z', status: 'complete', cases: [...cases], suites: [], calls: { model: 40, cached: 2, judge: 0 },
    },
  };
}
