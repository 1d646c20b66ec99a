// The one judge step: render a judge prompt, call the judge, read its answer (text, or JSON checked against a schema
// with one repair retry); a failure of any of these is a judge error, and cancellation is always rethrown.
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import { builtinPrompt } from '../assets.js';
import { describeError } from '../errors.js';
import type { ChatMessage, ModelClient, Score } from '../model.js';
import { loadTemplate, renderTemplate } from '../prompt/template.js';

export interface JudgeRequest {
  /** Names the schema for the provider's structured output (letters, digits, _ and -). */
  name: string;
  messages: ChatMessage[];
  /** A JSON schema (draft-07) the answer must satisfy. */
  schema: Record<string, unknown>;
  temperature?: number;
  maxTokens?: number;
  /** A judge sample's seed (judgeSamples: k); also keeps the k samples apart in the response cache. */
  seed?: number;
}

export type JudgeOutcome<T> =
  | { ok: true; value: T; raw: string; attempts: number }
  | { ok: false; error: string; raw: string; attempts: number };

/** Made on the first judge answer to check: a run without a judge does not pay for it at start (~5 ms). */
let ajv: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

/**
 * Keyed by the schema's text: methods build their schema per case from their params (LLM-Eval's dimensions, RGB's
 * labels), and a new object each time would compile again, and grow Ajv's own cache, which holds every schema object.
 */
function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = validators.get(text);
  if (!validate) {
    ajv ??= new Ajv({ allErrors: true, strict: false });
    validate = ajv.compile(schema);
    validators.set(text, validate);
  }
  return validate;
}

/** The structured output a judge prompt asks for: a name (letters, digits, _ and -) and a JSON schema (draft-07). */
export interface JudgeSchema {
  name: string;
  schema: Record<string, unknown>;
}

export interface AskOptions {
  /** Temperature 0 unless a method's algorithm samples (RAGAS answer relevancy): a judge must be repeatable. */
  temperature?: number;
}

type Variables = Record<string, unknown>;

/** The judge as a scorer sees it (`ScoreContext.judge`): the run's judge model, its signal bound in. */
export interface Judge {
  /** "provider:model", for explanations and details. */
  readonly key: string;
  /**
   * Renders `prompt` (a file under prompts/, which users may edit) with `variables` and asks the judge. Without
   * `schema` the answer is the judge's text, for the method's own rule to read; with it, the JSON validated against
   * it. A prompt that cannot be rendered, a failed call or an unreadable answer is `ok: false` with the reason, which
   * the method records as a judge error (undetermined, never 0). Cancellation is rethrown, so a cancelled case is
   * not recorded as judged and `--resume` runs it again.
   */
  ask(prompt: string, variables: Variables, options?: AskOptions): Promise<JudgeOutcome<string>>;
  ask<T>(prompt: string, variables: Variables, options: AskOptions & { schema: JudgeSchema }): Promise<JudgeOutcome<T>>;
}

/**
 * Which of the k judge samples this judge is (judgeSamples: k). Sample 0 is the ordinary call, unchanged, so k = 1
 * is today's run and its cache; samples 1..k-1 get their index as seed and, unless the method sets its own, the
 * sampling temperature — a greedy judge at temperature 0 would repeat itself and show no spread.
 */
export interface JudgeSample {
  index: number;
  temperature: number;
}

/** The judge step over a model client (the engine's, which counts the judge's calls and usage). */
export function createJudge(client: ModelClient, signal: AbortSignal, sample?: JudgeSample): Judge {
  async function ask(prompt: string, variables: Variables, options: AskOptions & { schema?: JudgeSchema } = {}): Promise<JudgeOutcome<unknown>> {
    let messages: ChatMessage[];
    try {
      messages = await renderJudgePrompt(prompt, variables);
    } catch (error) {
      return { ok: false, error: `prompt ${prompt} could not be rendered: ${describeError(error)}`, raw: '', attempts: 0 };
    }
    const resampled = sample !== undefined && sample.index > 0;
    const temperature = options.temperature ?? (resampled ? sample.temperature : 0);
    const seed = resampled ? { seed: sample.index } : {};
    if (options.schema) return judgeJson(client, { ...options.schema, messages, temperature, ...seed }, signal);
    const answer = await call(client, { messages, temperature, ...seed }, signal);
    return 'error' in answer ? { ok: false, error: answer.error, raw: '', attempts: 1 } : { ok: true, value: answer.text, raw: answer.text, attempts: 1 };
  }
  return { key: client.key, ask: ask as Judge['ask'] };
}

