// Needle-in-a-Haystack parameters: types, the reference defaults, and validation that names the bad key.
import { paramPath, paramValueError, unknownParamError } from '../paramError.js';
import { ARIZE_NEEDLE, ARIZE_QUESTION } from './arize.js';
import { depthPercents, roundedLinspace } from './grid.js';
import type { DepthDistribution } from './grid.js';
import type { BoundaryRule } from './tokenIndex.js';

export const VARIANTS = ['classic', 'arize', 'multi'] as const;
export type Variant = (typeof VARIANTS)[number];

/** The built-in templates under prompts/needle/ (the seed's four). */
export const PROMPTS = ['reference', 'simple-unanswerable', 'anthropic-original', 'anthropic-rev2'] as const;
export type PromptName = (typeof PROMPTS)[number];

export const SCORINGS = ['judge', 'substring', 'rail'] as const;
/** `auto`: the judge when the eval file configures one (classic), rails (arize), substring otherwise. */
export type Scoring = (typeof SCORINGS)[number] | 'auto';

const BOUNDARIES: readonly BoundaryRule[] = ['sentence', 'period-token'];

export interface NeedleSpec {
  text: string;
  /** The phrase substring and rail scoring look for. */
  answer: string;
}

export interface NeedleParams {
  variant: Variant;
  /** As written in the eval file (resolved against its folder); undefined = the bundled example haystack. */
  haystack?: string;
  contextLengths: number[];
  depths: number[];
  /** How the depths were given, for the report. */
  depthDistribution: DepthDistribution | 'list';
  buffer: number;
  /** classic: the needle; arize: its template with {city} and {number}. */
  needle: string;
  question: string;
  /** multi only. */
  needles: NeedleSpec[];
  /** classic: the expected phrase; undefined = the whole needle sentence (said in the report). */
  answer?: string;
  tokenizerModel: string;
  /** False when tokenizerModel is the default: the engine then cuts contexts with the first model under test's tokenizer. */
  tokenizerModelChosen: boolean;
  negativeTest: boolean;
  scoring: Scoring;
  prompt: PromptName;
  boundary: BoundaryRule;
}

/** Reference defaults (gkamradt run.py). */
export const DEFAULT_NEEDLE = '\nThe best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.\n';
export const DEFAULT_QUESTION = 'What is the best thing to do in San Francisco?';
export const DEFAULT_ANSWER = 'eat a sandwich and sit in Dolores Park';
/** The multi-needle reference's needles (run.py) and the question LangChain's write-up asks of them. */
export const DEFAULT_NEEDLES: readonly NeedleSpec[] = [
  { text: ' Figs are one of the secret ingredients needed to build the perfect pizza. ', answer: 'figs' },
  { text: ' Prosciutto is one of the secret ingredients needed to build the perfect pizza. ', answer: 'prosciutto' },
  { text: ' Goat cheese is one of the secret ingredients needed to build the perfect pizza. ', answer: 'goat cheese' },
];
export const DEFAULT_MULTI_QUESTION = 'What are the secret ingredients needed to build the perfect pizza?';
export const DEFAULT_TOKENIZER_MODEL = 'openai:gpt-4o';

const KNOWN_KEYS = [
  'variant', 'haystack', 'contextLengths', 'depths', 'buffer', 'needle', 'question', 'needles', 'answer', 'expected',
  'tokenizerModel', 'negativeTest', 'scoring', 'prompt', 'boundary',
];

type Where = { file: string };
type Raw = Record<string, unknown>;

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, 'needle', key, message, hint);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function asObject(raw: unknown, where: Where): Raw {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    fail(where, '(root)', `expected a mapping, got ${describe(raw)}`, 'e.g. params: { variant: classic, contextLengths: [1000, 4000] }');
  }
  return raw as Raw;
}

