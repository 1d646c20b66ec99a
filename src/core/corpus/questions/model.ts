// The shapes of generated test questions: the kinds, one planned generation (a job), a kept question as written to
// questions.jsonl (a row the rag and stress methods read as it is) and a rejected one with its reason.
import type { Chunk } from '../contract.js';

export const QUESTION_KINDS = ['single-hop', 'multi-hop', 'unanswerable', 'conflicting'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

/** What an unanswerable question's reference answer says: the documents do not hold it (a judge accepts a refusal). */
export const NOT_IN_DOCUMENTS = 'The documents do not contain this information.';

/**
 * One generation to make: its kind, its source chunks (multi-hop: two) and the seed. `key` is what a rerun skips on:
 * the same corpus, kinds, count and seed plan the same jobs, so a finished one is never generated again.
 */
export interface QuestionJob {
  key: string;
  kind: QuestionKind;
  chunks: Chunk[];
  seed: number;
}

/** A char range of a source file holding the evidence: labels by span survive re-chunking (a chunk overlapping it is relevant). */
export interface RelevantSpan {
  file: string;
  start: number;
  end: number;
  /** 2: states the answer; 1: supports it (the other hop of a multi-hop question). */
  grade: number;
}

/** How a kept question was checked, each with its outcome in words. */
export interface QuestionChecks {
  /** The judge found the answer in the source chunks (unanswerable: found none in what a search of the corpus returns). */
  answerable: string;
  /** Multi-hop: neither source chunk alone answers it. */
  needsBoth?: string;
  /** The model without documents could not answer it (not run for unanswerable questions). */
  closedBook?: string;
  /** The closest earlier question by embedding cosine. */
  duplicate: string;
  /** Conflicting: the counterfactual generator's check passed. */
  counterfactual?: string;
}

/** A kept question, as written: rag reads question/answer/relevant_ids/relevance, stress question/reference/retrieved_contexts. */
export interface QuestionRow {
  id: string;
  kind: QuestionKind;
  question: string;
  answer: string;
  reference: string;
  relevant_ids: string[];
  /** Graded labels: 2 the chunk stating the answer, 1 a supporting one. */
  relevance: Record<string, number>;
  relevant_spans: RelevantSpan[];
  /** The source chunks' texts (stress reads them as the retrieved passages). */
  retrieved_contexts: string[];
  answerable: boolean;
  counterfactual?: { answer: string; passages: string[]; generatedBy?: unknown };
  checks: QuestionChecks;
  source: { key: string; seed: number; model: string; judge: string };
}

/** A generation that was not kept, and why: a check's verdict, or a failure (`retry: true`, asked again on a rerun). */
export interface RejectedQuestion {
  status: 'rejected';
  key: string;
  kind: QuestionKind;
  chunk_ids: string[];
  seed: number;
  reason: string;
  /** The check that refused it: shape, evidence, leak, answerable, needs-both, closed-book, corpus-answers, duplicate, counterfactual, error. */
  check: string;
  /** A call failed or an answer could not be read: not a verdict on the question, so a rerun asks again. */
  retry: boolean;
  question?: string;
  answer?: string;
}

export function jobKey(kind: QuestionKind, chunks: readonly Chunk[], seed: number): string {
  return `${kind}|${chunks.map((c) => c.id).join('+')}|${seed}`;
}
