// What a running evaluation tells its host (CLI progress, the VS Code panel, Test Explorer), as it happens.
import type { CaseResult, EvalCase, InputProblem, RunStatus, RunTotals, ThresholdOutcome } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';
import type { BatchState } from '../providers/batch.js';
import type { IndexBuildSummary } from '../corpus/contract.js';

export type RunEvent =
  | { type: 'run-started'; runId: string; logFile: string; total: number; models: string[]; suites: string[]; resumed: number; concurrency?: number; /** A resumed run whose log says batch mode was on: it is on again. */ batchRestored?: boolean }
  | { type: 'input-problem'; problem: InputProblem }
  /** A doubt that does not stop the run (preflight: a model the server does not list but answers for). */
  | { type: 'warning'; message: string }
  /** The eval file's `index:` built or brought up to date, on the first question (what it did: files, chunks, embeddings). */
  | { type: 'index-built'; summary: IndexBuildSummary }
  /** A vendor batch submitted (state `submitted`), or where it stands at a poll (batch mode). */
  | { type: 'batch'; modelKey: string; batchId: string; state: BatchState | 'submitted'; done: number; total: number }
  | { type: 'case-finished'; evalCase: EvalCase; result: CaseResult; done: number; total: number }
  | { type: 'run-finished'; runId: string; logFile: string; status: RunStatus; totals: RunTotals; reports: SuiteReport[]; thresholds: ThresholdOutcome[] };
