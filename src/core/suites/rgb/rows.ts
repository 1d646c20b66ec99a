// Reads one RGB dataset row into a typed record for its data kind, or throws an InputError naming the field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
import type { Testbed } from './params.js';
import type { DatasetRow } from '../../model.js';

/**
 * Answer parts, each a list of alternatives: every part must appear in the response, any one alternative of a
 * part suffices. The reference's bare-string part is a one-alternative list here (same test).
 */
export type AnswerParts = string[][];

interface RowBase {
  /** `id` from the row, or undefined when the row has none. */
  id?: string | number;
  query: string;
  answer: AnswerParts;
  negative: string[];
}

export interface PlainRow extends RowBase {
  kind: 'plain';
  positive: string[];
}

export interface IntegrationRow extends RowBase {
  kind: 'integration';
  /** One sub-list of passages per answer part. */
  positive: string[][];
}

export interface CounterfactualRow extends RowBase {
  kind: 'counterfactual';
  positive: string[];
  /** Index-aligned with `positive`: the same passage with the fake answer substituted. */
  positiveWrong: string[];
  fakeanswer: AnswerParts;
}

export type RgbRow = PlainRow | IntegrationRow | CounterfactualRow;
export type DataKind = RgbRow['kind'];

/** Which file kind a testbed reads (reference: `*_int` and `*_fact` files, plain otherwise). */
export function dataKindFor(testbed: Testbed): DataKind {
  if (testbed === 'information_integration') return 'integration';
  if (testbed === 'counterfactual_robustness') return 'counterfactual';
  return 'plain';
}

const FORMATS: Record<DataKind, string> = {
  plain: 'a plain RGB row has id, query, answer, positive: [str], negative: [str]',
  integration: 'an integration row (*_int) has id, query, answer, positive: [[str]] (one list per answer part), negative: [str]',
  counterfactual: 'a counterfactual row (*_fact) has id, query, answer, fakeanswer, positive: [str], positive_wrong: [str] (index-aligned), negative: [str]',
};

class RowReader {
  constructor(private readonly row: DatasetRow, private readonly kind: DataKind) {}

  fail(field: string, message: string): never {
    throw new InputError({ file: this.row.ref.file, line: this.row.ref.line }, `RGB row field "${field}": ${message}`, FORMATS[this.kind]);
  }

  present(field: string): unknown {
    const value = this.row.data[field];
    if (value === undefined || value === null) this.fail(field, 'missing');
    return value;
  }

  string(field: string): string {
    const value = this.present(field);
    if (typeof value !== 'string') this.fail(field, `expected a string, got ${typeof value}`);
    return value;
  }

  strings(field: string): string[] {
    const value = this.present(field);
    if (!Array.isArray(value)) this.fail(field, `expected a list of strings, got ${typeof value}`);
    value.forEach((item, i) => {
      if (typeof item !== 'string') this.fail(`${field}[${i}]`, `expected a string, got ${typeof item}`);
    });
    return value as string[];
  }

  stringLists(field: string): string[][] {
    const value = this.present(field);
    if (!Array.isArray(value) || value.length === 0) this.fail(field, 'expected a non-empty list of passage lists');
    return value.map((group, i) => {
      if (!Array.isArray(group)) this.fail(`${field}[${i}]`, `expected a list of passages, got ${typeof group}`);
      // The reference takes group[0] unconditionally; an empty group would crash it.
      if (group.length === 0) this.fail(`${field}[${i}]`, 'empty passage list');
      return group.map((item, j) => {
        if (typeof item !== 'string') this.fail(`${field}[${i}][${j}]`, `expected a string, got ${typeof item}`);
        return item as string;
      });
    });
  }

  /** answer / fakeanswer: a string, or a list whose items are strings (a part) or lists of strings (alternatives). */
  answerParts(field: string): AnswerParts {
    const value = this.present(field);
    if (typeof value === 'string') return [[value]];
    if (!Array.isArray(value) || value.length === 0) this.fail(field, 'expected a string or a non-empty list of answer parts');
    return value.map((part, i) => {
      if (typeof part === 'string') return [part];
      if (Array.isArray(part) && part.length > 0 && part.every((alt) => typeof alt === 'string')) return part as string[];
      return this.fail(`${field}[${i}]`, 'expected a string or a non-empty list of alternative strings');
    });
  }
}

/** Validate a dataset row for the testbed's data kind. */
export function readRgbRow(row: DatasetRow, kind: DataKind): RgbRow {
  const reader = new RowReader(row, kind);
  const base: RowBase = {
    id: rowId(row),
    query: reader.string('query'),
    answer: reader.answerParts('answer'),
    negative: reader.strings('negative'),
  };
  if (kind === 'plain') return { ...base, kind, positive: reader.strings('positive') };
  if (kind === 'integration') return { ...base, kind, positive: reader.stringLists('positive') };
  const positive = reader.strings('positive');
  const positiveWrong = reader.strings('positive_wrong');
  if (positiveWrong.length !== positive.length) {
    reader.fail('positive_wrong', `has ${positiveWrong.length} passages but positive has ${positive.length}; they must be index-aligned`);
  }
  return { ...base, kind, positive, positiveWrong, fakeanswer: reader.answerParts('fakeanswer') };
}
