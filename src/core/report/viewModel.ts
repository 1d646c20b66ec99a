// What the inspector shows of a run: the view model the webview and the self-contained HTML report both render.
// Plain JSON, because it crosses the webview channel (src/protocol.ts carries it) and is embedded in report pages.
import type { ErrorCause } from '../errorCauses.js';
import type { CaseResult, EvalCase, InputProblem, RunStatus, RunTotals, ThresholdOutcome } from '../model.js';
import type { FailureCause } from '../retrieval/contract.js';
import type { SuiteReport } from '../suites/contract.js';

/** A run as listed: enough for a picker and the status line, without reading every case. */
export interface RunListing {
  runId: string;
  name: string;
  createdAt: string;
  status: RunStatus;
  models: string[];
  totals?: RunTotals;
  /**
   * A 'started' run nothing is writing any more (its extension host or terminal died): the view offers Resume instead
   * of Cancel. Absent for a run that may still be running, and for every finished run.
   */
  interrupted?: true;
}

/** One row of the case list: small, because a run may hold 100,000 of them. */
export interface CaseListItem {
  /** `${caseId}\u0000${modelKey}` — unique within a run. */
  key: string;
  caseId: string;
  suiteId: string;
  testbed?: string;
  modelKey: string;
  status: 'success' | 'error';
  pass?: boolean;
  /** e.g. "noise 0.6 — wrong answer". */
  summary: string;
  question: string;
  /** Document roles present, for the role filter. */
  roles: string[];
  /** Primary score value for sorting. */
  score?: number | null;
  /** The answer was cut at the token limit (finish reason "length" / "max_tokens"): the list marks it. */
  truncated?: boolean;
  /** Why a failed case with a retrieval failed (its `cause` score; refined later by Explain's evidence): the cause filter. */
  cause?: FailureCause;
}

export interface RunDetail {
  listing: RunListing;
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  problems: InputProblem[];
  cases: CaseListItem[];
  /** Why cases ended in an error, grouped (errorCauses.ts): the panel's header shows them, as the CLI prints them. */
  errorCauses?: ErrorCause[];
}

export interface CaseDetail {
  runId: string;
  evalCase: EvalCase;
  result: CaseResult;
}

export interface CompareRow {
  caseId: string;
  before: CaseListItem;
  after: CaseListItem;
  beforeText: string;
  afterText: string;
}
