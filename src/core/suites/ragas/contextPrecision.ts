// Context precision (against the reference) and context utilization (against the response): average precision of useful contexts by rank.
import type { CaseDocument, Score } from '../../model.js';
import { judgeErrorScore } from '../judging.js';
import { ask } from './judgeStep.js';
import type { JudgeStep, StepContext } from './judgeStep.js';

export const CONTEXT_PRECISION = 'context_precision';
export const CONTEXT_UTILIZATION = 'context_utilization';

export interface UsefulnessInput {
  question: string;
  context: string;
  /** The reference (precision) or the response (utilization). */
  answer: string;
}

export interface UsefulnessOutput {
  reason: string;
  verdict: 0 | 1;
}

/** ragas ContextPrecisionPrompt, one call per retrieved context. */
export const USEFULNESS_STEP: JudgeStep<UsefulnessInput, UsefulnessOutput> = {
  name: 'ragas_context_precision',
  prompt: 'ragas/context-precision.prompt',
  schema: {
    type: 'object',
    properties: {
      reason: { type: 'string', description: 'Reason for verification' },
      verdict: { type: 'integer', enum: [0, 1], description: 'Binary (0/1) verdict of verification' },
    },
    required: ['reason', 'verdict'],
    additionalProperties: false,
  },
  variables: ({ question, context, answer }) => ({ question, context, answer }),
};

/** The reference's small constant that keeps an all-zero list from dividing by zero (and costs a perfect list 1e-10). */
export const REFERENCE_EPSILON = 1e-10;

/**
 * AP = Σ_i (Σ_{j≤i} v_j / i) · v_i / (Σ v + 1e-10), summed left to right as the reference's Python does, so the
 * results match to the last digit (e.g. [1,1,1] → 0.9999999999666667). `exact` divides by Σ v (0 when all are 0).
 */
export function averagePrecision(verdicts: readonly number[], exact: boolean): number {
  let numerator = 0;
  let hits = 0;
  verdicts.forEach((verdict, i) => {
    hits += verdict;
    numerator += (hits / (i + 1)) * verdict;
  });
  if (exact) return hits === 0 ? 0 : numerator / hits;
  return numerator / (hits + REFERENCE_EPSILON);
}

export interface UsefulnessScoreInput {
  metric: typeof CONTEXT_PRECISION | typeof CONTEXT_UTILIZATION;
  question: string;
  answer: string;
  documents: readonly CaseDocument[];
  exact: boolean;
}

/** Handler: one usefulness verdict per context in retrieval order, then average precision; any failed verdict fails the metric. */
export async function scoreContextUsefulness(context: StepContext, input: UsefulnessScoreInput): Promise<Score> {
  const outcomes = await Promise.all(input.documents.map((d) => ask(context, USEFULNESS_STEP, { question: input.question, context: d.text, answer: input.answer })));
  const failedAt = outcomes.findIndex((o) => !o.ok);
  const failed = outcomes[failedAt];
  if (failed && !failed.ok) {
    return judgeErrorScore(input.metric, context.judge.key, `verdict for ${input.documents[failedAt]!.id}: ${failed.error}`, { raw: failed.raw });
  }
  const verdicts = outcomes.map((o) => (o.ok ? o.value : { reason: '', verdict: 0 as const }));
  const value = averagePrecision(verdicts.map((v) => v.verdict), input.exact);
  const against = input.metric === CONTEXT_PRECISION ? 'the reference' : 'the response';
  const perDocument = verdicts.map((v, i) => ({ documentId: input.documents[i]!.id, rank: i + 1, verdict: v.verdict, reason: v.reason }));
  const lines = perDocument.map((d) => `${d.rank}. ${d.documentId}: ${d.verdict ? 'useful' : 'not useful'} — ${d.reason}`);
  return {
    metric: input.metric,
    value,
    label: verdicts.some((v) => v.verdict === 1) ? 'useful-contexts' : 'no-useful-context',
    explanation: [`Average precision of the contexts judged useful for arriving at ${against} (${input.exact ? 'exact form' : 'reference form, + 1e-10 in the denominator'}).`, ...lines].join('\n'),
    details: { verdicts: perDocument, exact: input.exact, judge: context.judge.key },
  };
}
