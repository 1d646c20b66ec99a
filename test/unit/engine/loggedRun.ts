// What a finished run left in its log, as the tests read it: the engine's outcome holds only the summary.
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { readRunLog } from '../../../src/core/run/runLog.js';

export interface LoggedRun {
  /** In the order first finished, one per (case, model). */
  results: CaseResult[];
  cases: Map<string, EvalCase>;
}

export async function loggedRun(outcome: Pick<RunOutcome, 'logFile'>): Promise<LoggedRun> {
  const log = await readRunLog(outcome.logFile);
  return { results: log.cases.map((line) => line.result), cases: new Map(log.cases.map((line) => [line.case.id, line.case])) };
}
