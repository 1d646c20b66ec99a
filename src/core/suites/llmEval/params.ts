// LLM-Eval suite parameters: the user's score schema (dimensions), the scale, reference use and level, validated with messages that name the key.
import { paramValueError, unknownParamError } from '../paramError.js';

export interface Dimension {
  /** A JSON property name: the key the judge answers under and the metric name in reports. */
  name: string;
  /** Optional gloss shown to the judge after the reference's "{name} score in the range of …". */
  description?: string;
}

export const SCALES = ['0-5', '0-100'] as const;
export type Scale = (typeof SCALES)[number];

export const LEVELS = ['response', 'dialogue'] as const;
export type Level = (typeof LEVELS)[number];

/**
 * How the judge's reply is read. 'reference' (default): as MiuLab/LLM-Eval does — no structured output, one call,
 * the JSON found in the prose, extra keys ignored, strings coerced, int() on the 0–100 scale. 'strict': the answer
 * must be JSON matching the schema (sent as structured output), with one repair retry.
 */
export const PARSERS = ['reference', 'strict'] as const;
export type Parser = (typeof PARSERS)[number];

export interface LlmEvalParams {
  dimensions: Dimension[];
  scale: Scale;
  /** Show the judge the row's reference response (the paper's "with human reference" setting). */
  withReference: boolean;
  /** 'response': score one response in its context; 'dialogue': score a whole dialogue (the row's `dialog`). */
  level: Level;
  parser: Parser;
}

/** The paper's four dimensions (Lin & Chen 2023, Table 1). */
export const PAPER_DIMENSIONS: readonly Dimension[] = [
  { name: 'content' },
  { name: 'grammar' },
  { name: 'relevance' },
  { name: 'appropriateness' },
];

const KNOWN_KEYS = ['dimensions', 'scale', 'withReference', 'level', 'parser'];
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

type Where = { file: string };

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, 'llm-eval', key, message, hint);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function parseDimension(value: unknown, i: number, where: Where): Dimension {
  const key = `dimensions[${i}]`;
  const raw = typeof value === 'string' ? { name: value } : value;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(where, key, `expected a name or { name, description }, got ${describe(value)}`, 'e.g. - { name: groundedness, description: every claim is supported by the context }');
  const object = raw as Record<string, unknown>;
  for (const k of Object.keys(object)) if (k !== 'name' && k !== 'description') throw unknownParamError(where.file, 'llm-eval', ['dimensions', i, k], ['name', 'description'], 'unknown key', 'a dimension has name and description');
  if (typeof object.name !== 'string' || !NAME.test(object.name)) {
    fail(where, `${key}.name`, `expected a name of letters, digits and _, got ${describe(object.name)}`, 'the judge answers under this JSON key, e.g. groundedness');
  }
  if (object.description !== undefined && (typeof object.description !== 'string' || object.description.trim() === '')) {
    fail(where, `${key}.description`, `expected a non-empty string, got ${describe(object.description)}`, 'or leave description out');
  }
  return object.description === undefined ? { name: object.name } : { name: object.name, description: object.description as string };
}

function parseDimensions(value: unknown, where: Where): Dimension[] {
  if (value === undefined) return PAPER_DIMENSIONS.map((d) => ({ ...d }));
  if (!Array.isArray(value) || value.length === 0) fail(where, 'dimensions', `expected a non-empty list, got ${describe(value)}`, 'e.g. dimensions: [groundedness, completeness, citation]');
  const dimensions = value.map((item, i) => parseDimension(item, i, where));
  const seen = new Set<string>();
  dimensions.forEach((d, i) => {
    if (seen.has(d.name)) fail(where, `dimensions[${i}].name`, `${d.name} is listed twice`, 'each dimension is one score; list it once');
    seen.add(d.name);
  });
  return dimensions;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], key: string, fallback: T, where: Where): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) fail(where, key, `expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${describe(value)}`, `e.g. ${key}: '${fallback}'`);
  return value as T;
}

export function parseLlmEvalParams(raw: unknown, where: Where): LlmEvalParams {
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
    fail(where, '(root)', `expected a mapping, got ${describe(raw)}`, "e.g. params: { scale: '0-5' }");
  }
  const object = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(object)) if (!KNOWN_KEYS.includes(key)) throw unknownParamError(where.file, 'llm-eval', [key], KNOWN_KEYS, 'unknown parameter', `LLM-Eval accepts ${KNOWN_KEYS.join(', ')}`);
  const withReference = object.withReference ?? false;
  if (typeof withReference !== 'boolean') fail(where, 'withReference', `expected true or false, got ${describe(withReference)}`, 'true shows the judge each row\'s reference response');
  const level = oneOf(object.level, LEVELS, 'level', 'response', where);
  if (level === 'dialogue' && withReference) fail(where, 'withReference', 'the dialogue-level prompt has no reference', 'remove withReference or use level: response');
  return { dimensions: parseDimensions(object.dimensions, where), scale: oneOf(object.scale, SCALES, 'scale', '0-5', where), withReference, level, parser: oneOf(object.parser, PARSERS, 'parser', 'reference', where) };
}
