// The one contract of every retriever (a user's script, an HTTP service, the passages already in the rows) and what a
// case records of its retrieval: the shapes the sources, the rag method, the retrieval metrics, the failure split and
// the inspector share. Plain JSON data, because it travels through run logs and the webview.
import type { Usage } from '../model.js';

/** One passage as a retriever returns it, best first. `id` is the retriever's own document id (what qrels name). */
export interface RetrievedItem {
  id: string;
  text: string;
  score?: number;
  metadata?: Record<string, unknown>;
}

/** One question put to a retriever: `k` is how many candidates to return; `params` is passed through untouched. */
export interface RetrievalRequest {
  question: string;
  k: number;
  params?: Record<string, unknown>;
}

export interface RetrievalResponse {
  items: RetrievedItem[];
  /** Wall time of the retriever's own answer (0 when it came from the cache). */
  latencyMs: number;
  cached: boolean;
  /** What it cost, when the source says (an HTTP service priced per call); undefined: unknown or free. */
  usage?: Usage & { costUsd?: number };
}

/**
 * A retriever: `identity` says which one it is, for the cache key and the report ("command: python retrieve.py",
 * "http: https://search.example/retrieve"), never holding a secret. `retrieve` honours the signal (cancel stops
 * waiting; a persistent process is not killed for one cancelled request). A failure throws `RetrieverError`.
 */
export interface Retriever {
  readonly identity: string;
  readonly kind: RetrieverKind;
  retrieve(request: RetrievalRequest, signal: AbortSignal): Promise<RetrievalResponse>;
  /**
   * What the answers depend on beyond `identity`, when that can change between runs (an index's contents): part of
   * the retrieval cache's key. May do the work the first retrieval would (an index built).
   */
  version?(signal: AbortSignal): Promise<string>;
  /** Stops what the retriever started (a persistent process); called once when the run ends. */
  close?(): Promise<void>;
}

/** index: the eval file's `index:`, the folder the product indexes and searches itself (corpus/indexRetriever.ts). */
export type RetrieverKind = 'command' | 'http' | 'dataset' | 'index';

/** Why a retrieval failed, in words a user can act on; a case error at stage 'retrieval', never an empty list. */
export type RetrieverErrorKind =
  | 'start' // the command could not be started (not found, not executable), or a variable it needs is not set (also an HTTP header's); nothing was asked
  | 'crashed' // the process exited while requests were waiting
  | 'timeout'
  | 'reported' // the retriever answered with an error of its own ({"id", "error": "…"}, or an HTTP body saying so)
  | 'not-json' // an answer line (or body) that is not JSON
  | 'bad-shape' // JSON, but not a list of { id, text, score?, metadata? }
  | 'duplicate-id'
  | 'empty-text'
  | 'http-status'
  | 'network'
  | 'untrusted'; // a command retriever in an untrusted workspace (Restricted Mode)

export class RetrieverError extends Error {
  constructor(readonly kind: RetrieverErrorKind, message: string, readonly status?: number) {
    super(message);
    this.name = 'RetrieverError';
  }
}

/** What a rag case records of its retrieval (`EvalCase.params.retrieval`): read by the metrics, causes and inspector. */
export interface RetrievalRecord {
  /** The retriever's identity (Retriever.identity). */
  retriever: string;
  /** The cut-off: how many of the candidates were sent to the model. */
  k: number;
  /** Every candidate the retriever returned, in its order (rank 1 first; ties keep the returned order). */
  candidates: RankedPassage[];
  /**
   * Every id the labels call relevant for this question, retrieved or not, with its grade (recall and nDCG's ideal
   * ranking need the ones never retrieved). Undefined when the labels only judge what was retrieved (answer match,
   * the judge): then only the candidates' `relevance` is known, and the report says so. Each entry is one relevant
   * unit: with span labels an id is listed once per span it holds (a passage over two spans, twice).
   */
  relevant?: { id: string; grade: number }[];
  latencyMs?: number;
  cached?: boolean;
}

