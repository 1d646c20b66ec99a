// Needle-in-a-Haystack parameters: types, the reference defaults, and validation that names the bad key.
import { choice, decimal, either, flag, items, list, mapping, paramsReader, readParams, required, text, whole } from '../paramSchema.js';
import type { ParamsOf, ParamsReader } from '../paramSchema.js';
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

export interface NeedleSpec {
  text: string;
  /** The phrase substring and rail scoring look for. */
  answer: string;
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

const tokens = 'token counts are whole numbers';
const depthHint = '0 is the top of the context, 100 the end';
const gridHint = 'each value gives one row or column of the grid; list it once';
const needleHint = 'quote it in YAML if it starts with a special character';

const shape = {
  variant: choice(VARIANTS, { default: 'classic', description: 'classic: Kamradt\'s test; arize: a random number per cell with the UNANSWERABLE rail and a negative test; multi: several needles, scored by how many are retrieved.' }),
  haystack: text({ description: 'A folder of .txt files, a file or a glob, relative to the eval file; the bundled example haystack by default.' }),
  contextLengths: either([
    items.list(items.whole({ min: 1 }, tokens), { example: 'e.g. contextLengths: [1000, 4000, 16000]', distinct: gridHint }),
    mapping({
      min: whole({ min: 1, default: 1000, hint: tokens, description: 'The shortest context length, in tokens.' }),
      max: whole({ min: 1, default: 16000, hint: tokens, description: 'The longest context length, in tokens.' }),
      intervals: whole({ min: 1, default: 35, hint: tokens, description: 'How many lengths from min to max (rounded like the reference\'s linspace).' }),
    }, { example: 'contextLengths: { min: 1000, max: 16000, intervals: 35 }', problem: 'unknown field', hint: 'contextLengths accepts min, max, intervals, or a list' }),
  ], { expected: 'a list or {min, max, intervals}', hint: 'e.g. contextLengths: { min: 1000, max: 16000, intervals: 35 }', description: 'Context lengths in tokens: a list, or { min, max, intervals } (1000 to 16000 in 35 steps by default, as the reference).' }),
  depths: either([
    items.list(items.decimal({ min: 0, max: 100, unit: 'percent' }, depthHint), { example: 'e.g. depths: [0, 50, 100]', distinct: gridHint }),
    mapping({
      intervals: whole({ min: 1, default: 35, hint: tokens, description: 'How many depths from min to max.' }),
      distribution: choice(['linear', 'sigmoid'], { default: 'linear', description: 'linear steps, or sigmoid (more depths near the top and the end), as the reference.' }),
      min: decimal({ min: 0, max: 100, unit: 'percent', default: 0, hint: depthHint, description: 'The first depth, in percent.' }),
      max: decimal({ min: 0, max: 100, unit: 'percent', default: 100, hint: depthHint, description: 'The last depth, in percent.' }),
    }, { example: 'depths: { intervals: 35, distribution: linear }', problem: 'unknown field', hint: 'depths accepts intervals, distribution, min, max, or a list' }),
  ], { expected: 'a list or {intervals, distribution}', hint: 'e.g. depths: { intervals: 35, distribution: linear }', description: 'Needle depths in percent (0 the top, 100 the end): a list, or { intervals, distribution, min, max } (35 linear from 0 to 100 by default).' }),
  buffer: whole({ min: 0, default: 200, hint: tokens, description: 'Tokens left free in each context (the reference subtracts it from every length).' }),
  needle: text({ description: 'classic: the sentence inserted (the reference\'s San Francisco sentence by default); arize: its template with {city} and {number}.' }),
  question: text({ description: 'The question asked; the variant\'s reference question by default.' }),
  needles: list(items.either([
    items.text(needleHint),
    mapping({
      needle: required(items.text('the sentence to insert'), 'The sentence inserted.'),
      answer: text({ description: 'The phrase the response must contain; the sentence itself by default.' }),
    }, { example: 'needles: [{ needle: "…", answer: "…" }]', problem: 'unknown field', hint: 'a needle accepts needle, answer' }),
  ], { expected: 'a string or { needle, answer }', hint: 'answer is the phrase the response must contain' }), { example: 'each item is a sentence, or { needle, answer }', description: 'multi only: the needles, each a sentence or { needle, answer } (the reference\'s pizza needles by default).' }),
  answer: text({ description: 'classic: the phrase the response must contain; the whole needle sentence by default (the reference\'s phrase for its own needle).' }),
  expected: text({ description: 'Another name for answer.' }),
  tokenizerModel: text({ description: 'The model whose tokenizer cuts the contexts ("provider:model"); the first model under test\'s by default.' }),
  negativeTest: flag({ description: 'arize only: also ask each length with no needle (the answer is UNANSWERABLE); on by default for arize.' }),
  scoring: choice(['auto', ...SCORINGS], {
    default: 'auto',
    hint: 'leave scoring out for the variant\'s reference scoring',
    description: 'How each response is scored. auto (default): classic — the judge (the reference\'s 1–10) when the eval file sets judge:, a substring check when it does not; arize — rails; multi — needles retrieved of k. Adding judge: for another suite therefore switches classic needle suites without scoring: to the judge; set scoring: substring to keep them as they were. The scoring used is shown beside the suite in the report and panel.',
  }),
  prompt: choice(PROMPTS, { description: 'The built-in template when the suite names none: reference (simple-unanswerable for arize) or one of the Arize write-up\'s.' }),
  boundary: choice(['sentence', 'period-token'], { default: 'sentence', description: 'Where a needle may go: after a sentence end (default), or after any period token as the reference.' }),
};

/** Needle in a Haystack's params as the eval file writes them. */
export const needleParamsSchema = mapping(shape, { example: 'params: { variant: classic, contextLengths: [1000, 4000] }', hint: `Needle in a Haystack accepts ${Object.keys(shape).join(', ')}` });

type Read = ParamsOf<typeof needleParamsSchema>;

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

function contextLengths(value: Read['contextLengths'], reader: ParamsReader): number[] {
  if (value === undefined) return roundedLinspace(1000, 16000, 35);
  if (Array.isArray(value)) return value;
  if (value.max < value.min) reader.fail('contextLengths.max', `${value.max} is below min ${value.min}`, 'swap them');
  return [...new Set(roundedLinspace(value.min, value.max, value.intervals))];
}

function depths(value: Read['depths'], reader: ParamsReader): { depths: number[]; distribution: DepthDistribution | 'list' } {
  if (value === undefined) return { depths: depthPercents(0, 100, 35, 'linear'), distribution: 'linear' };
  if (Array.isArray(value)) return { depths: value, distribution: 'list' };
  if (value.max < value.min) reader.fail('depths.max', `${value.max} is below min ${value.min}`, 'swap them');
  return { depths: [...new Set(depthPercents(value.min, value.max, value.intervals, value.distribution))], distribution: value.distribution };
}

function needles(value: Read['needles'], variant: Variant, reader: ParamsReader): NeedleSpec[] {
  if (value === undefined) return variant === 'multi' ? [...DEFAULT_NEEDLES] : [];
  if (variant !== 'multi') reader.fail('needles', `only the multi variant takes several needles (variant is ${variant})`, 'use needle for one, or set variant: multi');
  return value.map((item) => (typeof item === 'string' ? { text: item, answer: item.trim() } : { text: item.needle, answer: item.answer ?? item.needle.trim() }));
}

function answer(read: Read, variant: Variant, reader: ParamsReader): string | undefined {
  if (read.answer !== undefined && read.expected !== undefined) reader.fail('expected', 'answer and expected name the same thing', 'keep one of them');
  const key = read.answer !== undefined ? 'answer' : 'expected';
  const given = read.answer ?? read.expected;
  if (given !== undefined && variant !== 'classic') {
    reader.fail(key, `the ${variant} variant has its own answers`, variant === 'arize' ? 'the answer is each cell\'s random number' : 'give each needle its answer: needles: [{ needle, answer }]');
  }
  return given;
}

function scoring(value: Scoring, variant: Variant, reader: ParamsReader): Scoring {
  const allowed: Record<Variant, Scoring[]> = { classic: ['auto', 'judge', 'substring', 'rail'], arize: ['auto', 'rail'], multi: ['auto', 'substring'] };
  if (!allowed[variant].includes(value)) reader.fail('scoring', `the ${variant} variant is scored by ${allowed[variant].slice(1).join(' or ')}`, 'remove scoring to use the variant\'s reference scoring');
  return value;
}

function needle(given: string | undefined, variant: Variant, reader: ParamsReader): string {
  if (given !== undefined && variant === 'multi') reader.fail('needle', 'the multi variant takes needles (a list)', 'write needles: [ … ]');
  if (variant === 'arize') {
    const template = given ?? ARIZE_NEEDLE;
    if (!template.includes('{number}')) reader.fail('needle', 'the Arize needle must contain {number}', 'e.g. "The special magic {city} number is: {number}"');
    return template;
  }
  return given ?? DEFAULT_NEEDLE;
}

function defaultQuestion(variant: Variant): string {
  if (variant === 'arize') return ARIZE_QUESTION;
  return variant === 'multi' ? DEFAULT_MULTI_QUESTION : DEFAULT_QUESTION;
}

export function parseNeedleParams(input: unknown, where: { file: string }): NeedleParams {
  const read = readParams(needleParamsSchema, input, where.file, 'needle');
  const reader = paramsReader(where.file, 'needle');
  const { variant } = read;
  const grid = depths(read.depths, reader);
  const needleText = needle(read.needle, variant, reader);
  const given = answer(read, variant, reader);
  if (read.negativeTest === true && variant !== 'arize') reader.fail('negativeTest', `only the arize variant runs the negative test (variant is ${variant})`, 'set variant: arize');
  const params: NeedleParams = {
    variant,
    haystack: read.haystack,
    contextLengths: contextLengths(read.contextLengths, reader),
    depths: grid.depths,
    depthDistribution: grid.distribution,
    buffer: read.buffer,
    needle: needleText,
    question: read.question ?? defaultQuestion(variant),
    needles: needles(read.needles, variant, reader),
    answer: given ?? (variant === 'classic' && needleText === DEFAULT_NEEDLE ? DEFAULT_ANSWER : undefined),
    tokenizerModel: read.tokenizerModel ?? DEFAULT_TOKENIZER_MODEL,
    tokenizerModelChosen: read.tokenizerModel !== undefined,
    negativeTest: read.negativeTest ?? variant === 'arize',
    scoring: scoring(read.scoring, variant, reader),
    prompt: read.prompt ?? (variant === 'arize' ? 'simple-unanswerable' : 'reference'),
    boundary: read.boundary,
  };
  // The haystack must leave room: the reference subtracts the buffer from every length.
  const smallest = Math.min(...params.contextLengths);
  if (smallest <= params.buffer) reader.fail('buffer', `${params.buffer} tokens leave nothing of the shortest context length (${smallest})`, 'lower buffer or raise the context lengths');
  return params;
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