function rejectUnknownKeys(raw: Raw, where: Where): void {
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.includes(key)) throw unknownParamError(where.file, 'needle', [key], KNOWN_KEYS, 'unknown parameter', `Needle in a Haystack accepts ${KNOWN_KEYS.join(', ')}`);
  }
}

function oneOf<T extends string>(value: unknown, key: string, allowed: readonly T[], fallback: T, where: Where, hint = `leave ${key} out for the default (${fallback})`): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) fail(where, key, `expected one of ${allowed.join(', ')}, got ${describe(value)}`, hint);
  return value as T;
}

function text(value: unknown, key: string, where: Where): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') fail(where, key, `expected a non-empty string, got ${describe(value)}`, 'quote it in YAML if it starts with a special character');
  return value;
}

function integer(value: unknown, key: string, min: number, where: Where): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) fail(where, key, `expected a whole number of at least ${min}, got ${describe(value)}`, 'token counts are whole numbers');
  return value;
}

function rangeObject(value: Raw, key: string, allowed: string[], where: Where): void {
  for (const field of Object.keys(value)) {
    if (!allowed.includes(field)) throw unknownParamError(where.file, 'needle', [...paramPath(key), field], allowed, 'unknown field', `${key} accepts ${allowed.join(', ')}, or a list`);
  }
}

function checkDistinct(values: number[], key: string, where: Where): void {
  const seen = new Set<number>();
  for (const value of values) {
    if (seen.has(value)) fail(where, key, `${value} is listed twice`, 'each value gives one row or column of the grid; list it once');
    seen.add(value);
  }
}

/** A list of token counts, or `{min, max, intervals}` → round(linspace) like the reference (1000..16000 × 35). */
function parseContextLengths(value: unknown, where: Where): number[] {
  if (value === undefined) return roundedLinspace(1000, 16000, 35);
  if (Array.isArray(value)) {
    if (value.length === 0) fail(where, 'contextLengths', 'the list is empty', 'e.g. contextLengths: [1000, 4000, 16000]');
    const lengths = value.map((length, i) => integer(length, `contextLengths[${i}]`, 1, where));
    checkDistinct(lengths, 'contextLengths', where);
    return lengths;
  }
  if (typeof value !== 'object' || value === null) fail(where, 'contextLengths', `expected a list or {min, max, intervals}, got ${describe(value)}`, 'e.g. contextLengths: { min: 1000, max: 16000, intervals: 35 }');
  const range = value as Raw;
  rangeObject(range, 'contextLengths', ['min', 'max', 'intervals'], where);
  const min = integer(range.min ?? 1000, 'contextLengths.min', 1, where);
  const max = integer(range.max ?? 16000, 'contextLengths.max', 1, where);
  const intervals = integer(range.intervals ?? 35, 'contextLengths.intervals', 1, where);
  if (max < min) fail(where, 'contextLengths.max', `${max} is below min ${min}`, 'swap them');
  return [...new Set(roundedLinspace(min, max, intervals))];
}

function depthValue(value: unknown, key: string, where: Where): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) fail(where, key, `expected a percent between 0 and 100, got ${describe(value)}`, '0 is the top of the context, 100 the end');
  return value;
}

/** A list of percents, or `{intervals, distribution, min, max}` (35 linear from 0 to 100 by default). */
function parseDepths(value: unknown, where: Where): { depths: number[]; distribution: DepthDistribution | 'list' } {
  if (value === undefined) return { depths: depthPercents(0, 100, 35, 'linear'), distribution: 'linear' };
  if (Array.isArray(value)) {
    if (value.length === 0) fail(where, 'depths', 'the list is empty', 'e.g. depths: [0, 50, 100]');
    const depths = value.map((depth, i) => depthValue(depth, `depths[${i}]`, where));
    checkDistinct(depths, 'depths', where);
    return { depths, distribution: 'list' };
  }
  if (typeof value !== 'object' || value === null) fail(where, 'depths', `expected a list or {intervals, distribution}, got ${describe(value)}`, 'e.g. depths: { intervals: 35, distribution: linear }');
  const range = value as Raw;
  rangeObject(range, 'depths', ['intervals', 'distribution', 'min', 'max'], where);
  const intervals = integer(range.intervals ?? 35, 'depths.intervals', 1, where);
  const distribution = oneOf<DepthDistribution>(range.distribution, 'depths.distribution', ['linear', 'sigmoid'], 'linear', where);
  const min = depthValue(range.min ?? 0, 'depths.min', where);
  const max = depthValue(range.max ?? 100, 'depths.max', where);
  if (max < min) fail(where, 'depths.max', `${max} is below min ${min}`, 'swap them');
  return { depths: [...new Set(depthPercents(min, max, intervals, distribution))], distribution };
}

