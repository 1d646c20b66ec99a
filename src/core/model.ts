// The shapes every layer of core shares: dataset rows, cases, the documents a model saw, model calls, scores,
// results and run totals, and the one key of a (case, model) pair. Plain JSON-serialisable data, because it travels
// through run logs, the CLI reports and the webview. This module imports nothing (ARCHITECTURE.md, "Layers").

/**
 * What a document is to the case: the answer-bearing passage, noise, a counterfactual rewrite, haystack filler, or
 * unknown — a retrieved passage nothing labels (RAGAS rows without reference_contexts, rows imported from traces),
 * which no method may count as noise.
 */
export type DocumentRole = 'positive' | 'negative' | 'counterfactual' | 'haystack' | 'unknown';

/** What the retriever recorded of a passage (a dataset imported from traces): kept so an export gives it back. */
export interface RetrievedPassage {
  id?: string;
  score?: number;
  metadata?: Record<string, unknown>;
}

/** A known region of a document (or of a response) the inspector highlights. */
export type SpanKind = 'answer' | 'needle' | 'counterfactual' | 'evidence' | 'citation';

export interface Span {
  kind: SpanKind;
  /** UTF-16 offsets into the text, end exclusive (what JavaScript's String.slice uses). */
  start: number;
  end: number;
  /** The matched text, kept so a reader of the log need not slice. */
  text: string;
  /** Optional label, e.g. the answer alternative or the needle number. */
  label?: string;
}

export interface CaseDocument {
  /** Stable within the case, e.g. "d0"; what judges and citations refer to. */
  id: string;
  role: DocumentRole;
  text: string;
  spans: Span[];
  /** Where the passage came from in the dataset row, e.g. "positive[2]". */
  source?: string;
  /** The retriever's own id, score and metadata of the passage, when the dataset row has them (`passages`). */
  retrieved?: RetrievedPassage;
}

