// Builders for IF-RAG test data: rows, a passage pool, built cases and results, so tests read as examples.
import type { DatasetRow, EvalCase, Score } from '../../../src/core/model.js';
import { expandIfRagRow } from '../../../src/core/suites/ifrag/cases.js';
import type { IfRagParams } from '../../../src/core/suites/ifrag/params.js';
import { poolFromRows } from '../../../src/core/suites/ifrag/pool.js';
import type { PassagePool } from '../../../src/core/suites/ifrag/pool.js';
import { ifragSuite } from '../../../src/core/suites/ifrag/suite.js';
import { noSignal } from '../suites/builders.js';

export { find, noSignal, result } from '../suites/builders.js';

export const RUN_SEED = 2333;

export function params(raw: Record<string, unknown>): IfRagParams {
  return ifragSuite.parseParams(raw, { file: 'test.eval.yaml' });
}

export function datasetRow(data: Record<string, unknown>, index: number, file = 'test.jsonl'): DatasetRow {
  return { ref: { file, line: index + 1, index }, data };
}

/** Filler rows about unrelated topics, `passages` each, whose text never mentions a test answer. */
export function fillerRows(count: number, passages = 3, from = 100): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `filler-${from + i}`,
    question: `What is filler topic ${from + i}?`,
    answer: `filler answer ${from + i}`,
    passages: Array.from({ length: passages }, (_, j) => `Filler passage ${j} of topic ${from + i} talks about nothing in particular.`),
  }));
}

/** A dataset: the rows under test first, then the fillers; rows get their index in that order. */
export function dataset(rows: Record<string, unknown>[], fillers = fillerRows(6)): { rows: DatasetRow[]; pool: PassagePool } {
  const all = [...rows, ...fillers].map((data, index) => datasetRow(data, index));
  return { rows: all, pool: poolFromRows(all.map((row) => ({ index: row.ref.index, data: row.data }))) };
}

export function build(row: DatasetRow, pool: PassagePool, raw: Record<string, unknown>, options: { suiteId?: string; seed?: number } = {}): EvalCase[] {
  return expandIfRagRow(row, params(raw), { suiteId: options.suiteId ?? 'ifrag-test', seed: options.seed ?? RUN_SEED, models: [] }, pool);
}

export async function score(evalCase: EvalCase, response: string, raw: Record<string, unknown>): Promise<Score[]> {
  return ifragSuite.score(evalCase, response, params(raw), { signal: noSignal });
}

/** The worked examples' rows: Tokyo (counterfactual Kyoto) and a city with two answers, Paris and Lyon. */
export const TOKYO_ROW = {
  id: 'tokyo',
  question: 'What is the capital of Japan?',
  answer: 'Tokyo',
  passages: ['Tokyo is the capital of Japan.'],
  counterfactual: { answer: 'Kyoto', passages: ['Kyoto is the capital of Japan.'] },
};

export const PARIS_ROW = {
  id: 'paris',
  question: 'Which French city hosts the headquarters?',
  answer: 'Paris',
  passages: ['The headquarters are in Paris.'],
  counterfactual: { answer: 'Lyon', passages: ['The headquarters are in Lyon.'] },
};
