// Which cases changed outcome between two runs; used by staticApi (the VS Code host answers CompareRuns itself).
import type { CaseDetail, CaseListItem, CompareRow } from '../../src/protocol.js';
import { outcomeOf } from '../state/caseQuery.js';

/**
 * Pairs cases by list key (case id + model) and keeps those whose outcome differs (pass, fail, error, no
 * verdict), in the order of the later run. `textOf` gives the response shown in the diff.
 */
export function flippedCases(
  before: readonly CaseListItem[],
  after: readonly CaseListItem[],
  textOf: (side: 'before' | 'after', item: CaseListItem) => string,
): CompareRow[] {
  const earlier = new Map(before.map((item) => [item.key, item]));
  const rows: CompareRow[] = [];
  for (const item of after) {
    const previous = earlier.get(item.key);
    if (!previous || outcomeOf(previous) === outcomeOf(item)) continue;
    rows.push({ caseId: item.caseId, before: previous, after: item, beforeText: textOf('before', previous), afterText: textOf('after', item) });
  }
  return rows;
}

/** What the diff shows for a case: the response, or the error when there was none. */
export function responseTextOf(detail: CaseDetail | undefined): string {
  if (!detail) return '';
  return detail.result.response?.text ?? (detail.result.error ? `[${detail.result.error.stage} error] ${detail.result.error.message}` : '');
}
