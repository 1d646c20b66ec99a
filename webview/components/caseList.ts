// The case list: filters plus a virtualised, keyboard-driven list that renders only the rows in view.
import { LitElement, css, html, nothing } from 'lit';
import type { CaseListItem } from '../../src/protocol.js';
import { outcomeOf } from '../../src/core/model.js';
import type { Outcome } from '../../src/core/model.js';
import { CAUSE_WORDS } from '../state/retrieval.js';
import { EMPTY_FILTERS, filterOptions, nextFailure, queryCases, visibleRange } from '../state/caseQuery.js';
import type { CaseFilters, FilterOptions, SortKey } from '../state/caseQuery.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { styleProps } from './styleProps.js';
import { formatNumber } from './format.js';
import './caseFilters.js';

/** Fixed row height is what makes virtualisation exact: row i sits at i × ROW_HEIGHT. */
export const ROW_HEIGHT = 44;
/** Rows rendered beyond each edge, so a slow scroll never shows a blank band; few, since each costs style work. */
const OVERSCAN = 4;

const GLYPH: Record<Outcome, string> = { pass: '✓', fail: '✗', error: '⚠', none: '–' };
const OUTCOME_WORD: Record<Outcome, string> = { pass: 'passed', fail: 'failed', error: 'error', none: 'no verdict' };

export interface OpenCaseDetail { key: string }

export class CaseList extends LitElement {
  static override properties = {
    items: { attribute: false },
    filters: { attribute: false },
    sort: { type: String },
    openKey: { type: String, attribute: false },
    marked: { attribute: false },
    human: { attribute: false },
    cursor: { state: true },
    scrollOffset: { state: true },
    viewportHeight: { state: true },
  };

  items: CaseListItem[] = [];
  filters: CaseFilters = EMPTY_FILTERS;
  sort: SortKey = 'run';
  openKey: string | undefined;
  /** Cases marked for a verdict on several at once (the inspector owns the set). */
  marked: ReadonlySet<string> = new Set();
  /** A person's verdicts by case key (core/verdicts), shown beside the score. */
  human: Readonly<Record<string, { label: 'correct' | 'wrong' | null; stale: boolean }>> = {};
  /** Index into the visible (filtered, sorted) rows of the keyboard cursor; -1 before any move. */
  cursor = -1;
  scrollOffset = 0;
  viewportHeight = 600;