/**
 * The label of a judge answer that matched neither of the prompt's verdicts (RGB Rej* and ED*: neither substring; RAGAS
 * context relevance: no sentence and no "Insufficient Information"). The reference scores it as the negative verdict,
 * and so does the default; tables count such answers and show them beside the value (ReportCell.unmatched).
 */
export const NEITHER_VERDICT = 'neither-verdict';

/** What a method records for `ok: false`: undetermined (value null, kept out of every denominator), never 0. */
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

/** A judge prompt file under prompts/, loaded on every call so that an edited file takes effect in a running extension. */
export async function renderJudgePrompt(prompt: string, variables: Variables): Promise<ChatMessage[]> {
  return renderTemplate(await loadTemplate(builtinPrompt(prompt)), variables);
}

/**
 * One call; a provider failure (after the scheduler's retries) is a judge error for this metric, not a crash of the
 * case. A cancelled call is rethrown: the run is stopping, and a judge error here would log the case as finished.
 */
async function call(judge: ModelClient, request: Parameters<ModelClient['complete']>[0], signal: AbortSignal): Promise<{ text: string; finishReason?: string } | { error: string }> {
  try {
    const { text, finishReason } = await judge.complete(request, signal);
    return { text, finishReason };
  } catch (error) {
    if (signal.aborted) throw error;
    return { error: `judge call failed: ${describeError(error)}` };
  }
}

/**
 * Calls the judge and returns the parsed, validated answer, or a judge error saying what was wrong; cancellation is
 * rethrown. Never returns a default value in place of an answer. Scorers reach it through `Judge.ask`; the IF-RAG
 * generator, which builds its own follow-up messages, calls it directly.
 */
export async function judgeJson<T>(judge: ModelClient, request: JudgeRequest, signal: AbortSignal): Promise<JudgeOutcome<T>> {
  const validate = validatorFor(request.schema);
  let messages = request.messages;
  let raw = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    const answer = await call(judge, {
      messages,
      temperature: request.temperature ?? 0,
      maxTokens: request.maxTokens,
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
      structuredOutput: { name: request.name, schema: request.schema },
    }, signal);
    if ('error' in answer) return { ok: false, error: answer.error, raw, attempts: attempt };
    raw = answer.text;
    const problem = problemWith(raw, validate);
    if (problem === undefined) return { ok: true, value: parseJsonAnswer(raw) as T, raw, attempts: attempt };
    // An answer cut at the token limit is unreadable JSON for a reason the user can fix; asking again gets it cut again.
    if (answer.finishReason === 'length') return { ok: false, error: `judge output is not valid (${problem}): the judge stopped at its token limit (finish reason "length"); raise the judge's maxTokens in the eval file`, raw, attempts: attempt };
    if (attempt === 2) return { ok: false, error: `judge output is not valid (${problem}) after one repair attempt`, raw, attempts: attempt };
    messages = [
      ...request.messages,
      { role: 'assistant', content: raw },
      { role: 'user', content: `Your answer could not be used: ${problem}. Reply again with only a JSON value that matches the required schema, no other text.` },
    ];
  }
  return { ok: false, error: 'unreachable', raw, attempts: 2 };
}

function problemWith(raw: string, validate: ValidateFunction): string | undefined {
  let value: unknown;
  try {
    value = parseJsonAnswer(raw);
  } catch (error) {
    return `not JSON: ${(error as Error).message}`;
  }
  if (validate(value)) return undefined;
  return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message}`).join('; ');
}

/** JSON, tolerating the Markdown code fence many models wrap it in; anything else is not JSON. */
export function parseJsonAnswer(raw: string): unknown {
  const fenced = /^\s*```(?:json)?\s*\n([\s\S]*?)\n\s*```\s*$/i.exec(raw);
  return JSON.parse(fenced ? fenced[1]! : raw.trim());
}
