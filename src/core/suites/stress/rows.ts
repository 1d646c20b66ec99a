// Reads a user's own RAG row (RAGAS column names) into question, passages, reference answer parts and an optional
// fake answer, or throws an InputError at the row's file:line naming the accepted column names.
import { InputError } from '../../errors.js';
import { rowId, rowKey } from '../../data/rowIds.js';
import { aliasedField } from '../../data/rowFields.js';
import type { DatasetRow } from '../../model.js';
import type { AnswerParts } from '../rgb/rows.js';

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

class RowReader {
  constructor(private readonly row: DatasetRow) {}

  fail(field: string, message: string): never {
    throw new InputError({ file: this.row.ref.file, line: this.row.ref.line }, `stress row ${field}: ${message}`, ROW_FORMAT);
  }

  /** The first accepted name present in the row, with its value; two names with different values are refused (data/rowFields.ts). */
  column(names: readonly string[]): { name: string; value: unknown } | undefined {
    return aliasedField(this.row, names);
  }

  required(names: readonly string[], what: string): { name: string; value: unknown } {
    const found = this.column(names);
    if (!found) this.fail(`has no ${what} column`, `expected one of ${names.join(', ')} (columns present: ${Object.keys(this.row.data).join(', ') || 'none'})`);
    return found;
  }

  text(value: unknown, field: string): string {
    if (typeof value !== 'string' || value.trim() === '') this.fail(`"${field}"`, 'expected a non-empty string');
    return value;
  }

  /** A string (one alternative) or a non-empty list of strings (alternatives of one part). */
  alternatives(value: unknown, field: string): string[] {
    if (typeof value === 'string') return [this.text(value, field)];
    if (!Array.isArray(value) || value.length === 0) this.fail(`"${field}"`, 'expected a string or a non-empty list of alternative strings');
    return value.map((item, i) => this.text(item, `${field}[${i}]`));
  }

  /** RGB's answer form: a string, or a list of parts, each a string or a list of alternatives. */
  parts(value: unknown, field: string): AnswerParts {
    if (typeof value === 'string') return [[this.text(value, field)]];
    if (!Array.isArray(value) || value.length === 0) this.fail(`"${field}"`, 'expected a string or a non-empty list of answer parts');
    return value.map((part, i) => this.alternatives(part, `${field}[${i}]`));
  }

  contexts(): string[] {
    const { name, value } = this.required(COLUMNS.contexts, 'retrieved passages');
    if (!Array.isArray(value) || value.length === 0) this.fail(`"${name}"`, 'expected a non-empty list of passages');
    return value.map((passage, i) => this.text(passage, `${name}[${i}]`));
  }

  answer(): { answer: AnswerParts; answerColumn: string } {
    const parts = this.column(['answer_parts']);
    if (parts) return { answer: this.parts(parts.value, 'answer_parts'), answerColumn: 'answer_parts' };
    const { name, value } = this.required(COLUMNS.reference, 'reference answer');
    return { answer: [this.alternatives(value, name)], answerColumn: name };
  }

  fakeAnswer(answer: AnswerParts): AnswerParts | undefined {
    const found = this.column(COLUMNS.fakeAnswer);
    if (!found) return undefined;
    // One fake per answer part, in the same shape as the answer, so each part has its substitute.
    const fake = answer.length === 1 ? [this.alternatives(found.value, found.name)] : this.parts(found.value, found.name);
    if (fake.length !== answer.length) this.fail(`"${found.name}"`, `has ${fake.length} parts but the answer has ${answer.length}; give one fake per answer part`);
    return fake;
  }

  counterfactual(): GivenCounterfactual | undefined {
    const value = this.row.data.counterfactual;
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) this.fail('"counterfactual"', 'expected a mapping {answer, passages}');
    const data = value as Record<string, unknown>;
    const passages = data.passages;
    if (!Array.isArray(passages) || passages.length === 0) this.fail('"counterfactual.passages"', 'expected a non-empty list of passages');
    return {
      answer: this.alternatives(data.answer, 'counterfactual.answer'),
      passages: passages.map((p, i) => this.text(p, `counterfactual.passages[${i}]`)),
      ...(data.generatedBy !== undefined ? { generatedBy: data.generatedBy } : {}),
    };
  }

  answerBearing(contexts: number): number[] | undefined {
    const value = this.row.data.answer_bearing;
    if (value === undefined || value === null) return undefined;
    const ok = Array.isArray(value) && value.length > 0 && value.every((i) => Number.isInteger(i) && (i as number) >= 0 && (i as number) < contexts);
    if (!ok) this.fail('"answer_bearing"', `expected a non-empty list of passage indexes from 0 to ${contexts - 1}, got ${JSON.stringify(value)}`);
    return [...new Set(value as number[])].sort((a, b) => a - b);
  }
}

export function readStressRow(row: DatasetRow): StressRow {
  const reader = new RowReader(row);
  const question = reader.required(COLUMNS.question, 'question');
  const { answer, answerColumn } = reader.answer();
  const stressRow: StressRow = { question: reader.text(question.value, question.name), contexts: reader.contexts(), answer, answerColumn };
  const id = rowId(row);
  if (id !== undefined) stressRow.id = id;
  const fakeAnswer = reader.fakeAnswer(answer);
  if (fakeAnswer) stressRow.fakeAnswer = fakeAnswer;
  const counterfactual = reader.counterfactual();
  if (counterfactual) stressRow.counterfactual = counterfactual;
  const marked = reader.answerBearing(stressRow.contexts.length);
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
