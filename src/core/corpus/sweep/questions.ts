// The questions a sweep measures: the rows of a suite whose method reads retrieval questions (its `retrievalQuestions`
// hook: the rag method) with their relevance labels — spans of the source files first (they survive a change of
// chunking), else ids — read by the method itself, so a bad row is a message at its file:line and the good rows count.
import { InputError } from '../../errors.js';
import { readDataset } from '../../data/readDataset.js';
import { rowKey } from '../../data/rowIds.js';
import type { RowRef } from '../../model.js';
import type { RowLabels } from '../../retrieval/qrels.js';
import type { EvalSpec, SuiteSpec } from '../../spec/types.js';
import { retrievalQuestionMethods, suiteFor } from '../../suites/registry.js';
import { droppedInReview, readAppliedReview, reviewNote } from '../questions/appliedReview.js';

export interface SweepQuestion {
  /** The row's key (its id, else its position). */
  id: string;
  question: string;
  labels: RowLabels;
  row: RowRef;
}

export interface SweepQuestions {
  suite: SuiteSpec;
  /** The suite's own cut-off: the sweep's current k. */
  k: number;
  questions: SweepQuestion[];
  /** Rows that could not be read (each at its file:line): left out, the others still measured. */
  problems: InputError[];
  /** Rows without any relevance label: nothing can be measured on them. */
  unlabelled: number;
  /** How many questions a person dropped in review were left out (the same rule as a run's), when any were. */
  reviewNote?: string;
}

/** The suites whose method reads retrieval questions (the `retrievalQuestions` hook). */
const measurable = (suite: SuiteSpec) => suiteFor(suite.method)?.retrievalQuestions !== undefined;

/** The suite a sweep measures: the one named, else the file's first whose method reads retrieval questions. */
export function sweepSuite(spec: Pick<EvalSpec, 'file' | 'suites'>, suiteId?: string): SuiteSpec {
  const measured = spec.suites.filter(measurable);
  const suite = suiteId === undefined ? measured[0] : measured.find((s) => s.id === suiteId);
  if (suite) return suite;
  const methods = retrievalQuestionMethods().join(' or ');
  const hint = measured.length > 0
    ? `the suites a sweep can measure are ${measured.map((s) => s.id).join(', ')}`
    : `add a suite with method: ${methods} and a dataset of questions with relevant_spans or relevant_ids`;
  throw new InputError({ file: spec.file }, suiteId === undefined ? `a sweep measures the questions of a suite with method: ${methods}, and this file has none` : `no suite "${suiteId}" with method: ${methods}`, hint);
}

/** Reads the suite's rows (at most `suite.limit` labelled ones); labels: relevant_spans first, else ids or grades. */
export async function readSweepQuestions(spec: Pick<EvalSpec, 'file' | 'suites' | 'judge'>, suiteId: string | undefined, signal: AbortSignal): Promise<SweepQuestions> {
  const suite = sweepSuite(spec, suiteId);
  const method = suiteFor(suite.method)!;
  const reader = method.retrievalQuestions!;
  const params = method.parseParams(suite.params, { file: spec.file, judge: spec.judge !== undefined });
  if (!suite.dataset) throw new InputError({ file: spec.file }, `suite "${suite.id}" names no dataset`, 'give the suite (or the file) dataset: questions.jsonl');
  const questions: SweepQuestion[] = [];
  const problems: InputError[] = [];
  let unlabelled = 0;
  const review = method.reviewedQuestion ? await readAppliedReview(suite.dataset) : undefined;
  for await (const item of readDataset(suite.dataset, { signal })) {
    if (!item.ok) {
      problems.push(item.error);
      continue;
    }
    problems.push(...(item.problems ?? []));
    try {
      const { question, labels } = reader.read(item.row, params);
      if (review && droppedInReview(review, rowKey(item.row), method.reviewedQuestion!(item.row, params), item.row.ref.line)) continue;
      if (!labels) {
        unlabelled++;
        continue;
      }
      questions.push({ id: rowKey(item.row), question, labels, row: item.row.ref });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error);
    }
    if (suite.limit !== undefined && questions.length >= suite.limit) break;
  }
  const note = reviewNote(review, 'this sweep');
  return { suite, k: reader.k(params), questions, problems, unlabelled, ...(note ? { reviewNote: note } : {}) };
}
