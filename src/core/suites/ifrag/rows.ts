// Reads one IF-RAG dataset row (question, answer aliases, evidence, optional counterfactual) or names the bad field.
import { InputError } from '../../errors.js';
import { rowId } from '../../data/rowIds.js';
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

class RowReader {
  constructor(private readonly row: DatasetRow) {}

  fail(field: string, message: string): never {
    throw new InputError({ file: this.row.ref.file, line: this.row.ref.line }, `IF-RAG row field "${field}": ${message}`, ROW_FORMAT);
  }

  string(value: unknown, field: string): string {
    if (typeof value !== 'string' || value.trim() === '') this.fail(field, value === undefined ? 'missing' : 'expected a non-empty string');
    return value;
  }

  aliases(value: unknown, field: string): string[] {
    if (typeof value === 'string') return [this.string(value, field)];
    if (!Array.isArray(value) || value.length === 0) this.fail(field, value === undefined ? 'missing' : 'expected a string or a non-empty list of alias strings');
    return value.map((alias, i) => this.string(alias, `${field}[${i}]`));
  }

  passages(value: unknown, field: string): string[] {
    if (!Array.isArray(value) || value.length === 0) this.fail(field, value === undefined ? 'missing' : 'expected a non-empty list of passages');
    return value.map((passage, i) => this.string(passage, `${field}[${i}]`));
  }

  counterfactual(): CounterfactualData | undefined {
    const value = this.row.data.counterfactual;
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'object' || Array.isArray(value)) this.fail('counterfactual', 'expected a mapping {answer, passages}');
    const data = value as Record<string, unknown>;
    return { answer: this.aliases(data.answer, 'counterfactual.answer'), passages: this.passages(data.passages, 'counterfactual.passages') };
  }

  optionalString(field: string): string | undefined {
    const value = this.row.data[field];
    if (value === undefined || value === null) return undefined;
    return this.string(value, field);
  }

  popularity(): number | undefined {
    const value = this.row.data.popularity;
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) this.fail('popularity', `expected a number, got ${JSON.stringify(value)}`);
    return value;
  }
}

export function readIfRagRow(row: DatasetRow): IfRagRow {
  const reader = new RowReader(row);
  const ifragRow: IfRagRow = {
    question: reader.string(row.data.question, 'question'),
    answer: reader.aliases(row.data.answer, 'answer'),
    passages: reader.passages(row.data.passages, 'passages'),
  };
  const id = rowId(row);
  if (id !== undefined) ifragRow.id = id;
  const counterfactual = reader.counterfactual();
  if (counterfactual) ifragRow.counterfactual = counterfactual;
  const counterfactualError = reader.optionalString('counterfactualError');
  if (counterfactualError !== undefined) ifragRow.counterfactualError = counterfactualError;
  const popularity = reader.popularity();
  if (popularity !== undefined) ifragRow.popularity = popularity;
  return ifragRow;
}
