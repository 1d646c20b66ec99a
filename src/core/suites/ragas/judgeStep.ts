// One LLM step of a RAGAS metric: a prompt file, a typed input, a JSON schema for the output, asked through the judge step.
import type { Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import type { AskOptions as JudgeAskOptions, JudgeOutcome } from '../judging.js';

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

/** A score context with its judge: the metrics run only when one is configured. */
export type StepContext = Required<Pick<ScoreContext, 'judge' | 'signal'>>;

export interface AskOptions extends JudgeAskOptions {
  /**
   * Appended to the structured-output name. The response cache keys on the whole request, so repeated samples of
   * one prompt (answer relevancy's generations) need distinct names, or the second and third would replay the first.
   */
  sample?: number;
}

/** Ask the step's prompt for JSON; the schema is also shown to the model as `output_schema`, as ragas does. */
export async function ask<Input, Output>(context: StepContext, step: JudgeStep<Input, Output>, input: Input, options: AskOptions = {}): Promise<JudgeOutcome<Output>> {
  const name = options.sample === undefined ? step.name : `${step.name}_${options.sample}`;
  const variables = { ...step.variables(input), output_schema: JSON.stringify(step.schema) };
  return context.judge.ask<Output>(step.prompt, variables, { schema: { name, schema: step.schema }, temperature: options.temperature });
}

/** The contexts as the reference joins them for one NLI call over all of them. */
export function joinContexts(texts: readonly string[]): string {
  return texts.join('\n');
}

// ——— scores that are not numbers ———

/** Nothing to judge (NaN in the reference): kept apart from 0 in every mean. */
export function undeterminedScore(metric: string, label: string, explanation: string, details?: unknown): Score {
  return { metric, value: null, label, explanation, ...(details === undefined ? {} : { details }) };
}

export const NEEDS_JUDGE_LABEL = 'needs-judge-model';
export const NEEDS_EMBEDDINGS_LABEL = 'needs-embeddings-model';

export function needsJudgeScore(metric: string): Score {
  return undeterminedScore(metric, NEEDS_JUDGE_LABEL, 'Not scored: RAGAS metrics need a judge model. Set judge: in the eval file (e.g. judge: openai:gpt-4o-mini).');
}
