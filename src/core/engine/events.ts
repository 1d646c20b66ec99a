// What a running evaluation tells its host (CLI progress, the VS Code panel, Test Explorer), as it happens.
import type { CaseResult, EvalCase, RunStatus } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';

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
  modelCalls: number;
  cacheHits: number;
  judgeCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd?: number;
}

export type RunEvent =
  | { type: 'run-started'; runId: string; logFile: string; total: number; models: string[]; suites: string[]; resumed: number }
  | { type: 'input-problem'; problem: InputProblem }
  | { type: 'case-finished'; evalCase: EvalCase; result: CaseResult; done: number; total: number }
  | { type: 'run-finished'; runId: string; logFile: string; status: RunStatus; totals: RunTotals; reports: SuiteReport[]; thresholds: ThresholdOutcome[] };