export interface RankedPassage {
  /** 1-based. */
  rank: number;
  /** The retriever's id. */
  id: string;
  score?: number;
  metadata?: Record<string, unknown>;
  /** Sent to the model (rank ≤ k); then `documentId` is the case document ("d0"…) holding its text. */
  sent: boolean;
  documentId?: string;
  /** Relevance grade: > 0 relevant, 0 not relevant, undefined when no label says. */
  relevance?: number;
  /** Which label gave `relevance`. */
  labelSource?: LabelSource;
  /** Where the passage came from, when the retriever or the index says (opens it in the editor). */
  source?: PassageSource;
}

export interface PassageSource {
  file?: string;
  /** 1-based, inclusive. */
  startLine?: number;
  endLine?: number;
  /** A PDF's pages (1-based, inclusive); its lines are then those of its extracted text, which the editor opens. */
  startPage?: number;
  endPage?: number;
  url?: string;
}

/**
 * Where a relevance label came from: a list of relevant ids in the row, graded relevance in the row, spans of the
 * source files in the row (a passage overlapping one is relevant: retrieval/qrels.ts labelBySpans), the answer found
 * in the passage (the stress method's rule), the judge, or a person's verdict in the inspector.
 */
export type LabelSource = 'relevant_ids' | 'graded' | 'span' | 'answer-match' | 'judge' | 'verdict';

/** Relevance labels of one question: document id → grade (> 0 relevant). */
export type Qrels = ReadonlyMap<string, number>;

/**
 * The one cause of a failed case (issue "retriever in the loop"): first the retrieval-only causes, which need no
 * model call, then the ones Explain's evidence decides; `undetermined` when the evidence is not there (never guessed).
 */
export type FailureCause =
  | 'not-retrieved' // no relevant passage among the candidates
  | 'ranked-out' // a relevant passage among the candidates, but below the cut-off k
  | 'retrieved-not-used' // a relevant passage was sent and Explain finds it inert
  | 'distracted' // Explain finds a sent passage that harms
  | 'position' // passes when the relevant passage is moved first
  | 'generation' // the relevant passage was sent and is decisive-but-insufficient, or none of the above
  | 'undetermined';

export const FAILURE_CAUSES: readonly FailureCause[] = ['not-retrieved', 'ranked-out', 'retrieved-not-used', 'distracted', 'position', 'generation', 'undetermined'];

/** A cause with the evidence for it, in words ("relevant passage doc-17 at rank 8, cut-off 5"). */
export interface CauseFinding {
  cause: FailureCause;
  words: string;
  /** The passage the evidence is about (the relevant one ranked out, the harmful one…). */
  passageId?: string;
  rank?: number;
}

/** `retriever:` of the eval file, loaded (paths absolute, defaults applied). Secrets stay environment variable names. */
export type RetrieverSpec = CommandRetrieverSpec | HttpRetrieverSpec | DatasetRetrieverSpec;

/**
 * The user's own script, in any language: `persistent` starts it once and speaks JSON lines on stdin/stdout (one
 * request per line with an `id`, answers matched by id, so requests overlap); `per-call` starts it for each question
 * (the request on stdin, the answer on stdout). The command is an argument list run without a shell.
 */
export interface CommandRetrieverSpec {
  type: 'command';
  command: string[];
  /** Absolute; the eval file's folder by default. */
  cwd: string;
  mode: 'persistent' | 'per-call';
  timeoutMs: number;
  /** Extra environment variables by name, their values read from the environment when the process starts. */
  env?: string[];
  /** Passed to every request untouched (part of the cache key). */
  params?: Record<string, unknown>;
}

/**
 * A POST to the user's endpoint with `{ question, k, params }` (README, "Retriever contract"); the answer is a list of
 * items or, with `response`, found in another shape by JSON pointers.
 */
export interface HttpRetrieverSpec {
  type: 'http';
  url: string;
  /** Header name → the environment variable holding its value (read at call time, never stored). */
  headers: Record<string, { env: string; prefix?: string }>;
  timeoutMs: number;
  params?: Record<string, unknown>;
  /** For services whose answer has another shape: JSON pointers to the list, and within each item to its fields. */
  response?: { items: string; id?: string; text?: string; score?: string; metadata?: string };
}

/** The passages already in the rows (today's behaviour), through the same contract. */
export interface DatasetRetrieverSpec {
  type: 'dataset';
}