function parseNeedles(value: unknown, variant: Variant, where: Where): NeedleSpec[] {
  if (value === undefined) return variant === 'multi' ? [...DEFAULT_NEEDLES] : [];
  if (variant !== 'multi') fail(where, 'needles', `only the multi variant takes several needles (variant is ${variant})`, 'use needle for one, or set variant: multi');
  if (!Array.isArray(value) || value.length === 0) fail(where, 'needles', `expected a non-empty list, got ${describe(value)}`, 'each item is a sentence, or { needle, answer }');
  return value.map((item, i) => {
    if (typeof item === 'string') return { text: text(item, `needles[${i}]`, where) as string, answer: item.trim() };
    if (typeof item !== 'object' || item === null || Array.isArray(item)) fail(where, `needles[${i}]`, `expected a string or { needle, answer }, got ${describe(item)}`, 'answer is the phrase the response must contain');
    const object = item as Raw;
    rangeObject(object, `needles[${i}]`, ['needle', 'answer'], where);
    const needle = text(object.needle, `needles[${i}].needle`, where);
    if (needle === undefined) fail(where, `needles[${i}].needle`, 'missing', 'the sentence to insert');
    return { text: needle, answer: text(object.answer, `needles[${i}].answer`, where) ?? needle.trim() };
  });
}

function parseAnswer(raw: Raw, variant: Variant, where: Where): string | undefined {
  if (raw.answer !== undefined && raw.expected !== undefined) fail(where, 'expected', 'answer and expected name the same thing', 'keep one of them');
  const key = raw.answer !== undefined ? 'answer' : 'expected';
  const answer = text(raw[key], key, where);
  if (answer !== undefined && variant !== 'classic') {
    fail(where, key, `the ${variant} variant has its own answers`, variant === 'arize' ? 'the answer is each cell\'s random number' : 'give each needle its answer: needles: [{ needle, answer }]');
  }
  return answer;
}

function parseScoring(value: unknown, variant: Variant, where: Where): Scoring {
  if (value === undefined) return 'auto';
  const scoring = oneOf<Scoring>(value, 'scoring', SCORINGS, 'auto', where, 'leave scoring out for the variant\'s reference scoring');
  const allowed: Record<Variant, Scoring[]> = { classic: ['judge', 'substring', 'rail'], arize: ['rail'], multi: ['substring'] };
  if (!allowed[variant].includes(scoring)) fail(where, 'scoring', `the ${variant} variant is scored by ${allowed[variant].join(' or ')}`, 'remove scoring to use the variant\'s reference scoring');
  return scoring;
}

function defaultPrompt(variant: Variant): PromptName {
  return variant === 'arize' ? 'simple-unanswerable' : 'reference';
}

function parseBoolean(value: unknown, key: string, fallback: boolean, where: Where): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') fail(where, key, `expected true or false, got ${describe(value)}`, `write ${key}: true or ${key}: false`);
  return value;
}

