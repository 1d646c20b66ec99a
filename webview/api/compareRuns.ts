// Which cases changed outcome between two runs: computed for staticApi and the host, and re-checked on what a host sends.
import type { CaseDetail, CaseListItem, CompareRow } from '../../src/protocol.js';
import { outcomeOf } from '../../src/core/model.js';

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

/**
 * The rows worth listing from whatever a host sent: only cases whose outcome really flipped, each once, with
 * both sides present. A host may send every shared case (older extension versions did) or a malformed row;
 * the view must still say "N cases changed outcome" truthfully.
 */
export function flippedOnly(rows: unknown): CompareRow[] {
  if (!Array.isArray(rows)) return [];
  const seen = new Set<string>();
  const kept: CompareRow[] = [];
  for (const row of rows as Partial<CompareRow>[]) {
    if (!row || !isItem(row.before) || !isItem(row.after)) continue;
    if (outcomeOf(row.before) === outcomeOf(row.after) || seen.has(row.after.key)) continue;
    seen.add(row.after.key);
    kept.push({
      caseId: typeof row.caseId === 'string' ? row.caseId : row.after.caseId,
      before: row.before,
      after: row.after,
      beforeText: typeof row.beforeText === 'string' ? row.beforeText : '',
      afterText: typeof row.afterText === 'string' ? row.afterText : '',
    });
  }
  return kept;
}

function isItem(value: unknown): value is CaseListItem {
  const item = value as Partial<CaseListItem> | undefined;
  return typeof item === 'object' && item !== null && typeof item.key === 'string' && typeof item.caseId === 'string'
    && (item.status === 'success' || item.status === 'error');
}

/** What the diff shows for a case: the response, or the error when there was none. */
export function responseTextOf(detail: CaseDetail | undefined): string {
  if (!detail) return '';
  return detail.result.response?.text ?? (detail.result.error ? `[${detail.result.error.stage} error] ${detail.result.error.message}` : '');
}
