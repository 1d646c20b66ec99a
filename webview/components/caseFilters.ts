// The filter bar above the case list: search, failed only, suite/testbed, model, failure cause, document role, sort.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import type { CaseFilters, FilterOptions, SortKey } from '../state/caseQuery.js';
import { ROLE_WORDS } from './documentCard.js';
import { CAUSE_WORDS } from '../state/retrieval.js';
import { baseStyles } from './sharedStyles.js';
import { formatCount } from './format.js';

export interface FiltersChangedDetail { filters: CaseFilters; sort: SortKey }

/** Typing is applied after this pause so 100,000 rows are not re-filtered on every keystroke. */
const SEARCH_DEBOUNCE_MS = 60;

const SORTS: { value: SortKey; label: string }[] = [
  { value: 'run', label: 'Run order' },
  { value: 'status', label: 'Status: failures first' },
  { value: 'score-asc', label: 'Score: lowest first' },
  { value: 'score-desc', label: 'Score: highest first' },
];

export class CaseFiltersBar extends LitElement {
  static override properties = {
    options: { attribute: false },
    filters: { attribute: false },
    sort: { type: String },
    shown: { type: Number },
    total: { type: Number },
  };

  options: FilterOptions = { suites: [], models: [], roles: [], causes: [] };
  filters!: CaseFilters;
  sort: SortKey = 'run';
  shown = 0;
  total = 0;
  private searchTimer: ReturnType<typeof setTimeout> | undefined;

  static override styles = [baseStyles, css`
    :host { display: grid; gap: 0.4em; padding: 0.5em; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
    .row { display: flex; gap: 0.4em; align-items: center; flex-wrap: wrap; }
    vscode-textfield { width: 100%; }
    vscode-single-select { flex: 1 1 8em; min-width: 7em; }
    .count { margin-inline-start: auto; font-variant-numeric: tabular-nums; }
  `];

  /** Puts the caret in the search box (the `/` shortcut). */
  focusSearch(): void {
    this.renderRoot.querySelector<HTMLElement>('vscode-textfield')?.focus();
  }

  override render() {
    const f = this.filters;
    return html`
      <vscode-textfield type="search" placeholder="Search question, summary, case id  ( / )" aria-label="Search cases"
        .value=${f.search} @input=${(e: Event) => this.onSearch((e.target as HTMLInputElement).value)}
        @keydown=${this.onSearchKey}></vscode-textfield>
      <div class="row">
        <vscode-checkbox .checked=${f.failedOnly}
          @change=${(e: Event) => this.change({ failedOnly: (e.target as HTMLInputElement).checked })}>Failed only</vscode-checkbox>
        <span class="count muted" aria-live="polite">${formatCount(this.shown)} of ${formatCount(this.total)}</span>
      </div>
      <div class="row">
        ${this.select('suite', 'All suites', this.options.suites, f.suite)}
        ${this.select('model', 'All models', this.options.models.map((m) => ({ value: m, label: m })), f.model)}
      </div>
      ${this.options.causes.length ? html`<div class="row">
        ${this.select('cause', 'Any failure cause', this.options.causes.map((c) => ({ value: c, label: CAUSE_WORDS[c] })), f.cause)}
      </div>` : nothing}
      <div class="row">
        ${this.select('role', 'Any document role', this.options.roles.map((r) => ({ value: r, label: ROLE_WORDS[r] ?? r })), f.role)}
        <vscode-single-select aria-label="Sort" data-filter="sort" .value=${this.sort}
          @change=${(e: Event) => this.emit(this.filters, (e.target as HTMLSelectElement).value as SortKey)}>
          ${SORTS.map((s) => html`<vscode-option value=${s.value} ?selected=${s.value === this.sort}>${s.label}</vscode-option>`)}
        </vscode-single-select>
      </div>
    `;
  }

  private select(key: 'suite' | 'model' | 'role' | 'cause', allLabel: string, options: { value: string; label: string }[], value: string) {
    return html`<vscode-single-select aria-label=${allLabel} data-filter=${key} .value=${value}
        @change=${(e: Event) => this.change({ [key]: (e.target as HTMLSelectElement).value } as Partial<CaseFilters>)}>
      <vscode-option value="" ?selected=${value === ''}>${allLabel}</vscode-option>
      ${options.map((o) => html`<vscode-option value=${o.value} ?selected=${o.value === value}>${o.label}</vscode-option>`)}
    </vscode-single-select>`;
  }

  private onSearch(value: string): void {
    clearTimeout(this.searchTimer);
    this.searchTimer = setTimeout(() => this.change({ search: value }), SEARCH_DEBOUNCE_MS);
  }

  private onSearchKey = (event: KeyboardEvent): void => {
    // Down arrow or Enter leaves the search for the list, so a search is followed by keyboard navigation.
    if (event.key === 'ArrowDown' || event.key === 'Enter') {
      event.preventDefault();
      clearTimeout(this.searchTimer);
      this.change({ search: (event.target as HTMLInputElement).value });
      this.dispatchEvent(new CustomEvent('ri-leave-search', { bubbles: true, composed: true }));
    } else if (event.key === 'Escape' && this.filters.search) {
      (event.target as HTMLInputElement).value = '';
      this.change({ search: '' });
    }
  };

  private change(patch: Partial<CaseFilters>): void {
    this.emit({ ...this.filters, ...patch }, this.sort);
  }

  private emit(filters: CaseFilters, sort: SortKey): void {
    this.dispatchEvent(new CustomEvent<FiltersChangedDetail>('ri-filters-changed', { detail: { filters, sort }, bubbles: true, composed: true }));
  }
}

customElements.define('ri-case-filters', CaseFiltersBar);

declare global {
  interface HTMLElementTagNameMap { 'ri-case-filters': CaseFiltersBar }
}