function parseNeedle(raw: Raw, variant: Variant, where: Where): string {
  const needle = text(raw.needle, 'needle', where);
  if (needle !== undefined && variant === 'multi') fail(where, 'needle', 'the multi variant takes needles (a list)', 'write needles: [ … ]');
  if (variant === 'arize') {
    const template = needle ?? ARIZE_NEEDLE;
    if (!template.includes('{number}')) fail(where, 'needle', 'the Arize needle must contain {number}', 'e.g. "The special magic {city} number is: {number}"');
    return template;
  }
  return needle ?? DEFAULT_NEEDLE;
}

function defaultQuestion(variant: Variant): string {
  if (variant === 'arize') return ARIZE_QUESTION;
  return variant === 'multi' ? DEFAULT_MULTI_QUESTION : DEFAULT_QUESTION;
}

/** The haystack must leave room: the reference subtracts the buffer from every length. */
function checkRoom(params: NeedleParams, where: Where): void {
  const smallest = Math.min(...params.contextLengths);
  if (smallest <= params.buffer) fail(where, 'buffer', `${params.buffer} tokens leave nothing of the shortest context length (${smallest})`, 'lower buffer or raise the context lengths');
}

export function parseNeedleParams(input: unknown, where: Where): NeedleParams {
  const raw = asObject(input, where);
  rejectUnknownKeys(raw, where);
  const variant = oneOf<Variant>(raw.variant, 'variant', VARIANTS, 'classic', where);
  const { depths, distribution } = parseDepths(raw.depths, where);
  const needle = parseNeedle(raw, variant, where);
  const answer = parseAnswer(raw, variant, where);
  if (negativeTestGiven(raw) && variant !== 'arize') fail(where, 'negativeTest', `only the arize variant runs the negative test (variant is ${variant})`, 'set variant: arize');
  const params: NeedleParams = {
    variant,
    haystack: text(raw.haystack, 'haystack', where),
    contextLengths: parseContextLengths(raw.contextLengths, where),
    depths,
    depthDistribution: distribution,
    buffer: raw.buffer === undefined ? 200 : integer(raw.buffer, 'buffer', 0, where),
    needle,
    question: text(raw.question, 'question', where) ?? defaultQuestion(variant),
    needles: parseNeedles(raw.needles, variant, where),
    answer: answer ?? (variant === 'classic' && needle === DEFAULT_NEEDLE ? DEFAULT_ANSWER : undefined),
    tokenizerModel: text(raw.tokenizerModel, 'tokenizerModel', where) ?? DEFAULT_TOKENIZER_MODEL,
    tokenizerModelChosen: raw.tokenizerModel !== undefined,
    negativeTest: parseBoolean(raw.negativeTest, 'negativeTest', variant === 'arize', where),
    scoring: parseScoring(raw.scoring, variant, where),
    prompt: oneOf<PromptName>(raw.prompt, 'prompt', PROMPTS, defaultPrompt(variant), where),
    boundary: oneOf<BoundaryRule>(raw.boundary, 'boundary', BOUNDARIES, 'sentence', where),
  };
  checkRoom(params, where);
  return params;
}

function negativeTestGiven(raw: Raw): boolean {
  return raw.negativeTest !== undefined && raw.negativeTest !== false;
}

/** The phrase a classic response is checked for: the given answer, else the needle sentence itself. */
export function classicAnswer(params: NeedleParams): string {
  return params.answer ?? params.needle.trim();
}

/**
 * What a grid costs before it runs: cells (negative-test cells included) and the context tokens they send, each
 * cell `L - buffer` (the reference fills the context to that). The template's own text adds a little per cell.
 * Per model under test; judge calls come on top.
 */
export function estimateGrid(params: NeedleParams): { cells: number; promptTokens: number } {
  const perLength = params.depths.length + (params.variant === 'arize' && params.negativeTest ? 1 : 0);
  const cells = params.contextLengths.length * perLength;
  const promptTokens = params.contextLengths.reduce((sum, length) => sum + perLength * (length - params.buffer), 0);
  return { cells, promptTokens };
}
