// IF-RAG suite parameters: instruction, data kinds, passages per question, ID format, normalisation, refusal wording.
import { asList, choice, items, list, mapping, paramsReader, phrases, readParams, requiredChoice, text, whole } from '../paramSchema.js';
import type { ParamsOf } from '../paramSchema.js';

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

const refusalHint = `the default is the instructions' own wording: "${DEFAULT_REFUSAL}"`;

const shape = {
  // Scoring depends on it, so there is no default: a suite must say which instruction its template gives.
  instruction: requiredChoice(['A', 'B', 'C', 'a', 'b', 'c'], {
    description: 'A: answer only; B: answer and the helpful document\'s ID; C: every answer the documents support. One suite entry per instruction (the 9-column table combines them).',
    expected: 'A, B or C',
    hint: 'A: answer only; B: answer and the helpful document ID; C: all answers',
    missing: 'set it to A, B or C (one suite entry per instruction; the 9-column table combines them)',
  }),
  kinds: list(items.choice(DATA_KINDS, { noun: 'data kind', hint: `use ${DATA_KINDS.join(', ')}` }), {
    description: 'The data kinds: factual, counterfactual (evidence with a changed answer) and multi (both); all three by default, shown in the paper\'s column order.',
    example: `e.g. kinds: [${DATA_KINDS.join(', ')}]`,
    distinct: 'list each data kind once',
  }),
  k: whole({ min: 1, default: DEFAULT_K, hint: 'the paper shows 10 passages per question', description: 'Passages per question: the evidence plus irrelevant passages drawn from other rows up to k.' }),
  idFormat: text({ default: DEFAULT_ID_FORMAT, hint: 'e.g. idFormat: "[Document {n}]" or "Doc {n}"', description: 'How a document is labelled for the model; {n} (exactly once) is its 1-based position.' }),
  normalise: choice(NORMALISATIONS, { default: 'rgb', expected: '"rgb" or "squad"', hint: 'rgb: lowercase substring (default); squad: also strip punctuation, articles and extra whitespace', description: 'rgb: lowercase substring (RGB\'s checkanswer); squad: SQuAD\'s normalize_answer on both sides, then substring.' }),
  refusal: phrases({ default: [DEFAULT_REFUSAL], noun: 'sentence', hint: refusalHint, description: 'Sentences that mark a refusal (any one suffices), matched with the same normalisation as answers; the instructions\' own wording by default.' }),
};

/** IF-RAG's params as the eval file writes them. */
export const ifragParamsSchema = mapping(shape, { example: 'params: { instruction: B }', hint: `IF-RAG accepts ${Object.keys(shape).join(', ')}` });

export type IfRagParams = Omit<ParamsOf<typeof ifragParamsSchema>, 'instruction' | 'kinds' | 'refusal'> & {
  instruction: Instruction;
  kinds: DataKind[];
  refusal: string[];
};

export function parseIfRagParams(raw: unknown, where: { file: string }): IfRagParams {
  const read = readParams(ifragParamsSchema, raw, where.file, 'ifrag');
  if (read.idFormat.split('{n}').length !== 2) {
    paramsReader(where.file, 'ifrag').fail('idFormat', `expected a string with {n} exactly once, got ${JSON.stringify(read.idFormat)}`, 'e.g. idFormat: "[Document {n}]" or "Doc {n}"');
  }
  const kinds = read.kinds ?? DATA_KINDS;
  return {
    ...read,
    instruction: read.instruction.toUpperCase() as Instruction,
    // The paper's column order, whatever order the file lists them in.
    kinds: DATA_KINDS.filter((kind) => kinds.includes(kind)),
    refusal: asList(read.refusal),
  };
}
