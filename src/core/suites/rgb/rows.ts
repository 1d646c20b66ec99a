// Reads one RGB dataset row into a typed record for its data kind, or throws an InputError naming the field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
import { readFields } from '../../data/rowFields.js';
import type { FieldsSpec, RowFormat } from '../../data/rowFields.js';
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

const base = {
  query: { names: ['query'], kind: 'string', required: true },
  answer: { names: ['answer'], kind: 'answerParts', required: true },
  negative: { names: ['negative'], kind: 'strings', required: true },
} as const;

/** The fields of each data kind, under the reference's own names. */
const SPECS = {
  plain: { ...base, positive: { names: ['positive'], kind: 'strings', required: true } },
  integration: { ...base, positive: { names: ['positive'], kind: 'passageGroups', required: true } },
  counterfactual: {
    ...base,
    positive: { names: ['positive'], kind: 'strings', required: true },
    positive_wrong: { names: ['positive_wrong'], kind: 'strings', required: true },
    fakeanswer: { names: ['fakeanswer'], kind: 'answerParts', required: true },
  },
} as const satisfies Record<DataKind, FieldsSpec>;

const formatOf = (kind: DataKind): RowFormat => ({ field: (name) => `RGB row field "${name}"`, hint: FORMATS[kind] });

/** Validate a dataset row for the testbed's data kind. */
export function readRgbRow(row: DatasetRow, kind: DataKind): RgbRow {
  const format = formatOf(kind);
  const id = rowId(row);
  if (kind === 'plain') {
    const { query, answer, negative, positive } = readFields(row, SPECS.plain, format);
    return { id, query, answer, negative, kind, positive };
  }
  if (kind === 'integration') {
    const { query, answer, negative, positive } = readFields(row, SPECS.integration, format);
    return { id, query, answer, negative, kind, positive };
  }
  const { query, answer, negative, positive, positive_wrong: positiveWrong, fakeanswer } = readFields(row, SPECS.counterfactual, format);
  if (positiveWrong.length !== positive.length) {
    throw new InputError({ file: row.ref.file, line: row.ref.line }, `RGB row field "positive_wrong": has ${positiveWrong.length} passages but positive has ${positive.length}; they must be index-aligned`, FORMATS[kind]);
  }
  return { id, query, answer, negative, kind, positive, positiveWrong, fakeanswer };
}
