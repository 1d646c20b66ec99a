// Reads a rag row: the question, the reference answer (for score: match and the answer-match labels) and the
// relevance labels, with messages naming the column and the row's file:line.
import { InputError } from '../../errors.js';
import type { DatasetRow } from '../../model.js';
import { qrelsOfRow, spansOfRow } from '../../retrieval/qrels.js';
import type { RowLabels, RowQrels, RowSpans } from '../../retrieval/qrels.js';
import type { AnswerParts } from '../rgb/rows.js';
import type { RagParams } from './params.js';

export interface RagRow {
  question: string;
  /** RGB's answer form: one part, its alternatives; undefined when the row has no answer column. */
  answer?: AnswerParts;
  /** relevant_ids or graded relevance: what the rag method labels with first. */
  labels?: RowQrels;
  /** relevant_spans: what labels the passages when the row names no ids (and first in a sweep, across chunkings). */
  spans?: RowSpans;
}

/** The labels a run uses: ids when the row names them (they name exactly the retriever's documents), else spans. */
export function runLabels(row: RagRow): RowLabels | undefined {
  return row.labels ?? row.spans;
}

function fail(row: DatasetRow, message: string, hint: string): never {
  throw new InputError({ file: row.ref.file, line: row.ref.line }, `rag row: ${message}`, hint);
}

export function readRagRow(row: DatasetRow, params: RagParams): RagRow {
  const question = row.data[params.questionColumn] ?? row.data.user_input;
  if (typeof question !== 'string' || question.trim() === '') {
    fail(row, `no question in column "${params.questionColumn}"`, `give each row ${params.questionColumn}: "…" (or set params.questionColumn to your column's name); columns present: ${Object.keys(row.data).join(', ') || 'none'}`);
  }
  const rawAnswer = row.data[params.answerColumn];
  let answer: AnswerParts | undefined;
  if (rawAnswer !== undefined && rawAnswer !== null) {
    const alternatives = typeof rawAnswer === 'string' ? [rawAnswer] : rawAnswer;
    if (!Array.isArray(alternatives) || alternatives.length === 0 || alternatives.some((a) => typeof a !== 'string' || a.trim() === '')) {
      fail(row, `"${params.answerColumn}": expected a non-empty string or a list of alternative strings`, `e.g. ${params.answerColumn}: ["8 minutes", "eight minutes"]`);
    }
    answer = [alternatives as string[]];
  }
  if (!answer && params.score === 'match') fail(row, `score: match needs the reference answer in column "${params.answerColumn}"`, `add ${params.answerColumn}: "…" to the row, set params.answerColumn, or use score: judge`);
  const labels = qrelsOfRow(row.data, { relevantIds: params.relevantIdsColumn, graded: params.gradedColumn });
  if (typeof labels === 'string') fail(row, labels, `or leave the column out: the answer match then labels the passages`);
  const spans = spansOfRow(row.data, params.spansColumn);
  if (typeof spans === 'string') fail(row, spans, `offsets are characters into the file's text, end exclusive; or leave the column out`);
  return { question, ...(answer ? { answer } : {}), ...(labels ? { labels } : {}), ...(spans ? { spans } : {}) };
}