  private visible: CaseListItem[] = [];
  private options: FilterOptions = { suites: [], models: [], roles: [], causes: [] };
  private optionsOf: CaseListItem[] | undefined;
  private resizeObserver = new ResizeObserver((entries) => {
    const height = entries[0]?.contentRect.height;
    if (height) this.viewportHeight = height;
  });
  private scrollFrame = 0;

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: flex; flex-direction: column; min-height: 0; height: 100%; }
    .viewport { flex: 1; min-height: 0; overflow-y: auto; position: relative; outline: none; contain: strict; }
    .viewport:focus-visible .row.cursor, .viewport:focus .row.cursor {
      outline: 1px solid var(--vscode-list-focusOutline, var(--vscode-focusBorder)); outline-offset: -1px;
    }
    .spacer { position: relative; width: 100%; }
    .row {
      position: absolute; top: 0; left: 0; right: 0; height: ${ROW_HEIGHT}px;
      padding: 3px 0.6em; display: grid; grid-template-columns: 1.4em 1fr auto; grid-template-rows: 1fr 1fr;
      column-gap: 0.4em; align-items: center; cursor: pointer;
      border-bottom: 1px solid var(--vscode-widget-border, transparent);
      border-left: 3px solid transparent;
    }
    .row:hover { background: var(--vscode-list-hoverBackground); }
    .row.open {
      background: var(--vscode-list-activeSelectionBackground); color: var(--vscode-list-activeSelectionForeground);
      border-left-color: var(--vscode-contrastActiveBorder, var(--vscode-focusBorder));
    }
    .glyph { grid-row: 1 / span 2; text-align: center; font-size: 1.1em; }
    .id, .sub { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
    .id { font-weight: 600; }
    .sub { grid-column: 2 / span 2; font-size: 0.92em; }
    .row.open .sub { color: inherit; }
    .human { font-size: 0.85em; }
    .human.correct { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); }
    .human.wrong { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); }
    .human.stale { opacity: 0.55; }
    .row.marked { background: var(--vscode-list-inactiveSelectionBackground); border-left-color: var(--vscode-list-highlightForeground, var(--vscode-focusBorder)); }
    .score { font-variant-numeric: tabular-nums; }
    .empty { padding: 1.5em 1em; }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('ri-leave-search', () => {
      if (this.cursor < 0 && this.visible.length > 0) this.cursor = 0;
      this.focusList();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver.disconnect();
  }

  override firstUpdated(): void {
    const viewport = this.viewport();
    if (viewport) this.resizeObserver.observe(viewport);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('items') || changed.has('filters') || changed.has('sort')) {
      const previousKey = this.visible[this.cursor]?.key;
      this.visible = queryCases(this.items, this.filters, this.sort);
      if (this.optionsOf !== this.items) { this.options = filterOptions(this.items); this.optionsOf = this.items; }
      // The cursor follows its case through re-filtering; when the case is filtered out it goes to the top.
      const key = previousKey ?? this.openKey;
      const index = key === undefined ? -1 : this.visible.findIndex((item) => item.key === key);
      this.cursor = index >= 0 ? index : this.visible.length > 0 && previousKey !== undefined ? 0 : -1;
    }
  }

  /** Moves keyboard focus into the list. */
  focusList(): void {
    this.viewport()?.focus();
  }

  focusSearch(): void {
    this.renderRoot.querySelector('ri-case-filters')?.focusSearch();
  }

  /** `n` / `p`: open the next / previous failure in the current order, wrapping. */
  openFailure(direction: 1 | -1): boolean {
    const from = this.cursor >= 0 ? this.cursor : direction === 1 ? -1 : this.visible.length;
    const index = nextFailure(this.visible, from, direction);
    if (index < 0) return false;
    this.moveCursor(index);
    this.open(index);
    return true;
  }

  /** Puts the cursor on a case (a Reveal from the host, a restored view state) and scrolls to it. */
  revealKey(key: string): void {
    const index = this.visible.findIndex((item) => item.key === key);
    if (index >= 0) this.moveCursor(index);
  }

  get visibleCount(): number { return this.visible.length; }

  override render() {
    const count = this.visible.length;
    const { first, last } = visibleRange(this.scrollOffset, this.viewportHeight, ROW_HEIGHT, count, OVERSCAN);
    // Row elements are recycled by slot (index modulo the rendered count): scrolling rewrites a few text nodes
    // instead of creating elements, which matters when a 100,000-case heap makes every collection expensive. An
    // item keeps its slot while it stays rendered, so a click aimed at a visible row cannot land on another case.
    const pool = last - first + 1;
    const slots: number[] = new Array<number>(Math.max(0, pool));
    for (let i = first; i <= last; i++) slots[i % pool] = i;
    return html`
      <ri-case-filters .options=${this.options} .filters=${this.filters} .sort=${this.sort} .shown=${count} .total=${this.items.length}></ri-case-filters>
      <div class="viewport" role="listbox" tabindex="0" aria-label="Cases"
        aria-activedescendant=${this.cursor >= 0 ? `row-${this.cursor}` : nothing}
        @scroll=${this.onScroll} @keydown=${this.onKeydown}>
        ${count === 0 ? html`<p class="muted empty">${this.items.length === 0 ? 'No cases yet.' : 'No case matches these filters.'}</p>` : nothing}
        <div class="spacer" ${styleProps({ height: `${count * ROW_HEIGHT}px` })}>
          ${slots.map((i) => this.renderRow(this.visible[i]!, i, count))}
        </div>
      </div>
    `;
  }

  private renderRow(item: CaseListItem, index: number, count: number) {
    const outcome = outcomeOf(item);
    const classes = `row${index === this.cursor ? ' cursor' : ''}${item.key === this.openKey ? ' open' : ''}${this.marked.has(item.key) ? ' marked' : ''}`;
    return html`<div class=${classes} id=${`row-${index}`} role="option" data-key=${item.key} data-case=${item.caseId} data-model=${item.modelKey} data-outcome=${outcome}
        aria-selected=${String(item.key === this.openKey)} aria-posinset=${index + 1} aria-setsize=${count}
        aria-label=${`${item.caseId}, ${item.modelKey}, ${OUTCOME_WORD[outcome]}${item.cause ? `, ${CAUSE_WORDS[item.cause]}` : ''}${item.summary ? `, ${item.summary}` : ''}`}
        ${styleProps({ transform: `translateY(${index * ROW_HEIGHT}px)` })}
        @click=${(event: MouseEvent) => this.onRowClick(event, index)}>
      <span class="glyph outcome ${outcome}" title=${OUTCOME_WORD[outcome]} aria-hidden="true">${GLYPH[outcome]}</span>
      <span class="id mono">${item.caseId}</span>
      <span class="score mono muted">${this.humanMark(item.key)}${typeof item.score === 'number' ? formatNumber(item.score) : ''}</span>
      <span class="sub muted">${item.truncated ? html`<span class="badge cut" title="The model stopped at its token limit: the answer is incomplete">cut</span> ` : nothing}${item.cause ? html`<span class="badge cause" data-cause=${item.cause} title="Why it failed">${CAUSE_WORDS[item.cause]}</span> ` : nothing}${item.modelKey} · ${item.summary || item.question}</span>
    </div>`;
  }

  private onScroll = (event: Event): void => {
    const target = event.currentTarget as HTMLElement;
    // One render per frame however many scroll events arrive.
    if (this.scrollFrame) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = 0;
      this.scrollOffset = target.scrollTop;
    });
  };

  private onKeydown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const count = this.visible.length;
    if (count === 0) return;
    const page = Math.max(1, Math.floor(this.viewportHeight / ROW_HEIGHT) - 1);
    let target: number | undefined;
    switch (event.key) {
      case 'ArrowDown': target = Math.min(count - 1, this.cursor + 1); break;
      case 'ArrowUp': target = Math.max(0, this.cursor - 1); break;
      case 'PageDown': target = Math.min(count - 1, Math.max(0, this.cursor) + page); break;
      case 'PageUp': target = Math.max(0, this.cursor - page); break;
      case 'Home': target = 0; break;
      case 'End': target = count - 1; break;
      case 'Enter':
      case ' ':
        if (this.cursor >= 0) { event.preventDefault(); this.open(this.cursor); }
        return;
      default: return;
    }
    event.preventDefault();
    this.moveCursor(target);
  };

  private moveCursor(index: number): void {
    this.cursor = index;
    const viewport = this.viewport();
    if (!viewport) return;
    const top = index * ROW_HEIGHT;
    // Scroll just enough to bring the row into view, as native lists do.
    if (top < viewport.scrollTop) viewport.scrollTop = top;
    else if (top + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = top + ROW_HEIGHT - viewport.clientHeight;
    this.scrollOffset = viewport.scrollTop;
  }

  private humanMark(key: string) {
    const verdict = this.human[key];
    if (!verdict?.label) return nothing;
    const word = `you: ${verdict.label}${verdict.stale ? ' (stale: the response changed)' : ''}`;
    return html`<span class="human ${verdict.label}${verdict.stale ? ' stale' : ''}" title=${word} aria-label=${word}>you ${verdict.label === 'correct' ? '✓' : '✗'}${verdict.stale ? '?' : ''} </span>`;
  }

  /** Ctrl/⌘-click marks a case for a verdict on several at once, Shift-click a range from the cursor; a plain click opens. */
  private onRowClick(event: MouseEvent, index: number): void {
    const mark = (keys: string[]) => this.dispatchEvent(new CustomEvent<MarkCasesDetail>('ri-mark-cases', { detail: { keys, toggle: keys.length === 1 }, bubbles: true, composed: true }));
    if (event.ctrlKey || event.metaKey) {
      const item = this.visible[index];
      if (item) mark([item.key]);
    } else if (event.shiftKey && this.cursor >= 0) {
      const [from, to] = [Math.min(this.cursor, index), Math.max(this.cursor, index)];
      mark(this.visible.slice(from, to + 1).map((i) => i.key));
    } else {
      this.moveCursor(index);
      this.open(index);
      return;
    }
    this.moveCursor(index);
  }

  private open(index: number): void {
    const item = this.visible[index];
    if (!item) return;
    this.dispatchEvent(new CustomEvent<OpenCaseDetail>('ri-open-case', { detail: { key: item.key }, bubbles: true, composed: true }));
  }

  private viewport(): HTMLElement | null {
    return this.renderRoot?.querySelector<HTMLElement>('.viewport') ?? null;
  }
}

/** Cases marked for a verdict: one toggled (Ctrl/⌘-click) or a range added (Shift-click). */
export interface MarkCasesDetail {
  keys: string[];
  toggle: boolean;
}

customElements.define('ri-case-list', CaseList);

declare global {
  interface HTMLElementTagNameMap { 'ri-case-list': CaseList }
}
