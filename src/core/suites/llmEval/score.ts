// Scores one LLM-Eval case: one greedy judge call returns every dimension; an unusable answer is a judge error on all of them.
import type { EvalCase, Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import { llmEvalExpected } from './cases.js';
import type { LlmEvalParams } from './params.js';
import { parseReferenceReply } from './referenceParser.js';
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

/**
 * Step: a score outside the scale is not a score on it, nor is NaN or infinity (which Python's json.loads and float()
 * accept); that dimension alone becomes a judge error.
 */
function dimensionScore(name: string, value: number, raw: string, scale: ScaleConfig, details: Record<string, unknown>): Score {
  if (!Number.isFinite(value) || value < scale.min || value > scale.max) {
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

type Outcome = { ok: true; scores: Record<string, number>; raw: string; attempts: number; tolerated?: string[] } | { ok: false; error: string; raw: string };

/** Step: one call, read as the reference reads it (no structured output, no repair); see referenceParser.ts. */
async function askReference(context: ScoreContext, prompt: { file: string; variables: Record<string, unknown> }, params: LlmEvalParams, scale: ScaleConfig): Promise<Outcome> {
  const outcome = await context.judge!.ask(prompt.file, prompt.variables);
  if (!outcome.ok) return { ok: false, error: outcome.error, raw: outcome.raw };
  const parsed = parseReferenceReply(outcome.value, params.dimensions, scale);
  if (!parsed.ok) return { ok: false, error: `the reference parser could not read the reply (${parsed.error})`, raw: outcome.value };
  return { ok: true, scores: parsed.scores, raw: outcome.value, attempts: outcome.attempts, tolerated: parsed.tolerated };
}

/** Step: the strict option — JSON matching the schema, sent as structured output, one repair retry. */
async function askStrict(context: ScoreContext, prompt: { file: string; variables: Record<string, unknown> }, params: LlmEvalParams, scale: ScaleConfig): Promise<Outcome> {
  const schema = { name: 'llm_eval_scores', schema: answerSchema(params.dimensions, scale) };
  const outcome = await context.judge!.ask<Record<string, number>>(prompt.file, prompt.variables, { schema });
  return outcome.ok ? { ok: true, scores: outcome.value, raw: outcome.raw, attempts: outcome.attempts } : outcome;
}

/** Suite.score for LLM-Eval: render, one call at temperature 0 (the paper's greedy decoding), read, one score per dimension. */
export async function scoreLlmEvalCase(evalCase: EvalCase, response: string, params: LlmEvalParams, context: ScoreContext): Promise<Score[]> {
  if (!context.judge) {
    return params.dimensions.map((d) => ({ metric: d.name, value: null, label: NEEDS_JUDGE_LABEL, explanation: 'Not scored: LLM-Eval needs a judge model. Set judge: in the eval file (e.g. judge: openai:gpt-4o-mini).' }));
  }
  const scale = SCALE_CONFIG[params.scale];
  const prompt = promptFor(evalCase, response, params, scale);
  const outcome = params.parser === 'strict' ? await askStrict(context, prompt, params, scale) : await askReference(context, prompt, params, scale);
  if (!outcome.ok) return failedScores(params, outcome.error, outcome.raw, context.judge.key);
  const details = {
    scale: params.scale, level: params.level, withReference: params.withReference, judge: context.judge.key, prompt: prompt.file, attempts: outcome.attempts, parser: params.parser,
    ...(outcome.tolerated && outcome.tolerated.length > 0 ? { tolerated: outcome.tolerated } : {}),
  };
  return params.dimensions.map((d) => dimensionScore(d.name, outcome.scores[d.name] as number, outcome.raw, scale, details));
}
