// Scores one LLM-Eval case: one greedy judge call returns every dimension; an unusable answer is a judge error on all of them.
import type { EvalCase, Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import { llmEvalExpected } from './cases.js';
import type { LlmEvalParams } from './params.js';
import { SCALE_CONFIG, answerSchema, formatInstructionSchema } from './schema.js';
import type { ScaleConfig } from './schema.js';

/** The reference's three templates (MiuLab/LLM-Eval `turn_eval_template`, `turn_noref_eval_template`, dialogue level). */
export const LLM_EVAL_PROMPTS = {
  withReference: 'llm-eval/turn.prompt',
  withoutReference: 'llm-eval/turn-noref.prompt',
  dialogue: 'llm-eval/dialogue.prompt',
} as const;

export const NEEDS_JUDGE_LABEL = 'needs-judge-model';

/** Step: which template, and the variables it reads. */
function promptFor(evalCase: EvalCase, response: string, params: LlmEvalParams, scale: ScaleConfig): { file: string; variables: Record<string, unknown> } {
  const expected = llmEvalExpected(evalCase);
  const common = { output_schema: formatInstructionSchema(params.dimensions, scale), score_min: scale.minText, score_max: scale.maxText };
  if (params.level === 'dialogue') return { file: LLM_EVAL_PROMPTS.dialogue, variables: { ...common, dialog: response } };
  if (params.withReference) return { file: LLM_EVAL_PROMPTS.withReference, variables: { ...common, context: expected.context, reference: expected.reference ?? '', response } };
  return { file: LLM_EVAL_PROMPTS.withoutReference, variables: { ...common, context: expected.context, response } };
}

/** Step: a score outside the scale is not a score on it; that dimension alone becomes a judge error. */
function dimensionScore(name: string, value: number, raw: string, scale: ScaleConfig, details: Record<string, unknown>): Score {
  if (value < scale.min || value > scale.max) {
    return { metric: name, value: null, label: 'judge-error', judgeError: `${name} = ${value} is outside ${scale.minText}–${scale.maxText}`, explanation: raw, details };
  }
  return { metric: name, value, explanation: raw, details };
}

function failedScores(params: LlmEvalParams, error: string, raw: string, judgeKey: string): Score[] {
  return params.dimensions.map((d) => ({
    metric: d.name,
    value: null,
    label: 'judge-error',
    judgeError: error,
    explanation: raw === '' ? `The judge ${judgeKey} failed: ${error}.` : raw,
  }));
}

/** Suite.score for LLM-Eval: render, one call at temperature 0 (the paper's greedy decoding), validate, one score per dimension. */
export async function scoreLlmEvalCase(evalCase: EvalCase, response: string, params: LlmEvalParams, context: ScoreContext): Promise<Score[]> {
  if (!context.judge) {
    return params.dimensions.map((d) => ({ metric: d.name, value: null, label: NEEDS_JUDGE_LABEL, explanation: 'Not scored: LLM-Eval needs a judge model. Set judge: in the eval file (e.g. judge: openai:gpt-4o-mini).' }));
  }
  const scale = SCALE_CONFIG[params.scale];
  const prompt = promptFor(evalCase, response, params, scale);
  const schema = { name: 'llm_eval_scores', schema: answerSchema(params.dimensions, scale) };
  const outcome = await context.judge.ask<Record<string, number>>(prompt.file, prompt.variables, { schema });
  if (!outcome.ok) return failedScores(params, outcome.error, outcome.raw, context.judge.key);
  const details = { scale: params.scale, level: params.level, withReference: params.withReference, judge: context.judge.key, prompt: prompt.file, attempts: outcome.attempts };
  return params.dimensions.map((d) => dimensionScore(d.name, outcome.value[d.name] as number, outcome.raw, scale, details));
}
