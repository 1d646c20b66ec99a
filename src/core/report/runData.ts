// Everything a report needs about one run: its summary in memory, its cases streamed (from the run log).
import type { CaseResult, EvalCase, InputProblem, RunStatus, RunTotals, ThresholdOutcome } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';
import type { PairedComparison } from './pairedComparison.js';

export interface RunData {
  runId: string;
  name: string;
  specFile: string;
  createdAt: string;
  status: RunStatus;
  models: string[];
  totals: RunTotals;
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  problems: InputProblem[];
  /** How many entries `entries()` yields. */
  caseCount: number;
  /**
   * Every finished (case, model), read afresh on each call (from the run log: one line in memory at a time), so a
   * report of 100,000 cases streams rather than holding them. A writer may call it more than once.
   */
  entries(): AsyncIterable<RunEntry>;
  /** The run log the entries come from, when there is one (the HTML report points readers to it). */
  logFile?: string;
  /**
   * A run still going (report/liveReports.ts): its status, totals, tables, thresholds, problems and case count are set
   * when it ends, before the writers' `finish`, so a writer reads them only there.
   */
  live?: true;
  /** The run compared with an earlier one pair by pair (`run --baseline`): the JUnit report names the broken cases. */
  baseline?: { runId: string; comparison: PairedComparison };
}

/** One finished (case, model); the case is missing only for a result held in memory without it. */
export interface RunEntry {
  evalCase: EvalCase | undefined;
  result: CaseResult;
}

/** A run held in memory (a test, a tool with a few cases): its entries in `results` order. */
export function runDataInMemory(meta: Omit<RunData, 'caseCount' | 'entries'>, cases: ReadonlyMap<string, EvalCase>, results: readonly CaseResult[]): RunData {
  return {
    ...meta,
    caseCount: results.length,
    async *entries() {
      for (const result of results) yield { evalCase: cases.get(result.caseId), result };
    },
  };
}

/** Why a case failed, in one line: every failing score with its explanation and every judge error, or the error. */
export function failureMessage(result: CaseResult): string {
  if (result.status === 'error' && result.error) {
    return `${result.error.stage} error (${result.error.kind}): ${result.error.message}`;
  }
  const reasons = result.scores.flatMap((s) => {
    if (s.judgeError) return [`${s.metric}: judge error — ${s.judgeError}`];
    if (s.pass === false) return [`${s.metric}${s.label ? ` (${s.label})` : ''}: ${s.explanation ?? 'failed'}`];
    return [];
  });
  return reasons.length ? reasons.join('; ') : 'passed';
}
