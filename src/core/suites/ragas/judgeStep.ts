// One LLM step of a RAGAS metric: a prompt file, a typed input, a JSON schema for the output, asked through judgeJson.
import { builtinPrompt } from '../../assets.js';
import type { ChatMessage, ModelClient, Score } from '../../model.js';
import { loadTemplate, renderTemplate } from '../../prompt/template.js';
import { judgeJson } from '../judging.js';
import type { JudgeOutcome } from '../judging.js';

/** Renders a built-in prompt file (relative to prompts/) with its variables; injectable for tests. */
export type PromptRenderer = (relative: string, variables: Record<string, unknown>) => Promise<ChatMessage[]>;

/** Loaded on every call, as RGB's judge prompts are, so an edited prompt file takes effect in a running extension. */
export const renderBuiltinPrompt: PromptRenderer = async (relative, variables) => renderTemplate(await loadTemplate(builtinPrompt(relative)), variables);

/** A prompt and the shape of its answer: the typed pair the metric's algorithm is written against. */
export interface JudgeStep<Input, Output> {
  /** Structured-output name (letters, digits, _ and -). */
  name: string;
  /** Prompt file under prompts/. */
  prompt: string;
  /** JSON schema (draft-07, OpenAI strict-mode compatible: every property required, no extra properties). */
  schema: Record<string, unknown>;
  variables(input: Input): Record<string, unknown>;
  /** Only for the type: the validated output. */
  readonly output?: Output;
}

export interface StepContext {
  judge: ModelClient;
  signal: AbortSignal;
  render: PromptRenderer;
}

export interface AskOptions {
  temperature?: number;
  /**
   * Appended to the structured-output name. The response cache keys on the whole request, so repeated samples of
   * one prompt (answer relevancy's generations) need distinct names, or the second and third would replay the first.
   */
  sample?: number;
}

/**
 * Render the step's prompt (the schema is shown to the model as `output_schema`, as ragas does) and ask for JSON.
 * A prompt file that fails to render is reported like a judge failure: the metric cannot be computed either way.
 */
export async function ask<Input, Output>(context: StepContext, step: JudgeStep<Input, Output>, input: Input, options: AskOptions = {}): Promise<JudgeOutcome<Output>> {
  let messages: ChatMessage[];
  try {
    messages = await context.render(step.prompt, { ...step.variables(input), output_schema: JSON.stringify(step.schema) });
  } catch (error) {
    return { ok: false, error: `prompt ${step.prompt} could not be rendered: ${error instanceof Error ? error.message : String(error)}`, raw: '', attempts: 0 };
  }
  const name = options.sample === undefined ? step.name : `${step.name}_${options.sample}`;
  return judgeJson<Output>(context.judge, { name, messages, schema: step.schema, temperature: options.temperature ?? 0 }, context.signal);
}

/** The contexts as the reference joins them for one NLI call over all of them. */
export function joinContexts(texts: readonly string[]): string {
  return texts.join('\n');
}

// ——— scores that are not numbers ———

export function judgeErrorScore(metric: string, judgeKey: string, error: string, details?: unknown): Score {
  return {
    metric,
    value: null,
    label: 'judge-error',
    judgeError: error,
    explanation: `The judge ${judgeKey} failed: ${error}. Not counted either way.`,
    ...(details === undefined ? {} : { details }),
  };
}

/** Nothing to judge (NaN in the reference): kept apart from 0 in every mean. */
export function undeterminedScore(metric: string, label: string, explanation: string, details?: unknown): Score {
  return { metric, value: null, label, explanation, ...(details === undefined ? {} : { details }) };
}

export const NEEDS_JUDGE_LABEL = 'needs-judge-model';
export const NEEDS_EMBEDDINGS_LABEL = 'needs-embeddings-model';

export function needsJudgeScore(metric: string): Score {
  return undeterminedScore(metric, NEEDS_JUDGE_LABEL, 'Not scored: RAGAS metrics need a judge model. Set judge: in the eval file (e.g. judge: openai:gpt-4o-mini).');
}
