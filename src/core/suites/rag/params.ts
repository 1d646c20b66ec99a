// Parameters of the rag method: how many candidates to ask the retriever for, how many to send, the scorer, the
// relevance label columns and the cut-offs of the retrieval metrics. Every key is checked, with a message naming it.
import { paramValueError, unknownParamError } from '../paramError.js';
import type { ParamsWhere } from '../contract.js';

import { RAG_METHOD } from './view.js';

export { RAG_METHOD };
export const RAG_SCORERS = ['match', 'judge'] as const;
export type RagScorer = (typeof RAG_SCORERS)[number];

export interface RagParams {
  /** Passages asked of the retriever per question (the ranked list the metrics and causes read). */
  candidates: number;
  /** The cut-off: the first k candidates are sent to the model. */
  k: number;
  /** match: RGB's answer match on the answer column; judge: prompts/rag/judge.prompt through the eval file's judge. */
  score: RagScorer;
  /** Column names of the row. */
  questionColumn: string;
  answerColumn: string;
  relevantIdsColumn: string;
  gradedColumn: string;
  /** Spans of the source files the answer is in (`[{file, start, end, grade?}]`), which survive a change of chunking. */
  spansColumn: string;
  /** Cut-offs of the retrieval metrics table. */
  ks: number[];
}

const KEYS = ['candidates', 'k', 'score', 'questionColumn', 'answerColumn', 'relevantIdsColumn', 'gradedColumn', 'spansColumn', 'ks'] as const;
const HINT = `rag params are ${KEYS.join(', ')}`;

export function parseRagParams(raw: unknown, where: ParamsWhere): RagParams {
  const file = where.file;
  if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) throw paramValueError(file, RAG_METHOD, '(root)', 'expected a mapping of parameters', HINT);
  const values = (raw ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(values)) {
    if (!(KEYS as readonly string[]).includes(key)) throw unknownParamError(file, RAG_METHOD, [key], KEYS, 'unknown parameter', HINT);
  }
  const count = (key: string, fallback: number): number => {
    const value = values[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw paramValueError(file, RAG_METHOD, key, `expected a whole number ≥ 1, got ${JSON.stringify(value)}`, `e.g. ${key}: ${fallback}`);
    return value;
  };
  const column = (key: string, fallback: string): string => {
    const value = values[key] ?? fallback;
    if (typeof value !== 'string' || value.trim() === '') throw paramValueError(file, RAG_METHOD, key, 'expected a column name', `e.g. ${key}: ${fallback}`);
    return value;
  };
  const k = count('k', 5);
  const candidates = count('candidates', Math.max(20, k));
  if (candidates < k) throw paramValueError(file, RAG_METHOD, 'candidates', `${candidates} candidates cannot fill a cut-off of k = ${k}`, `ask for at least k candidates: candidates: ${k} or more`);
  const score = values.score ?? 'match';
  if (typeof score !== 'string' || !(RAG_SCORERS as readonly string[]).includes(score)) throw paramValueError(file, RAG_METHOD, 'score', `expected one of ${RAG_SCORERS.join(', ')}, got ${JSON.stringify(score)}`, 'score: match compares the answer column with the response; score: judge asks the eval file\'s judge');
  if (score === 'judge' && where.judge === false) throw paramValueError(file, RAG_METHOD, 'score', 'score: judge needs a judge model', 'add judge: { provider: …, model: … } at the top of the eval file, or use score: match');
  const ks = values.ks ?? [1, 3, 5, 10];
  if (!Array.isArray(ks) || ks.length === 0 || ks.some((v) => typeof v !== 'number' || !Number.isInteger(v) || v < 1)) throw paramValueError(file, RAG_METHOD, 'ks', 'expected a non-empty list of whole numbers ≥ 1', 'e.g. ks: [1, 3, 5, 10]');
  return {
    candidates,
    k,
    score: score as RagScorer,
    questionColumn: column('questionColumn', 'question'),
    answerColumn: column('answerColumn', 'answer'),
    relevantIdsColumn: column('relevantIdsColumn', 'relevant_ids'),
    gradedColumn: column('gradedColumn', 'relevance'),
    spansColumn: column('spansColumn', 'relevant_spans'),
    ks: [...new Set(ks as number[])].sort((a, b) => a - b),
  };
}
