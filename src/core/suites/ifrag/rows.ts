// Reads one IF-RAG dataset row (question, answer aliases, evidence, optional counterfactual) or names the bad field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
import { readFields } from '../../data/rowFields.js';
import type { FieldsSpec, RowFormat } from '../../data/rowFields.js';
import type { DatasetRow } from '../../model.js';

export interface CounterfactualData {
  /** Aliases of the substituted answer; any one suffices. */
  answer: string[];
  /** Evidence written for the substituted answer. */
  passages: string[];
}

export interface IfRagRow {
  id?: string | number;
  question: string;
  /** Aliases of the true answer; any one suffices. */
  answer: string[];
  /** Evidence for the true answer. */
  passages: string[];
  counterfactual?: CounterfactualData;
  /** Set by generate-counterfactual when it could not write counterfactual data for the row. */
  counterfactualError?: string;
  /** PopQA's monthly page views, kept for slicing results by popularity. */
  popularity?: number;
}

export const ROW_FORMAT = 'an IF-RAG row has id, question, answer (a string or a list of aliases), passages: [str], '
  + 'and optionally counterfactual: {answer, passages: [str]} and popularity (see examples/ifrag/README.md)';

const FORMAT: RowFormat = { field: (name) => `IF-RAG row field "${name}"`, hint: ROW_FORMAT };

const FIELDS = {
  question: { names: ['question'], kind: 'text', required: true },
  answer: { names: ['answer'], kind: 'alternatives', required: true },
  passages: { names: ['passages'], kind: 'passages', required: true },
  counterfactualError: { names: ['counterfactualError'], kind: 'text' },
  popularity: { names: ['popularity'], kind: 'number' },
} as const satisfies FieldsSpec;

/** Counterfactual data as generate-counterfactual writes it (stress rows carry it too). */
export const COUNTERFACTUAL_FIELDS = {
  answer: { names: ['answer'], kind: 'alternatives', required: true },
  passages: { names: ['passages'], kind: 'passages', required: true },
} as const satisfies FieldsSpec;

export function readIfRagRow(row: DatasetRow): IfRagRow {
  const { question, answer, passages, counterfactualError, popularity } = readFields(row, FIELDS, FORMAT);
  const ifragRow: IfRagRow = { question, answer, passages };
  const id = rowId(row);
  if (id !== undefined) ifragRow.id = id;
  const counterfactual = row.data.counterfactual;
  if (counterfactual !== undefined && counterfactual !== null) {
    if (typeof counterfactual !== 'object' || Array.isArray(counterfactual)) {
      throw new InputError({ file: row.ref.file, line: row.ref.line }, `${FORMAT.field('counterfactual', row)}: expected a mapping {answer, passages}`, ROW_FORMAT);
    }
    ifragRow.counterfactual = readFields(row, COUNTERFACTUAL_FIELDS, FORMAT, 'counterfactual');
  }
  if (counterfactualError !== undefined) ifragRow.counterfactualError = counterfactualError;
  if (popularity !== undefined) ifragRow.popularity = popularity;
  return ifragRow;
}