/** Points at the dataset row a case was built from, for "open dataset row" and diagnostics. */
export interface RowRef {
  file: string;
  /** 1-based line where the row starts. */
  line: number;
  /** 0-based index of the row among the file's rows. */
  index: number;
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** One unit of work: a rendered prompt plus everything needed to score and explain it. */
export interface EvalCase {
  /** Deterministic from the spec and the row, so reruns, the cache and --resume line up: "rgb-noise/17/noise=0.4". */
  id: string;
  /** The suite entry in the eval file that produced it. */
  suiteId: string;
  /** The method: "rgb", "needle", "ifrag", "ragas", "llm-eval"… */
  method: string;
  /** Method-specific sub-kind, e.g. "noise_robustness". */
  testbed?: string;
  row: RowRef;
  question: string;
  documents: CaseDocument[];
  /** Method-specific expected answer(s), e.g. RGB's answer parts. */
  expected: unknown;
  /** The parameters and effective values that produced the case (noise ratio requested and effective…). */
  params: Record<string, unknown>;
  seed?: number;
  /** Variables the template is rendered with. */
  variables: Record<string, unknown>;
  /** The messages exactly as sent (filled in when the template is rendered). */
  messages: ChatMessage[];
  /** Template file the messages came from, for "open template". */
  template?: string;
  /**
   * A response the dataset already holds (RAGAS scores answers produced elsewhere). When set, the engine
   * scores it as the response of every model under test without calling them, and says so in the result.
   */
  givenResponse?: string;
  /**
   * A person's label already in the dataset (the column the suite's humanLabels names): true = the response is
   * correct. Agreement reads it where no verdict was given in the inspector (core/verdicts).
   */
  humanLabel?: boolean;
  /**
   * The retriever failed for this case's question (rag): the case is built without passages and the engine records
   * this as a case error at stage 'retrieval' without calling the model, so finished cases are kept and
   * `--resume --retry-errors` asks again.
   */
  retrievalError?: { kind: string; message: string };
}

export interface Evidence {
  documentId: string;
  start: number;
  end: number;
  text?: string;
}

/**
 * One metric's verdict on one case. `value` is null when there was nothing to judge (NaN in the
 * reference); a judge that answered out of format sets `judgeError` instead of a value — never a silent 0.
 */
export interface Score {
  metric: string;
  value: number | null;
  pass?: boolean;
  /** Short machine-readable label, e.g. "rejected", "correct", "factual-error-detected". */
  label?: string;
  explanation?: string;
  evidence?: Evidence[];
  judgeError?: string;
  /** Raw per-part details a method keeps (RGB labels, per-statement verdicts…). */
  details?: unknown;
  /** With `judgeSamples: k`: what each of the k scorings gave and how they were combined (suites/judgeSamples.ts). */
  samples?: ScoreSamples;
}

/** The k scorings of one metric of one case, and the reference aggregation that gave the headline value. */
export interface ScoreSamples {
  k: number;
  /** Each sample's value; null where that sample was undetermined (a judge error). */
  values: (number | null)[];
  /** Each sample's verdict, where the method gives one. */
  passes?: (boolean | null)[];
  /** 'majority' for verdicts, 'mean' for scales. */
  aggregation: 'majority' | 'mean';
  /** max − min of the determined values; null when fewer than one is determined. */
  spread: number | null;
  /** Population standard deviation of the determined values. */
  stdev: number | null;
  undetermined: number;
  /** The samples disagree (a different verdict or value, or some undetermined and some not). */
  unstable: boolean;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
}

export interface ResponseRecord {
  text: string;
  /** True when the text came from the dataset (EvalCase.givenResponse), not from a model call. */
  given?: boolean;
  usage: Usage;
  latencyMs: number;
  cached: boolean;
  costUsd?: number;
  finishReason?: string;
}

export interface CaseError {
  /** Where it failed: building/rendering the prompt, retrieving its passages, calling the model, or scoring. */
  stage: 'render' | 'retrieval' | 'model' | 'score';
  kind: string;
  message: string;
  status?: number;
}

/**
 * Whether an answer was cut at the token limit rather than finished: OpenAI-compatible servers say finish_reason
 * "length" (llama.cpp too, when prompt + maxTokens overflows its slot), Anthropic stop_reason "max_tokens".
 */
export function isTruncated(response: { finishReason?: string } | undefined): boolean {
  return response?.finishReason === 'length' || response?.finishReason === 'max_tokens';
}

/** The words every surface uses for a truncated answer. */
export const CUT_ANSWER = 'answer cut at the token limit';

/** What a model entry's `truncated` setting does with a cut answer: score it as it is (marked), or make it a case error. */
export type TruncatedPolicy = 'score' | 'error';

/** The result of one case against one model, as appended to the run log. */
export interface CaseResult {
  caseId: string;
  /** "provider:model", e.g. "openai:gpt-4o-mini". */
  modelKey: string;
  status: 'success' | 'error';
  response?: ResponseRecord;
  scores: Score[];
  /** Overall pass: every score that has a pass verdict passed. Undefined when none has one. */
  pass?: boolean;
  error?: CaseError;
  attempts: number;
  /** Judge calls made for this case (counted and costed apart from the model under test). */
  judgeUsage?: Usage & { calls: number; costUsd?: number };
  startedAt: string;
  finishedAt: string;
}

/**
 * How a run ended: 'success' only when every case ran to a verdict; 'completed-with-errors' when it finished but some
 * cases ended in an error (a server that was down never reads as success); 'error' when the run itself stopped.
 */
export const RUN_STATUSES = ['started', 'success', 'completed-with-errors', 'completed-with-judge-errors', 'error', 'cancelled'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/** How a run that finished came out: errored cases first, then cases with a judge answer that could not be read. */
export function finishedStatus(totals: Pick<RunTotals, 'error' | 'judgeErrors'>): RunStatus {
  if (totals.error > 0) return 'completed-with-errors';
  return (totals.judgeErrors ?? 0) > 0 ? 'completed-with-judge-errors' : 'success';
}

/**
 * A log written before 'completed-with-errors' (or '…-judge-errors') existed says 'success' with errored cases: it is
 * read as what it was.
 */
export function outcomeStatus(status: RunStatus, totals: Pick<RunTotals, 'error' | 'judgeErrors'> | undefined): RunStatus {
  return status === 'success' && totals ? finishedStatus(totals) : status;
}

/** The words every surface (CLI, run list, HTML badge, VS Code) uses for a run's status. */
export function runStatusLabel(status: RunStatus | 'unreadable'): string {
  if (status === 'completed-with-errors') return 'completed with errors';
  return status === 'completed-with-judge-errors' ? 'completed with judge errors' : status;
}

// ── A run ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** An input problem found while building cases; the run goes on without the row or case it names. */
export interface InputProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
  hint?: string;
  suiteId?: string;
}

export interface ThresholdOutcome {
  suiteId: string;
  modelKey: string;
  metric: string;
  value: number | null;
  /** The value's denominator and the results left out as undetermined (judge errors, NaN), where the suite says. */
  n?: number;
  undetermined?: number;
  min?: number;
  max?: number;
  passed: boolean;
}

export interface RunTotals {
  cases: number;
  success: number;
  error: number;
  passed: number;
  failed: number;
  /** Answers the model stopped at its token limit (finish reason "length" / "max_tokens"); absent when none was. */
  truncated?: number;
  /** Cases with a judge answer that could not be read (a metric undetermined); absent when none had one. */
  judgeErrors?: number;
  modelCalls: number;
  cacheHits: number;
  judgeCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
  /**
   * Tokens the servers reported for attempts that failed (a retried 5xx, a call that failed after its retries), not in
   * inputTokens/outputTokens nor costUsd; costUsd here undefined when one could not be priced. Absent when none.
   */
  failedAttempts?: FailedAttemptSpend;
}

export interface FailedAttemptSpend {
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

// ── Rows and model calls ───────────────────────────────────────────────────────────────────────────────────────

/** One record read from a dataset file, with where it came from. */
export interface DatasetRow {
  ref: RowRef;
  data: Record<string, unknown>;
  /**
   * The name the row's cases are built from, unique in its file: its id, else its 0-based position, with its line
   * appended when an earlier row took that name (data/rowIds.ts). Set by readDataset; read it through `rowKey`.
   */
  key?: string;
}

/** A model call that already goes through the run's scheduler, retries and cache. */
export interface ModelClient {
  /** "provider:model". */
  readonly key: string;
  complete(request: {
    messages: ChatMessage[];
    temperature?: number;
    /** A judge sample's seed (judgeSamples: k); part of the cache key, so k samples are k calls. */
    seed?: number;
    maxTokens?: number;
    structuredOutput?: StructuredOutput;
  }, signal: AbortSignal): Promise<ClientResponse>;
}

/** A response plus how many attempts the scheduler needed (1 when it came from the cache). */
export interface ClientResponse extends ResponseRecord {
  attempts: number;
}

/** A JSON schema the provider should constrain its output to (OpenAI response_format, Anthropic tool use). */
export interface StructuredOutput {
  name: string;
  schema: Record<string, unknown>;
}

// ── A (case, model) pair: its key and its outcome ──────────────────────────────────────────────────────────────

const KEY_SEPARATOR = '\u0000';

/**
 * The key of one case on one model, unique within a run: what --resume skips on, what the engine and the
 * reports index results by, and the inspector's list key.
 */
export const caseKey = (caseId: string, modelKey: string): string => `${caseId}${KEY_SEPARATOR}${modelKey}`;

export function splitCaseKey(key: string): { caseId: string; modelKey: string } {
  const at = key.indexOf(KEY_SEPARATOR);
  return at < 0 ? { caseId: key, modelKey: '' } : { caseId: key.slice(0, at), modelKey: key.slice(at + 1) };
}

/** "case on model", for messages a person reads. */
export function describeKey(key: string): string {
  const { caseId, modelKey } = splitCaseKey(key);
  return modelKey ? `${caseId} on ${modelKey}` : caseId;
}

export type Outcome = 'pass' | 'fail' | 'error' | 'none';

/** The four outcomes the reports, the inspector and Test Explorer sort, count and compare by. */
export function outcomeOf(item: Pick<CaseResult, 'status' | 'pass'>): Outcome {
  if (item.status === 'error') return 'error';
  if (item.pass === true) return 'pass';
  if (item.pass === false) return 'fail';
  return 'none';
}

/** What "Rerun Failed Cases", diagnostics and CodeLens count as a failure: a failed verdict or an error. */
export function isFailure(result: Pick<CaseResult, 'status' | 'pass'>): boolean {
  const outcome = outcomeOf(result);
  return outcome === 'fail' || outcome === 'error';
}

/** One finished (case, model) with what it ran on. */
export interface CaseEntry {
  evalCase: EvalCase;
  result: CaseResult;
}
