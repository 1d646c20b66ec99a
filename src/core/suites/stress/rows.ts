// Reads a user's own RAG row (RAGAS column names) into question, passages, reference answer parts and an optional
// fake answer, or throws an InputError at the row's file:line naming the accepted column names.
import { InputError } from '../../errors.js';
import { rowId, rowKey } from '../../data/rowIds.js';
import { aliasedField, readFields } from '../../data/rowFields.js';
import type { FieldsSpec, RowFormat } from '../../data/rowFields.js';
import type { DatasetRow } from '../../model.js';
import type { AnswerParts } from '../rgb/rows.js';
import { COUNTERFACTUAL_FIELDS } from '../ifrag/rows.js';

/** Accepted names per column, first match wins: RAGAS's current names, then its older ones; names that disagree are refused. */
export const COLUMNS = {
  question: ['user_input', 'question'],
  contexts: ['retrieved_contexts', 'contexts'],
  reference: ['reference', 'ground_truth', 'ground_truths'],
  fakeAnswer: ['fake_answer', 'fakeanswer'],
} as const;

export const ROW_FORMAT = 'a stress row has user_input (or question), retrieved_contexts (or contexts): [str], reference (or ground_truth: '
  + 'a string, or a list of alternatives), and optionally answer_parts (RGB\'s form, for answers in several parts), answer_bearing '
  + '(indexes of the passages that bear a paraphrased answer), fake_answer, '
  + 'counterfactual: {answer, passages} (from generate-counterfactual) and id; response/answer columns are not used';

/** Generated counterfactual data as the IF-RAG generator writes it: passages aligned with the answer-bearing ones. */
export interface GivenCounterfactual {
  answer: string[];
  passages: string[];
  generatedBy?: unknown;
}

export interface StressRow {
  id?: string | number;
  question: string;
  contexts: string[];
  /** RGB's answer parts: every part must appear, any alternative of a part suffices. */
  answer: AnswerParts;
  /** Which column the answer came from, for messages. */
  answerColumn: string;
  fakeAnswer?: AnswerParts;
  counterfactual?: GivenCounterfactual;
  /** 0-based indexes into contexts marked answer-bearing by the user, for answers the passages paraphrase. */
  answerBearing?: number[];
}

const FORMAT: RowFormat = { field: (name) => `stress row "${name}"`, hint: ROW_FORMAT };

const FIELDS = {
  question: { names: COLUMNS.question, kind: 'text', required: true },
  contexts: { names: COLUMNS.contexts, kind: 'passages', required: true },
  answerParts: { names: ['answer_parts'], kind: 'answerParts' },
} as const satisfies FieldsSpec;

function fail(row: DatasetRow, field: string, message: string): never {
  throw new InputError({ file: row.ref.file, line: row.ref.line }, `${FORMAT.field(field, row)}: ${message}`, ROW_FORMAT);
}

/** answer_parts (RGB's form) when the row has it, else the reference as one part of alternatives. */
function answerOf(row: DatasetRow, answerParts: AnswerParts | undefined): { answer: AnswerParts; answerColumn: string } {
  if (answerParts) return { answer: answerParts, answerColumn: 'answer_parts' };
  const { reference } = readFields(row, { reference: { names: COLUMNS.reference, kind: 'alternatives', required: true } }, FORMAT);
  return { answer: [reference], answerColumn: aliasedField(row, COLUMNS.reference)!.name };
}

/** One fake per answer part, in the same shape as the answer, so each part has its substitute. */
function fakeAnswerOf(row: DatasetRow, answer: AnswerParts): AnswerParts | undefined {
  const spec = { fake: { names: COLUMNS.fakeAnswer, kind: answer.length === 1 ? 'alternatives' : 'answerParts' } } as const satisfies FieldsSpec;
  const { fake } = readFields(row, spec, FORMAT);
  if (fake === undefined) return undefined;
  const parts = answer.length === 1 ? [fake as string[]] : (fake as AnswerParts);
  if (parts.length !== answer.length) fail(row, aliasedField(row, COLUMNS.fakeAnswer)!.name, `has ${parts.length} parts but the answer has ${answer.length}; give one fake per answer part`);
  return parts;
}

function counterfactualOf(row: DatasetRow): GivenCounterfactual | undefined {
  const value = row.data.counterfactual;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) fail(row, 'counterfactual', 'expected a mapping {answer, passages}');
  const { generatedBy } = value as Record<string, unknown>;
  return { ...readFields(row, COUNTERFACTUAL_FIELDS, FORMAT, 'counterfactual'), ...(generatedBy !== undefined ? { generatedBy } : {}) };
}

/** 0-based indexes of passages the user marks answer-bearing, each once, in order. */
function answerBearingOf(row: DatasetRow, contexts: number): number[] | undefined {
  const value = row.data.answer_bearing;
  if (value === undefined || value === null) return undefined;
  const ok = Array.isArray(value) && value.length > 0 && value.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < contexts);
  if (!ok) fail(row, 'answer_bearing', `expected a non-empty list of passage indexes from 0 to ${contexts - 1}, got ${JSON.stringify(value)}`);
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

export function readStressRow(row: DatasetRow): StressRow {
  const fields = readFields(row, FIELDS, FORMAT);
  const { answer, answerColumn } = answerOf(row, fields.answerParts);
  const stressRow: StressRow = { question: fields.question, contexts: fields.contexts, answer, answerColumn };
  const id = rowId(row);
  if (id !== undefined) stressRow.id = id;
  const fakeAnswer = fakeAnswerOf(row, answer);
  if (fakeAnswer) stressRow.fakeAnswer = fakeAnswer;
  const counterfactual = counterfactualOf(row);
  if (counterfactual) stressRow.counterfactual = counterfactual;
  const marked = answerBearingOf(row, stressRow.contexts.length);
  if (marked) stressRow.answerBearing = marked;
  return stressRow;
}

/**
 * The key a row's cases and seeds are named by: its id, else its 0-based index, unique in the file (`rowKey`, which
 * reads the id from the row itself; the parsed row is not needed).
 */
export function stressRowKey(row: DatasetRow, _stressRow?: StressRow): string {
  return rowKey(row);
}
