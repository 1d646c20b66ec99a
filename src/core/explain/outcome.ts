// What one variant run came to, read from its result exactly as the method scored it: a verdict, a continuous signal,
// or undetermined — a model error or a judge error is never read as a flip.
import type { CaseResult } from '../model.js';
import { SCALE_CONFIG } from '../suites/llmEval/schema.js';
import type { VariantOutcome } from './model.js';

export function variantOutcome(variantId: string, result: CaseResult): VariantOutcome {
  const cached = result.response?.cached === true;
  const response = result.response?.text;
  if (result.status === 'error') {
    return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: `${result.error?.stage ?? 'model'} error: ${result.error?.message ?? 'unknown'}` };
  }
  const judgeError = result.scores.find((s) => s.judgeError !== undefined);
  if (judgeError) return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: `judge error (${judgeError.metric}): ${judgeError.judgeError}` };
  if (result.pass === undefined) {
    // A method with ratings and no verdict (LLM-Eval): its ratings, as shares of their scale, are what is explained.
    const ratings = result.scores.flatMap((s) => (typeof s.value === 'number' ? [s.value / scaleMaximum(s.details)] : []));
    if (ratings.length === 0) return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: 'the method gave no verdict and no score' };
    return { variantId, pass: null, signal: mean(ratings), cached, response };
  }
  const values = result.scores.filter((s) => s.pass !== undefined && typeof s.value === 'number').map((s) => s.value as number);
  return { variantId, pass: result.pass, signal: values.length ? mean(values) : null, cached, response };
}

/** The top of the rating's scale as LLM-Eval records it in the score's details ("0-5" → 5); 1 when none is recorded. */
function scaleMaximum(details: unknown): number {
  const scale = (details as { scale?: unknown } | undefined)?.scale;
  return typeof scale === 'string' && scale in SCALE_CONFIG ? SCALE_CONFIG[scale as keyof typeof SCALE_CONFIG].max : 1;
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/**
 * The number an explanation compares: the verdict as 1/0 when the original has one, else the rating share.
 * Null when undetermined, which no comparison reads as a change.
 */
export function outcomeValue(outcome: VariantOutcome | undefined, byVerdict: boolean): number | null {
  if (!outcome || outcome.undeterminedBecause !== undefined) return null;
  if (byVerdict) return outcome.pass === null ? null : outcome.pass ? 1 : 0;
  return outcome.signal;
}

/** A removal that moves the outcome this much flips it: always for a verdict (1 → 0), a fifth of the scale for a rating. */
export const FLIP = 0.2;

/** A method with ratings and no verdict (LLM-Eval) is compared by its rating; every other by its verdict. */
export function comparesByVerdict(original: VariantOutcome | undefined): boolean {
  return !(original?.pass === null && original.undeterminedBecause === undefined && original.signal !== null);
}
