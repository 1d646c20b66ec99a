// Asks a judge model for JSON matching a schema: structured output, validation, one repair retry, else a judge error.
import Ajv from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { ChatMessage, ModelClient } from '../model.js';

export interface JudgeRequest {
  /** Names the schema for the provider's structured output (letters, digits, _ and -). */
  name: string;
  messages: ChatMessage[];
  /** A JSON schema (draft-07) the answer must satisfy. */
  schema: Record<string, unknown>;
  temperature?: number;
  maxTokens?: number;
}

export type JudgeOutcome<T> =
  | { ok: true; value: T; raw: string; attempts: number }
  | { ok: false; error: string; raw: string; attempts: number };

const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new WeakMap<object, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    validators.set(schema, validate);
  }
  return validate;
}

/**
 * Calls the judge and returns the parsed, validated answer, or a judge error saying what was wrong.
 * A provider failure (after the scheduler's retries) is also a judge error for this metric, not a crash of
 * the case; cancellation is rethrown so the run stops. Never returns a default value in place of an answer.
 */
export async function judgeJson<T>(judge: ModelClient, request: JudgeRequest, signal: AbortSignal): Promise<JudgeOutcome<T>> {
  const validate = validatorFor(request.schema);
  let messages = request.messages;
  let raw = '';
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const response = await judge.complete({
        messages,
        temperature: request.temperature ?? 0,
        maxTokens: request.maxTokens,
        structuredOutput: { name: request.name, schema: request.schema },
      }, signal);
      raw = response.text;
    } catch (error) {
      if (signal.aborted) throw error;
      return { ok: false, error: `judge call failed: ${error instanceof Error ? error.message : String(error)}`, raw, attempts: attempt };
    }
    const problem = problemWith(raw, validate);
    if (problem === undefined) return { ok: true, value: parseJsonAnswer(raw) as T, raw, attempts: attempt };
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
