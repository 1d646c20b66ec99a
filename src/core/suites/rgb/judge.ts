// The judge passes of RGB (Rej*, ED*, and the optional failure label): one judge step each, then a rule.
import type { EvalCase, Score } from '../../model.js';
import { NEITHER_VERDICT, judgeErrorScore } from '../judging.js';
import type { Judge } from '../judging.js';
import type { Testbed } from './params.js';
import type { AnswerParts } from './rows.js';

export const JUDGE_PROMPTS = {
  rejection: 'rgb/judge-rejection.prompt',
  factualError: 'rgb/judge-factual-error.prompt',
  failureLabel: 'rgb/judge-failure-label.prompt',
} as const;

/**
 * Rej* (reference `reject_evalue.py`): a rejection when the judge's output contains "not addressed". The judge
 * reads what the scorer read: for zh the reference stored the prediction with spaces removed.
 */
export async function judgeRejection(judge: Judge, question: string, scoredResponse: string, strict = false): Promise<Score> {
  const outcome = await judge.ask(JUDGE_PROMPTS.rejection, { question, answer: scoredResponse });
  if (!outcome.ok) return judgeErrorScore('rej_star', judge.key, outcome.error);
  const rejected = outcome.value.includes('not addressed');
  // The prompt's two verdicts are "…is not addressed…" and "…is addressed…"; an answer with neither is unreadable.
  const neither = !rejected && !outcome.value.includes('addressed');
  if (neither && strict) return judgeErrorScore('rej_star', judge.key, neitherError(outcome.value, '"not addressed" / "addressed"'), { output: outcome.value });
  return {
    metric: 'rej_star',
    value: rejected ? 1 : 0,
    pass: rejected,
    label: rejected ? 'rejected' : neither ? NEITHER_VERDICT : 'not-rejected',
    explanation: neither ? neitherExplanation(outcome.value, 'not rejected') : outcome.value,
    details: { judge: judge.key, rule: '"not addressed" in the judge output', matched: rejected, ...(neither ? { matchedNeither: true } : {}) },
  };
}

/** `strict: true` makes a judge answer that matched neither verdict a judge error, out of the denominator. */
export { NEITHER_VERDICT };

function neitherError(output: string, verdicts: string): string {
  return `the judge's answer matched neither verdict (${verdicts}): "${output.slice(0, 200)}"`;
}

function neitherExplanation(output: string, countedAs: string): string {
  return `The judge's answer matched neither verdict; counted as ${countedAs}, as the reference does (strict: true makes it a judge error). Judge said: ${output}`;
}

/** ED* (reference `fact_evalue.py`): detected when the judge's output contains "has identified" or "Yes". */
export async function judgeFactualError(judge: Judge, question: string, scoredResponse: string, strict = false): Promise<Score> {
  const outcome = await judge.ask(JUDGE_PROMPTS.factualError, { question, answer: scoredResponse });
  if (!outcome.ok) return judgeErrorScore('ed_star', judge.key, outcome.error);
  const detected = outcome.value.includes('has identified') || outcome.value.includes('Yes');
  // The prompt's negative verdict is "NO, the model fail to identify the factual errors."
  const neither = !detected && !/\bno\b|fail(?:ed|s)? to identify/i.test(outcome.value);
  if (neither && strict) return judgeErrorScore('ed_star', judge.key, neitherError(outcome.value, '"has identified" or "Yes" / "NO" or "fail to identify"'), { output: outcome.value });
  return {
    metric: 'ed_star',
    value: detected ? 1 : 0,
    pass: detected,
    label: detected ? 'factual-error-detected' : neither ? NEITHER_VERDICT : 'not-detected',
    explanation: neither ? neitherExplanation(outcome.value, 'not detected') : outcome.value,
    details: { judge: judge.key, rule: '"has identified" or "Yes" in the judge output', matched: detected, ...(neither ? { matchedNeither: true } : {}) },
  };
}

/** The paper's error taxonomy: noise robustness (Table 2) and information integration (Table 6). */
export const NOISE_FAILURE_LABELS = ['long_distance_information', 'evidence_uncertainty', 'concept_confusion'] as const;
export const INTEGRATION_FAILURE_LABELS = ['merging_error', 'ignoring_error', 'misalignment_error'] as const;

/** Integration failures include the noise kinds too (38% of the paper's ChatGLM2 errors); "other" is always allowed. */
export function failureLabelsFor(testbed: Testbed): string[] {
  const own = testbed === 'information_integration' ? [...INTEGRATION_FAILURE_LABELS, ...NOISE_FAILURE_LABELS] : [...NOISE_FAILURE_LABELS];
  return [...own, 'other'];
}

/** "a / b and c": how an answer reads to a judge. */
export function describeAnswer(answer: AnswerParts): string {
  return answer.map((alternatives) => alternatives.join(' / ')).join(' and ');
}

/** The label must be one the testbed allows: anything else is an unreadable answer, so a judge error. */
const failureLabelSchema = (labels: string[]) => ({
  name: 'rgb_failure_label',
  schema: {
    type: 'object',
    properties: { label: { type: 'string', enum: labels }, explanation: { type: 'string' } },
    required: ['label', 'explanation'],
    additionalProperties: false,
  },
});

/** Optional pass on a wrong answer: which of the paper's error kinds it is. Not a metric: value stays null. */
export async function judgeFailureLabel(judge: Judge, evalCase: EvalCase, response: string, answer: AnswerParts): Promise<Score> {
  const testbed = evalCase.testbed as Testbed;
  const labels = failureLabelsFor(testbed);
  const variables = {
    question: evalCase.question,
    answer: describeAnswer(answer),
    response,
    documents: evalCase.documents.map(({ id, text, role }) => ({ id, text, role })),
    testbed,
    labels,
  };
  const outcome = await judge.ask<{ label: string; explanation: string }>(JUDGE_PROMPTS.failureLabel, variables, { schema: failureLabelSchema(labels) });
  if (!outcome.ok) return judgeErrorScore('failure_label', judge.key, outcome.error, outcome.raw === '' ? undefined : { output: outcome.raw });
  return { metric: 'failure_label', value: null, label: outcome.value.label, explanation: outcome.value.explanation, details: { judge: judge.key, output: outcome.raw } };
}
