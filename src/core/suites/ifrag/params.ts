// IF-RAG suite parameters: instruction, data kinds, passages per question, ID format, normalisation, refusal wording.
import { paramValueError, unknownParamError } from '../paramError.js';

export const INSTRUCTIONS = ['A', 'B', 'C'] as const;
/** A: answer only; B: answer and the helpful document's ID; C: every answer the documents support. */
export type Instruction = (typeof INSTRUCTIONS)[number];

export const DATA_KINDS = ['factual', 'counterfactual', 'multi'] as const;
/** The paper's 事実 / 反事実 / 複数 data: true evidence, counterfactual evidence, or both. */
export type DataKind = (typeof DATA_KINDS)[number];

export const NORMALISATIONS = ['rgb', 'squad'] as const;
/** rgb: lowercase substring (RGB's checkanswer); squad: SQuAD's normalize_answer on both sides, then substring. */
export type Normalisation = (typeof NORMALISATIONS)[number];

/** The paper's k (§3.1): every question is shown 10 passages. */
export const DEFAULT_K = 10;
export const DEFAULT_ID_FORMAT = '[Document {n}]';
/**
 * The refusal sentence all three instructions of the seed's appendix A prescribe, without its final period so a
 * response that drops the period still counts.
 */
export const DEFAULT_REFUSAL = 'I cannot answer the question due to the insufficient information in the documents';

export interface IfRagParams {
  instruction: Instruction;
  kinds: DataKind[];
  /** Passages per question: the evidence plus irrelevant passages drawn from other rows up to k. */
  k: number;
  /** How a document is labelled for the model; `{n}` is its 1-based position. */
  idFormat: string;
  normalise: Normalisation;
  /** Sentences that mark a refusal (any one suffices), matched with the same normalisation as answers. */
  refusal: string[];
}

const KNOWN_KEYS = ['instruction', 'kinds', 'k', 'idFormat', 'normalise', 'refusal'];

type Where = { file: string };

function fail(where: Where, key: string, message: string, hint: string): never {
  throw paramValueError(where.file, 'ifrag', key, message, hint);
}

function describe(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function asObject(raw: unknown, where: Where): Record<string, unknown> {
  if (raw === undefined || raw === null) fail(where, 'instruction', 'missing', 'set params.instruction to A (answer only), B (answer and document ID) or C (all answers)');
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    fail(where, '(root)', `expected a mapping, got ${describe(raw)}`, 'e.g. params: { instruction: B }');
  }
  return raw as Record<string, unknown>;
}

function rejectUnknownKeys(raw: Record<string, unknown>, where: Where): void {
  for (const key of Object.keys(raw)) {
    if (!KNOWN_KEYS.includes(key)) throw unknownParamError(where.file, 'ifrag', [key], KNOWN_KEYS, 'unknown parameter', `IF-RAG accepts ${KNOWN_KEYS.join(', ')}`);
  }
}

function parseInstruction(value: unknown, where: Where): Instruction {
  // Scoring depends on it, so there is no default: a suite must say which instruction its template gives.
  if (value === undefined) fail(where, 'instruction', 'missing', 'set it to A, B or C (one suite entry per instruction; the 9-column table combines them)');
  const upper = typeof value === 'string' ? value.toUpperCase() : value;
  if (!INSTRUCTIONS.includes(upper as Instruction)) fail(where, 'instruction', `expected A, B or C, got ${describe(value)}`, 'A: answer only; B: answer and the helpful document ID; C: all answers');
  return upper as Instruction;
}

function parseKinds(value: unknown, where: Where): DataKind[] {
  if (value === undefined) return [...DATA_KINDS];
  if (!Array.isArray(value) || value.length === 0) fail(where, 'kinds', `expected a non-empty list, got ${describe(value)}`, `e.g. kinds: [${DATA_KINDS.join(', ')}]`);
  const seen = new Set<DataKind>();
  for (const [i, kind] of value.entries()) {
    if (!DATA_KINDS.includes(kind as DataKind)) fail(where, `kinds[${i}]`, `unknown data kind ${describe(kind)}`, `use ${DATA_KINDS.join(', ')}`);
    if (seen.has(kind as DataKind)) fail(where, 'kinds', `${kind} is listed twice`, 'list each data kind once');
    seen.add(kind as DataKind);
  }
  // The paper's column order, whatever order the file lists them in.
  return DATA_KINDS.filter((kind) => seen.has(kind));
}

function parseK(value: unknown, where: Where): number {
  if (value === undefined) return DEFAULT_K;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) fail(where, 'k', `expected a whole number of at least 1, got ${describe(value)}`, 'the paper shows 10 passages per question');
  return value;
}

function parseIdFormat(value: unknown, where: Where): string {
  if (value === undefined) return DEFAULT_ID_FORMAT;
  if (typeof value !== 'string' || value.split('{n}').length !== 2) {
    fail(where, 'idFormat', `expected a string with {n} exactly once, got ${describe(value)}`, 'e.g. idFormat: "[Document {n}]" or "Doc {n}"');
  }
  return value;
}

function parseNormalise(value: unknown, where: Where): Normalisation {
  if (value === undefined) return 'rgb';
  if (!NORMALISATIONS.includes(value as Normalisation)) {
    fail(where, 'normalise', `expected "rgb" or "squad", got ${describe(value)}`, 'rgb: lowercase substring (default); squad: also strip punctuation, articles and extra whitespace');
  }
  return value as Normalisation;
}

function parseRefusal(value: unknown, where: Where): string[] {
  if (value === undefined) return [DEFAULT_REFUSAL];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0 || !list.every((item) => typeof item === 'string' && item.trim() !== '')) {
    fail(where, 'refusal', `expected a sentence or a non-empty list of sentences, got ${describe(value)}`, `the default is the instructions' own wording: "${DEFAULT_REFUSAL}"`);
  }
  return list as string[];
}

export function parseIfRagParams(raw: unknown, where: Where): IfRagParams {
  const object = asObject(raw, where);
  rejectUnknownKeys(object, where);
  return {
    instruction: parseInstruction(object.instruction, where),
    kinds: parseKinds(object.kinds, where),
    k: parseK(object.k, where),
    idFormat: parseIdFormat(object.idFormat, where),
    normalise: parseNormalise(object.normalise, where),
    refusal: parseRefusal(object.refusal, where),
  };
}
