// The judge passes of RGB (Rej*, ED*, and the optional failure label): prompt files rendered, one call, a rule.
import { builtinPrompt } from '../../assets.js';
import type { ChatMessage, EvalCase, ModelClient, Score } from '../../model.js';
import { loadTemplate, renderTemplate } from '../../prompt/template.js';
import type { Testbed } from './params.js';
import type { AnswerParts } from './rows.js';

/** Renders a judge prompt file with its variables (the engine's template renderer; injectable for tests). */
export type JudgePromptRenderer = (file: string, variables: Record<string, unknown>) => Promise<ChatMessage[]>;

export const JUDGE_PROMPTS = {
  rejection: 'rgb/judge-rejection.prompt',
  factualError: 'rgb/judge-factual-error.prompt',
  failureLabel: 'rgb/judge-failure-label.prompt',
} as const;

/** Load and render a prompt file with the engine's template renderer (the one place the judge prompts meet it). */
export const renderJudgePrompt: JudgePromptRenderer = async (file, variables) => renderTemplate(await loadTemplate(file), variables);

export interface JudgeCall {
  judge: ModelClient;
  signal: AbortSignal;
  render: JudgePromptRenderer;
}

type JudgeOutcome = { output: string } | { error: string };

function describeFailure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Render, call at temperature 0 (the judge must be repeatable), and never throw: a failure is reported as such. */
async function askJudge(call: JudgeCall, file: string, variables: Record<string, unknown>, structured?: { name: string; schema: Record<string, unknown> }): Promise<JudgeOutcome> {
  try {
    const messages = await call.render(builtinPrompt(file), variables);
    const response = await call.judge.complete({ messages, temperature: 0, ...(structured ? { structuredOutput: structured } : {}) }, call.signal);
    return { output: response.text };
  } catch (error) {
    return { error: describeFailure(error) };
  }
}

function judgeErrorScore(metric: string, judge: ModelClient, error: string): Score {
  return { metric, value: null, label: 'judge-error', judgeError: error, explanation: `The judge ${judge.key} failed: ${error}. Not counted either way.` };
}

/**
 * Rej* (reference `reject_evalue.py`): a rejection when the judge's output contains "not addressed". The judge
 * reads what the scorer read: for zh the reference stored the prediction with spaces removed.
 */
export async function judgeRejection(call: JudgeCall, question: string, scoredResponse: string): Promise<Score> {
  const outcome = await askJudge(call, JUDGE_PROMPTS.rejection, { question, answer: scoredResponse });
  if ('error' in outcome) return judgeErrorScore('rej_star', call.judge, outcome.error);
  const rejected = outcome.output.includes('not addressed');
  return {
    metric: 'rej_star',
    value: rejected ? 1 : 0,
    pass: rejected,
    label: rejected ? 'rejected' : 'not-rejected',
    explanation: outcome.output,
    details: { judge: call.judge.key, rule: '"not addressed" in the judge output', matched: rejected },
  };
}

/** ED* (reference `fact_evalue.py`): detected when the judge's output contains "has identified" or "Yes". */
export async function judgeFactualError(call: JudgeCall, question: string, scoredResponse: string): Promise<Score> {
  const outcome = await askJudge(call, JUDGE_PROMPTS.factualError, { question, answer: scoredResponse });
  if ('error' in outcome) return judgeErrorScore('ed_star', call.judge, outcome.error);
  const detected = outcome.output.includes('has identified') || outcome.output.includes('Yes');
  return {
    metric: 'ed_star',
    value: detected ? 1 : 0,
    pass: detected,
    label: detected ? 'factual-error-detected' : 'not-detected',
    explanation: outcome.output,
    details: { judge: call.judge.key, rule: '"has identified" or "Yes" in the judge output', matched: detected },
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

const FAILURE_LABEL_SCHEMA = (labels: string[]) => ({
  name: 'rgb_failure_label',
  schema: {
    type: 'object',
    properties: { label: { type: 'string', enum: labels }, explanation: { type: 'string' } },
    required: ['label', 'explanation'],
    additionalProperties: false,
  },
});

/** Parse `{label, explanation}`, tolerating a fenced block around it; anything else is a judge error. */
export function parseFailureLabel(output: string, allowed: readonly string[]): { label: string; explanation: string } | { error: string } {
  const start = output.indexOf('{');
  const end = output.lastIndexOf('}');
  if (start === -1 || end < start) return { error: 'the judge did not return a JSON object' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(output.slice(start, end + 1));
  } catch (error) {
    return { error: `the judge's JSON did not parse: ${describeFailure(error)}` };
  }
  const { label, explanation } = (parsed ?? {}) as { label?: unknown; explanation?: unknown };
  if (typeof label !== 'string' || !allowed.includes(label)) return { error: `label ${JSON.stringify(label)} is not one of ${allowed.join(', ')}` };
  if (typeof explanation !== 'string') return { error: 'the judge gave no explanation string' };
  return { label, explanation };
}

/** Optional pass on a wrong answer: which of the paper's error kinds it is. Not a metric: value stays null. */
export async function judgeFailureLabel(call: JudgeCall, evalCase: EvalCase, response: string, answer: AnswerParts): Promise<Score> {
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
  const outcome = await askJudge(call, JUDGE_PROMPTS.failureLabel, variables, FAILURE_LABEL_SCHEMA(labels));
  if ('error' in outcome) return judgeErrorScore('failure_label', call.judge, outcome.error);
  const parsed = parseFailureLabel(outcome.output, labels);
  if ('error' in parsed) return { ...judgeErrorScore('failure_label', call.judge, parsed.error), details: { output: outcome.output } };
  return { metric: 'failure_label', value: null, label: parsed.label, explanation: parsed.explanation, details: { judge: call.judge.key, output: outcome.output } };
}
