// Filtering, searching and sorting the case list; pure so it can be tested in Node and kept fast at 100,000 rows.
import { isFailure, outcomeOf } from '../../src/core/model.js';
import type { Outcome } from '../../src/core/model.js';
import type { CaseListItem } from '../../src/protocol.js';
import { FAILURE_CAUSES } from '../../src/core/retrieval/contract.js';
import type { FailureCause } from '../../src/core/retrieval/contract.js';

export type SortKey = 'run' | 'status' | 'score-asc' | 'score-desc';

export interface CaseFilters {
  failedOnly: boolean;
  /** "" for all, a suite id, or `${suiteId}\u0000${testbed}`. */
  suite: string;
  model: string;
  role: string;
  /** "" for all, or a failure cause id ("ranked-out"). */
  cause: string;
  search: string;
}

export const EMPTY_FILTERS: CaseFilters = { failedOnly: false, suite: '', model: '', role: '', cause: '', search: '' };

export const SUITE_SEPARATOR = '\u0000';

export interface FilterOptions {
  suites: { value: string; label: string }[];
  models: string[];
  roles: string[];
  /** Failure causes present, in the contract's order. */
  causes: FailureCause[];
}

export function filterOptions(items: readonly CaseListItem[]): FilterOptions {
  const suites = new Map<string, string>();
  const models = new Set<string>();
  const roles = new Set<string>();
  const causes = new Set<FailureCause>();
  for (const item of items) {
    if (!suites.has(item.suiteId)) suites.set(item.suiteId, item.suiteId);
    if (item.testbed) {
      const value = `${item.suiteId}${SUITE_SEPARATOR}${item.testbed}`;
      if (!suites.has(value)) suites.set(value, `${item.suiteId} › ${item.testbed}`);
    }
    models.add(item.modelKey);
    for (const role of item.roles) roles.add(role);
    if (item.cause) causes.add(item.cause);
  }
  return {
    suites: [...suites].map(([value, label]) => ({ value, label })).sort((a, b) => a.value.localeCompare(b.value)),
    models: [...models].sort(),
    roles: [...roles].sort(),
    causes: FAILURE_CAUSES.filter((c) => causes.has(c)),
  };
}

// Lower-cased search text, computed once per item; a WeakMap so items dropped with their run are collected.
const searchText = new WeakMap<CaseListItem, string>();
function searchable(item: CaseListItem): string {
  let text = searchText.get(item);
  if (text === undefined) {
    text = `${item.caseId}\n${item.question}\n${item.summary}`.toLowerCase();
    searchText.set(item, text);
  }
  return text;
}

const STATUS_RANK: Record<Outcome, number> = { error: 0, fail: 1, none: 2, pass: 3 };

/** Returns the visible items in display order. Every search term must match (AND), case-insensitively. */
export function queryCases(items: readonly CaseListItem[], filters: CaseFilters, sort: SortKey): CaseListItem[] {
  const terms = filters.search.toLowerCase().split(/\s+/).filter(Boolean);
  const [suiteId, testbed] = filters.suite ? filters.suite.split(SUITE_SEPARATOR) : [];
  const visible = items.filter((item) => {
    if (filters.failedOnly && !isFailure(item)) return false;
    if (suiteId && item.suiteId !== suiteId) return false;
    if (testbed && item.testbed !== testbed) return false;
    if (filters.model && item.modelKey !== filters.model) return false;
    if (filters.role && !item.roles.includes(filters.role)) return false;
    if (filters.cause && item.cause !== filters.cause) return false;
    if (terms.length > 0) {
      const text = searchable(item);
      if (!terms.every((t) => text.includes(t))) return false;
    }
    return true;
  });
  if (sort === 'run') return visible;
  // Array.prototype.sort is stable, so ties keep run order.
  if (sort === 'status') return visible.sort((a, b) => STATUS_RANK[outcomeOf(a)] - STATUS_RANK[outcomeOf(b)]);
  const direction = sort === 'score-asc' ? 1 : -1;
  return visible.sort((a, b) => {
    const x = typeof a.score === 'number' && !Number.isNaN(a.score) ? a.score : null;
    const y = typeof b.score === 'number' && !Number.isNaN(b.score) ? b.score : null;
    // Cases without a score go last in both directions: they have nothing to rank.
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return (x - y) * direction;
  });
}

/** Index of the next (or previous) failure from `from`, wrapping around; -1 when there is none. */
export function nextFailure(items: readonly CaseListItem[], from: number, direction: 1 | -1): number {
  const n = items.length;
  for (let step = 1; step <= n; step++) {
    const index = (((from + step * direction) % n) + n) % n;
    if (isFailure(items[index]!)) return index;
  }
  return -1;
}

/** Which rows a virtualised list must render: the viewport plus a few rows of overscan either side. */
export function visibleRange(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan = 8): { first: number; last: number } {
  if (count === 0) return { first: 0, last: -1 };
  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscan);
  const last = Math.min(count - 1, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscan);
  return { first, last };
}
