// What one variant run came to, read from its result exactly as the method scored it: a verdict, a continuous signal,
// or undetermined — a model error or a judge error is never read as a flip.
import type { CaseResult } from '../model.js';
import type { VariantOutcome } from './model.js';

export function variantOutcome(variantId: string, result: CaseResult): VariantOutcome {
  const cached = result.response?.cached === true;
  const response = result.response?.text;
  if (result.status === 'error') {
    return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: `${result.error?.stage ?? 'model'} error: ${result.error?.message ?? 'unknown'}` };
  }
  const judgeError = result.scores.find((s) => s.judgeError !== undefined);
  if (judgeError) return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: `judge error (${judgeError.metric}): ${judgeError.judgeError}` };
  if (result.pass === undefined) return { variantId, pass: null, signal: null, cached, response, undeterminedBecause: 'the method gave no verdict' };
  const values = result.scores.filter((s) => s.pass !== undefined && typeof s.value === 'number').map((s) => s.value as number);
  const signal = values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
  return { variantId, pass: result.pass, signal, cached, response };
}
