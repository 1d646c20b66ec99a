// Which (case, model) pairs of a finished run to run again: the CLI's --rerun-failed and --resume --retry-errors
// choose them from the run log, the way VS Code's Rerun Failed Cases does from its index.
import { caseKey, isFailure } from '../model.js';
import type { CaseResult } from '../model.js';
import { readCaseLines, scanRunLog } from '../run/runLog.js';

/** Keys of the log's latest results that match `select` (each pair's latest result counts, as in every report). */
export async function keysOfResults(logFile: string, select: (result: CaseResult) => boolean): Promise<Set<string>> {
  const scan = await scanRunLog(logFile);
  const keys = new Set<string>();
  for await (const line of readCaseLines(scan)) if (select(line.result)) keys.add(caseKey(line.result.caseId, line.result.modelKey));
  return keys;
}

/** Failed verdicts and errors: what Rerun Failed Cases reruns. */
export function failedOrErrored(result: CaseResult): boolean {
  return isFailure(result);
}

export function endedInError(result: CaseResult): boolean {
  return result.status === 'error';
}
