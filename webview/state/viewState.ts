// The navigation state kept across panel reloads (setState): which run, view, case, filters and sort — never data.
import { EMPTY_FILTERS } from './caseQuery.js';
import type { CaseFilters, SortKey } from './caseQuery.js';

export const VIEW_STATE_VERSION = 1;

export type ViewName = 'summary' | 'cases' | 'compare';

export interface ViewState {
  v: typeof VIEW_STATE_VERSION;
  runId?: string;
  view: ViewName;
  caseKey?: string;
  filters: CaseFilters;
  sort: SortKey;
  compare?: { before: string; after: string };
}

export const INITIAL_VIEW_STATE: ViewState = { v: VIEW_STATE_VERSION, view: 'summary', filters: EMPTY_FILTERS, sort: 'run' };

const VIEWS: readonly ViewName[] = ['summary', 'cases', 'compare'];
const SORTS: readonly SortKey[] = ['run', 'status', 'score-asc', 'score-desc'];

/**
 * Accepts only a state this version wrote; anything else (an older shape, a hand-edited value) starts fresh,
 * because a half-understood state could point the view at data that is no longer there.
 */
export function restoreViewState(saved: unknown): ViewState {
  if (typeof saved !== 'object' || saved === null) return INITIAL_VIEW_STATE;
  const s = saved as Partial<ViewState>;
  if (s.v !== VIEW_STATE_VERSION) return INITIAL_VIEW_STATE;
  const f: Partial<CaseFilters> = typeof s.filters === 'object' && s.filters !== null ? s.filters : {};
  const state: ViewState = {
    v: VIEW_STATE_VERSION,
    view: VIEWS.includes(s.view as ViewName) ? (s.view as ViewName) : 'summary',
    filters: {
      failedOnly: f.failedOnly === true,
      suite: typeof f.suite === 'string' ? f.suite : '',
      model: typeof f.model === 'string' ? f.model : '',
      role: typeof f.role === 'string' ? f.role : '',
      cause: typeof f.cause === 'string' ? f.cause : '',
      search: typeof f.search === 'string' ? f.search : '',
    },
    sort: SORTS.includes(s.sort as SortKey) ? (s.sort as SortKey) : 'run',
  };
  if (typeof s.runId === 'string') state.runId = s.runId;
  if (typeof s.caseKey === 'string') state.caseKey = s.caseKey;
  if (s.compare && typeof s.compare.before === 'string' && typeof s.compare.after === 'string') state.compare = { before: s.compare.before, after: s.compare.after };
  return state;
}
