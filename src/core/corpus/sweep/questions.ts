// The questions a sweep measures: the rows of the eval file's rag suite with their relevance labels — spans of the
// source files first (they survive a change of chunking), else ids — read with the method's own row reader, so a bad
// row is a message at its file:line and the good rows still count.
import { InputError } from '../../errors.js';
import { readDataset } from '../../data/readDataset.js';
import { rowKey } from '../../data/rowIds.js';
import type { RowRef } from '../../model.js';
import type { RowLabels } from '../../retrieval/qrels.js';
import type { EvalSpec, SuiteSpec } from '../../spec/types.js';
import { parseRagParams, RAG_METHOD } from '../../suites/rag/params.js';
import type { RagParams } from '../../suites/rag/params.js';
import { readRagRow } from '../../suites/rag/rows.js';

export interface SweepQuestion {
  /** The row's key (its id, else its position). */
  id: string;
  question: string;
  labels: RowLabels;
  row: RowRef;
}

export interface SweepQuestions {
  suite: SuiteSpec;
  params: RagParams;
  questions: SweepQuestion[];
  /** Rows that could not be read (each at its file:line): left out, the others still measured. */
  problems: InputError[];
  /** Rows without any relevance label: nothing can be measured on them. */
  unlabelled: number;
}

/** The rag suite a sweep measures: the one named, else the file's first. */
export function sweepSuite(spec: Pick<EvalSpec, 'file' | 'suites'>, suiteId?: string): SuiteSpec {
  const rag = spec.suites.filter((suite) => suite.method === RAG_METHOD);
  const suite = suiteId === undefined ? rag[0] : rag.find((s) => s.id === suiteId);
  if (suite) return suite;
  const hint = rag.length > 0
    ? `the rag suites are ${rag.map((s) => s.id).join(', ')}`
    : `add a suite with method: ${RAG_METHOD} and a dataset of questions with relevant_spans or relevant_ids`;
  throw new InputError({ file: spec.file }, suiteId === undefined ? 'a sweep measures the questions of a rag suite, and this file has none' : `no rag suite "${suiteId}"`, hint);
}

/** Reads the suite's rows (at most `suite.limit` labelled ones); labels: relevant_spans first, else ids or grades. */
export async function readSweepQuestions(spec: Pick<EvalSpec, 'file' | 'suites' | 'judge'>, suiteId: string | undefined, signal: AbortSignal): Promise<SweepQuestions> {
  const suite = sweepSuite(spec, suiteId);
  const params = parseRagParams(suite.params, { file: spec.file, judge: spec.judge !== undefined });
  if (!suite.dataset) throw new InputError({ file: spec.file }, `suite "${suite.id}" names no dataset`, 'give the suite (or the file) dataset: questions.jsonl');
  const questions: SweepQuestion[] = [];
  const problems: InputError[] = [];
  let unlabelled = 0;
  for await (const item of readDataset(suite.dataset, { signal })) {
    if (!item.ok) {
      problems.push(item.error);
      continue;
    }
    problems.push(...(item.problems ?? []));
    try {
      const row = readRagRow(item.row, params);
      const labels = row.spans ?? row.labels;
      if (!labels) {
        unlabelled++;
        continue;
      }
      questions.push({ id: rowKey(item.row), question: row.question, labels, row: item.row.ref });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      problems.push(error);
    }
    if (suite.limit !== undefined && questions.length >= suite.limit) break;
  }
  return { suite, params, questions, problems, unlabelled };
}
