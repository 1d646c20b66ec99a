// Whether a case line read back from the log is the first one of its case: a suite's tables count each case once
// (its effective noise ratio, its row), however many models ran it, and must do so without a set of every case id.
import { caseKey, splitCaseKey } from '../model.js';
import type { CaseLine, RunLogScan } from '../run/runLog.js';

/**
 * The scan already knows the line that counts for every (case, model): a case's first line is the one no other model's
 * line of the same case comes before. Costs a lookup per model per line and nothing per case beyond the scan's own map.
 */
export function firstLineOfCase(scan: RunLogScan): (line: Pick<CaseLine, 'result'>) => boolean {
  const models = new Set<string>();
  for (const key of scan.winners.keys()) models.add(splitCaseKey(key).modelKey);
  return ({ result }) => {
    const at = scan.winners.get(caseKey(result.caseId, result.modelKey));
    if (at === undefined) return true;
    for (const model of models) {
      if (model === result.modelKey) continue;
      const other = scan.winners.get(caseKey(result.caseId, model));
      if (other !== undefined && other < at) return false;
    }
    return true;
  };
}
