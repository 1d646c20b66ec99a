// Everything a report needs about one run, whether it just finished or was read back from its log.
import type { InputProblem, RunTotals, ThresholdOutcome } from '../engine/events.js';
import type { CaseResult, EvalCase, RunStatus } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';

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
  cases: ReadonlyMap<string, EvalCase>;
  results: readonly CaseResult[];
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
