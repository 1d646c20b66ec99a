// The inspector shell: composes the parts' state (webview/controllers: run picker, summary, case list, case view,
// compare, explanations, verdicts), owns navigation (view state), the header, global shortcuts and the views' layout.
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { CancelRun, ExportImage, GetCase, OpenDatasetRow, OpenTemplate, RerunCase, Reveal, RunStarted, ShowCompare } from '../../src/protocol.js';
import type { CaseDetail, RunListing } from '../../src/protocol.js';
import { aggregateSuites } from '../../src/core/explain/aggregate.js';
import type { InspectorApi } from '../api/inspectorApi.js';
import { describeError } from '../api/inspectorApi.js';
import { runStatusLabel } from '../../src/core/model.js';
import { causeLine } from '../../src/core/errorCauses.js';
import { INITIAL_VIEW_STATE, VIEW_STATE_VERSION, restoreViewState } from '../state/viewState.js';
import type { ViewName, ViewState } from '../state/viewState.js';
import type { AppContext } from '../controllers/appContext.js';
import { RunPickerState } from '../controllers/runPicker.js';
import { SummaryState } from '../controllers/summary.js';
import type { BatchState } from '../controllers/summary.js';
import { CaseListState } from '../controllers/caseList.js';
import { CaseViewState } from '../controllers/caseView.js';
import { CompareState } from '../controllers/compare.js';
import { ExplanationsState } from '../controllers/explanations.js';
import { VerdictsState } from '../controllers/verdicts.js';
import type { CaseList } from './caseList.js';
import type { FiltersChangedDetail } from './caseFilters.js';
import type { FilterCasesDetail } from './barChart.js';
import { EMPTY_FILTERS } from '../state/caseQuery.js';
import type { CompareSelection } from './compareView.js';
import type { ExportImageDetail, ShowCaseDetail } from './heatmap.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { formatCount } from './format.js';
import './caseList.js';
import './caseView.js';
import './runSummary.js';
import './compareView.js';
import './verdictBar.js';
import './agreementView.js';
import './explanationSummary.js';
import type { VerdictRequestDetail } from './verdictBar.js';
import type { MarkCasesDetail } from './caseList.js';

const VIEWS: { name: ViewName; label: string }[] = [
  { name: 'summary', label: 'Summary' },
  { name: 'cases', label: 'Cases' },
  { name: 'compare', label: 'Compare' },
];

/** Elements in which a letter typed is text, not a shortcut. */
const TYPING_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT', 'VSCODE-TEXTFIELD', 'VSCODE-TEXTAREA', 'VSCODE-SINGLE-SELECT', 'VSCODE-MULTI-SELECT']);

export class InspectorApp extends LitElement {
  static override properties = {
    state: { state: true },
    error: { state: true },
  };

  state: ViewState = INITIAL_VIEW_STATE;
  error = '';

  /** What the parts share; `api` is set by start(). */
  private readonly context: AppContext = {
    api: undefined as unknown as InspectorApi,
    shownRun: () => this.state.runId,
    shownCase: () => this.state.caseKey,
    showError: (text) => { this.error = text; },
    changed: () => this.requestUpdate(),
  };
  private readonly picker = new RunPickerState(this.context);
  private readonly summary = new SummaryState(this.context);
  private readonly cases = new CaseListState(this.context);
  private readonly caseView = new CaseViewState(this.context);
  private readonly compare = new CompareState(this.context);
  private readonly explain = new ExplanationsState(this.context, (runId) => void this.reloadCauses(runId));
  private readonly verdicts = new VerdictsState(this.context);

  private quietRunCheck: ReturnType<typeof setInterval> | undefined;
  private firstRowsMarked = false;
  private unsubscribe: (() => void)[] = [];

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: grid; grid-template-rows: auto 1fr; height: 100vh; min-height: 0; }
    /* Sections the Summary view shows after the suites' reports, spaced as its own sections are. */
    section[slot="after"] { margin-top: 1.75em; }
    section[slot="after"] > h3 { margin-bottom: 0.6em; }
    header.bar {
      display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em 1em; padding: 0.4em 0.75em;
      border-bottom: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
    }
    .brand { font-weight: 600; }
    vscode-single-select.run { min-width: 18em; max-width: 32em; }
    [role='tablist'] { display: flex; gap: 0.25em; margin-inline-start: auto; }
    [role='tab'] {
      font: inherit; color: var(--vscode-foreground); background: none; cursor: pointer;
      border: none; border-bottom: 2px solid transparent; padding: 0.3em 0.6em;
    }
    [role='tab'][aria-selected='true'] { border-bottom-color: var(--vscode-focusBorder); font-weight: 600; }
    [role='tab']:hover { background: var(--vscode-list-hoverBackground); }
    .progress { font-variant-numeric: tabular-nums; }
    .badge.interrupted, .badge.completed-with-errors, .badge.completed-with-judge-errors { border: 1px solid var(--vscode-editorWarning-foreground); }
    /* On a line of its own under the run picker and tabs: the words a user acts on must not be cut. */
    .causes { color: var(--vscode-editorWarning-foreground); order: 10; flex-basis: 100%; }
    main { min-height: 0; overflow: hidden; }
    .cases { display: grid; grid-template-columns: minmax(280px, 36%) 1fr; height: 100%; min-height: 0; }
    ri-case-list {
      border-inline-end: 1px solid var(--vscode-panel-border, var(--vscode-widget-border, transparent));
      background: var(--vscode-sideBar-background, var(--vscode-editor-background));
    }
    .case-pane { overflow: auto; min-height: 0; }
    .banner {
      margin: 0.5em 0.75em; padding: 0.5em 0.75em; color: var(--vscode-errorForeground);
      background: var(--vscode-inputValidation-errorBackground); border: 1px solid var(--vscode-inputValidation-errorBorder);
    }
    .placeholder { padding: 2em; }
    kbd {
      font-family: var(--vscode-editor-font-family); padding: 0 0.3em; border-radius: 3px;
      border: 1px solid var(--vscode-widget-border, var(--vscode-descriptionForeground));
    }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onGlobalKey);
    this.addEventListener('ri-open-case', (e) => { this.cases.unmark(); void this.openCase((e as CustomEvent<{ key: string }>).detail.key); });
    this.addEventListener('ri-mark-cases', (e) => this.cases.mark((e as CustomEvent<MarkCasesDetail>).detail));
    this.addEventListener('ri-verdict', (e) => void this.verdicts.apply(this.cases.verdictTargets(), (e as CustomEvent<VerdictRequestDetail>).detail));
    this.addEventListener('ri-compare-open', (e) => { this.setView('cases'); void this.openCase((e as CustomEvent<{ key: string }>).detail.key, true); });
    this.addEventListener('ri-show-case', (e) => { this.setView('cases'); void this.openCase((e as CustomEvent<ShowCaseDetail>).detail.key, true); });
    this.addEventListener('ri-export-image', (e) => {
      const { fileName, dataUrl } = (e as CustomEvent<ExportImageDetail>).detail;
      this.api.command(ExportImage, { fileName, dataUrl });
    });
    this.addEventListener('ri-filters-changed', (e) => {
      const { filters, sort } = (e as CustomEvent<FiltersChangedDetail>).detail;
      this.saveState({ ...this.state, filters, sort });
    });
    this.addEventListener('ri-filter-cases', (e) => this.showCause((e as CustomEvent<FilterCasesDetail>).detail));
    this.addEventListener('ri-compare-select', (e) => this.saveState({ ...this.state, compare: (e as CustomEvent<CompareSelection>).detail }));
    this.addEventListener('ri-open-dataset-row', (e) => {
      const { file, line } = (e as CustomEvent<{ file: string; line: number }>).detail;
      this.api.command(OpenDatasetRow, { file, line });
    });
    this.addEventListener('ri-open-template', (e) => this.api.command(OpenTemplate, { file: (e as CustomEvent<{ file: string }>).detail.file }));
    this.addEventListener('ri-explain', () => { if (this.state.runId && this.state.caseKey) this.explain.explain(this.state.runId, this.state.caseKey); });
    this.addEventListener('ri-rerun', () => { if (this.state.runId && this.state.caseKey) this.api.command(RerunCase, { runId: this.state.runId, key: this.state.caseKey }); });
    this.addEventListener('ri-case-shown', () => {
      if (performance.getEntriesByName('ri-case-open', 'mark').length === 0) return;
      performance.measure('ri-case-switch', 'ri-case-open');
      performance.clearMarks('ri-case-open');
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onGlobalKey);
    this.picker.dispose();
    clearInterval(this.quietRunCheck);
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
  }

  get api(): InspectorApi {
    return this.context.api;
  }

  /** Wires the API, restores the saved navigation and loads the first run. */
  async start(api: InspectorApi): Promise<void> {
    this.context.api = api;
    this.state = restoreViewState(api.getViewState());
    // The app's own listeners first: a run that starts when none is shown is selected before the parts look at it.
    this.unsubscribe = [
      ...this.listen(),
      ...[this.picker, this.summary, this.cases, this.caseView, this.explain].flatMap((part) => part.listen()),
    ];
    api.start();
    if (api.canRunCommands) this.quietRunCheck = setInterval(() => void this.relistQuietRun(), QUIET_RUN_CHECK_MS);
    try {
      const runs = await this.picker.list();
      const runId = this.picker.has(this.state.runId ?? '') ? this.state.runId : runs[0]?.runId;
      if (runId) await this.selectRun(runId, true);
    } catch (error) {
      this.error = `Could not list runs: ${describeError(error)}`;
    } finally {
      this.picker.loaded();
    }
  }

  /** Notifications that move the navigation: a first run, Reveal and Compare Runs from the host. */
  private listen(): (() => void)[] {
    return [
      this.api.on(RunStarted, ({ runId }) => { if (!this.state.runId) void this.selectRun(runId, false); }),
      this.api.on(ShowCompare, ({ before, after }) => void (async () => {
        // The pair may include a run this view has not listed yet (a log opened from disk).
        if (![before, after].every((id) => this.picker.has(id))) {
          try { await this.picker.list(); } catch (error) { this.error = `Could not list runs: ${describeError(error)}`; }
        }
        this.saveState({ ...this.state, view: 'compare', compare: { before, after } });
      })()),
      this.api.on(Reveal, ({ runId, key }) => void (async () => {
        if (runId !== this.state.runId) await this.selectRun(runId, false);
        this.saveState({ ...this.state, view: key ? 'cases' : this.state.view });
        if (key) await this.openCase(key, true);
      })()),
    ];
  }

  override render() {
    const listing = this.summary.detail?.listing;
    const { failed, errors } = this.cases.failureCounts();
    const { progress, batches } = this.summary;
    return html`
      <header class="bar">
        <span class="brand">RAG Inspector</span>
        ${this.picker.runs.length ? html`<vscode-single-select class="run" aria-label="Run" .value=${this.state.runId ?? ''}
            @change=${(e: Event) => void this.selectRun((e.target as HTMLSelectElement).value, false)}>
          ${repeat(this.picker.runs, (r) => `${r.runId}\u0000${runLabel(r)}`, (r) => html`<vscode-option value=${r.runId} ?selected=${r.runId === this.state.runId}>${runLabel(r)}</vscode-option>`)}
        </vscode-single-select>` : nothing}
        ${listing?.interrupted
          ? html`<span class="badge interrupted" title=${INTERRUPTED_TITLE}>interrupted</span>`
          : listing ? html`<span class="badge ${listing.status}" title="Run status">${runStatusLabel(listing.status)}</span>` : nothing}
        ${this.causesNote()}
        ${progress && listing?.status === 'started' && !listing.interrupted ? html`<span class="progress muted" role="status">${formatCount(progress.done)} / ${formatCount(progress.total)} cases</span>` : nothing}
        ${batches && batches.open > 0 && listing?.status === 'started' ? html`<span class="progress muted batches" role="status"
          title="Batch mode: the vendor answers within its window (up to 24 hours); closing VS Code keeps the batches, Resume Interrupted Run collects them">${batchWords(batches)}</span>` : nothing}
        ${listing?.status === 'started' && this.api?.canRunCommands ? this.runAction(listing) : nothing}
        ${listing && this.api?.canRunCommands ? this.explainAction(listing, failed + errors) : nothing}
        <div role="tablist" aria-label="Views">
          ${VIEWS.map((v) => html`<button role="tab" id=${`tab-${v.name}`} aria-selected=${String(this.state.view === v.name)}
              tabindex=${this.state.view === v.name ? '0' : '-1'} @click=${() => this.setView(v.name)} @keydown=${this.onTabKey}>
            ${v.label}${v.name === 'cases' && this.summary.detail ? ` (${formatCount(this.cases.items.length)}${failed ? `, ${formatCount(failed)} failed` : ''}${errors ? `, ${formatCount(errors)} error${errors === 1 ? '' : 's'}` : ''})` : ''}
          </button>`)}
        </div>
      </header>
      <main role="tabpanel" aria-labelledby=${`tab-${this.state.view}`}>
        ${this.error ? html`<div class="banner" role="alert">${this.error}</div>` : nothing}
        ${this.renderView()}
      </main>
    `;
  }

  /** Cancel stops a run this window runs; a run nothing runs any more (see RunListing.interrupted) can only be resumed. */
  private runAction(listing: RunListing) {
    if (!listing.interrupted) return html`<vscode-button secondary @click=${() => this.api.command(CancelRun, { runId: listing.runId })}>Cancel run</vscode-button>`;
    const asked = this.picker.resumeAsked === listing.runId;
    return html`<vscode-button secondary ?disabled=${asked} aria-disabled=${String(asked)}
        title="Run its remaining cases into the same log (RAG Inspector: Resume Interrupted Run)"
        @click=${() => this.picker.askResume(listing.runId)}>${asked ? 'Resuming…' : 'Resume run'}</vscode-button>`;
  }

  /** Explain failed cases on a finished run; while an explanation runs on it, its progress and Cancel. */
  private explainAction(listing: RunListing, failures: number) {
    const running = this.explain.explaining;
    if (running?.runId === listing.runId) {
      const done = running.total === undefined ? 'starting' : `${formatCount(running.done)} / ${formatCount(running.total)} variant runs`;
      return html`<span class="progress muted" role="status">Explaining: ${done} · ${formatCount(running.plan.calls)} model calls planned</span>
        <vscode-button secondary @click=${() => this.explain.cancel(listing.runId)}
          title="Stop; finished variants are kept and Explain runs only the rest">Cancel explanation</vscode-button>`;
    }
    if (listing.status === 'started' || failures === 0) return nothing;
    return html`<vscode-button secondary ?disabled=${running !== undefined} aria-disabled=${String(running !== undefined)}
        title="Find which document, position or instruction made each failed case fail: the cost is shown first"
        @click=${() => { if (!this.explain.explaining) this.explain.explain(listing.runId); }}>Explain failed cases</vscode-button>`;
  }

  private renderView() {
    if (this.picker.loading) return html`<p class="muted placeholder">Loading…</p>`;
    if (this.picker.runs.length === 0) return html`<p class="muted placeholder">No runs yet. Run an evaluation (“RAG Inspector: Run Evaluation”) and it will appear here.</p>`;
    switch (this.state.view) {
      case 'summary': return this.summaryView();
      case 'compare': return this.compareView();
      default: return this.casesView();
    }
  }

  private summaryView() {
    const { explanations } = this.explain;
    return html`<ri-run-summary .detail=${this.summary.detail} .items=${this.cases.items} .loadCase=${this.loadCase}
          ?can-run-commands=${this.api.canRunCommands}>${explanations.size ? html`<section slot="after" class="explained" aria-labelledby="explained-heading">
            <h3 id="explained-heading">Explained cases</h3><ri-explanation-summary .suites=${aggregateSuites([...explanations.values()])}></ri-explanation-summary></section>` : nothing}${this.verdicts.readable ? html`<section slot="after" class="agreement" aria-label="Judge agreement with your verdicts">
            <h3>Judge vs. your verdicts</h3><ri-agreement-view .verdicts=${this.verdicts.view}></ri-agreement-view></section>` : nothing}</ri-run-summary>`;
  }

  private compareView() {
    const { compare } = this;
    return html`<ri-compare-view .runs=${this.picker.runs} .selection=${this.compareSelection()} .rows=${compare.rows} .paired=${compare.paired}
          ?loading=${compare.loading} .error=${compare.error}></ri-compare-view>`;
  }

  private casesView() {
    const key = this.state.caseKey;
    const targets = this.cases.verdictTargets();
    const { explanations, explainRuns, explaining } = this.explain;
    return html`<div class="cases">
          <ri-case-list .items=${this.cases.items} .filters=${this.state.filters} .sort=${this.state.sort} .openKey=${key} .marked=${this.cases.marked} .human=${this.verdicts.view?.cases ?? {}}></ri-case-list>
          <div class="case-pane">
            ${this.verdicts.writable && targets.length > 0 ? html`<ri-verdict-bar .verdict=${key ? this.verdicts.view?.cases[key] : undefined}
              .count=${targets.length} ?busy=${this.verdicts.busy}></ri-verdict-bar>` : nothing}
            <ri-case-view .detail=${this.caseView.detail} ?loading=${this.caseView.loading} .error=${this.caseView.error}
              ?can-run-commands=${this.api.canRunCommands} .explanation=${key ? explanations.get(key) : undefined}
              .explainRuns=${key ? explainRuns.get(key) : undefined}
              ?explaining=${explaining !== undefined}></ri-case-view>
          </div>
        </div>`;
  }

  override updated(): void {
    if (this.state.view === 'compare') void this.compare.load(this.compareSelection());
    if (!this.firstRowsMarked && this.state.view === 'cases' && this.cases.items.length > 0) {
      const list = this.caseList();
      if (list) {
        this.firstRowsMarked = true;
        void list.updateComplete.then(() => performance.mark('ri-first-rows'));
      }
    }
  }

  /**
   * A 'started' run this window is not running (a terminal's, or one whose window died) becomes interrupted only
   * when its log has been quiet for a while, which the host decides when it lists runs: ask again now and then, so
   * the badge and Resume run appear without reopening the panel.
   */
  private async relistQuietRun(): Promise<void> {
    const shown = this.summary.detail?.listing.runId;
    if (!shown || !this.summary.isQuiet()) return;
    try {
      const runs = await this.picker.list();
      this.summary.relisted(runs.find((r) => r.runId === shown));
    } catch {
      // the next tick asks again; a failed background check is not worth a banner
    }
  }

  // ——— navigation ———

  private async selectRun(runId: string, restoring: boolean): Promise<void> {
    if (!runId) return;
    const keepCase = restoring ? this.state.caseKey : undefined;
    this.saveState({ ...this.state, runId, caseKey: keepCase });
    this.caseView.clear();
    this.error = '';
    void this.explain.load(runId);
    const detail = await this.summary.load(runId);
    if (!detail) return;
    this.cases.show(detail.cases);
    this.cases.unmark();
    void this.verdicts.load(runId);
    if (keepCase && detail.cases.some((c) => c.key === keepCase)) {
      await this.openCase(keepCase, true);
    } else if (keepCase) {
      this.saveState({ ...this.state, caseKey: undefined });
    }
  }

  private async openCase(key: string, reveal = false): Promise<void> {
    const runId = this.state.runId;
    if (!runId) return;
    performance.clearMarks('ri-case-open');
    performance.mark('ri-case-open');
    this.saveState({ ...this.state, caseKey: key });
    if (reveal) void this.updateComplete.then(() => this.caseList()?.revealKey(key));
    await this.caseView.load(runId, key);
  }

  /** After Explain, the run's list and failure split again: the host lists Explain's causes of the explained cases. */
  private async reloadCauses(runId: string): Promise<void> {
    const detail = await this.summary.reload(runId);
    if (detail) this.cases.show(detail.cases);
  }

  private compareSelection(): CompareSelection | undefined {
    return CompareState.selection(this.state.compare, this.picker.runs, this.state.runId);
  }

  /** A bar of a failure split: the case list with exactly that bar's cases (its suite, cause and, when the bar is one model's, that model). */
  private showCause({ cause, suiteId, column }: FilterCasesDetail): void {
    const model = this.summary.detail?.listing.models.includes(column) ? column : '';
    this.saveState({ ...this.state, view: 'cases', filters: { ...EMPTY_FILTERS, suite: suiteId, model, cause } });
    void this.updateComplete.then(() => this.caseList()?.focusList());
  }

  private setView(view: ViewName): void {
    if (this.state.view === view) return;
    this.saveState({ ...this.state, view });
    if (view === 'cases' && this.state.caseKey) {
      const key = this.state.caseKey;
      void this.updateComplete.then(() => this.caseList()?.revealKey(key));
    }
  }

  // ——— keyboard ———

  private onGlobalKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTyping(event)) return;
    if (event.key === '/') {
      event.preventDefault();
      this.setView('cases');
      void this.updateComplete.then(() => this.caseList()?.focusSearch());
    } else if ((event.key === 'y' || event.key === 'x' || event.key === 'c') && this.state.view === 'cases' && this.verdicts.writable && this.cases.verdictTargets().length > 0) {
      event.preventDefault();
      if (event.key === 'c') this.renderRoot.querySelector('ri-verdict-bar')?.startComment();
      else void this.verdicts.apply(this.cases.verdictTargets(), { label: event.key === 'y' ? 'correct' : 'wrong' });
    } else if (event.key === 'n' || event.key === 'p') {
      event.preventDefault();
      this.setView('cases');
      void this.updateComplete.then(() => {
        const list = this.caseList();
        if (!list) return;
        void list.updateComplete.then(() => {
          list.openFailure(event.key === 'n' ? 1 : -1);
          list.focusList();
        });
      });
    }
  };

  private onTabKey = (event: KeyboardEvent): void => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const index = VIEWS.findIndex((v) => v.name === this.state.view);
    const next = VIEWS[(index + (event.key === 'ArrowRight' ? 1 : VIEWS.length - 1)) % VIEWS.length]!;
    this.setView(next.name);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>(`#tab-${next.name}`)?.focus());
  };

  // ——— helpers ———

  /** Stable, so the summary's heatmaps do not re-render for a new function each time. */
  private loadCase = (key: string): Promise<CaseDetail> => {
    const runId = this.state.runId;
    return runId ? this.api.request(GetCase, { runId, key }) : Promise.reject(new Error('no run selected'));
  };

  private saveState(state: ViewState): void {
    this.state = { ...state, v: VIEW_STATE_VERSION };
    const { caseKey, runId, compare, ...rest } = this.state;
    // Only defined keys are stored: setState round-trips through JSON.
    this.api.setViewState({ ...rest, ...(runId ? { runId } : {}), ...(caseKey ? { caseKey } : {}), ...(compare ? { compare } : {}) });
  }

  private caseList(): CaseList | null {
    return this.renderRoot.querySelector('ri-case-list');
  }

  /** The first cause of the run's errors and its fix, as the CLI prints it; every cause in the tooltip. */
  private causesNote() {
    const causes = this.summary.detail?.errorCauses ?? [];
    const [first] = causes;
    if (!first) return nothing;
    const errors = causes.reduce((sum, c) => sum + c.count, 0);
    const more = causes.length > 1 ? ` (+${causes.length - 1} other cause${causes.length === 2 ? '' : 's'})` : '';
    const all = causes.map((c) => `${c.count} × ${causeLine(c)} (first: ${c.firstCaseId} on ${c.firstModelKey})`).join('\n');
    return html`<span class="causes" role="note" title=${all}>⚠ ${formatCount(errors)} error${errors === 1 ? '' : 's'}: ${causeLine(first)}${more}</span>`;
  }
}

function isTyping(event: KeyboardEvent): boolean {
  return event.composedPath().some((target) => {
    const element = target as HTMLElement;
    return TYPING_TAGS.has(element.tagName) || element.isContentEditable === true;
  });
}

/**
 * The picker's text for a run. It is also the option's key: vscode-single-select copies option labels when its slot
 * changes and never sees a text edit inside an option, so a label that changes (started → success) must come
 * with a new option element.
 */
function runLabel(run: RunListing): string {
  return `${run.name} · ${run.interrupted ? 'interrupted' : runStatusLabel(run.status)} · ${new Date(run.createdAt).toLocaleString()}`;
}

/** How often the view asks whether a quiet 'started' run it shows is interrupted by now (see relistQuietRun). */
const QUIET_RUN_CHECK_MS = 30_000;
const INTERRUPTED_TITLE = 'Run status: nothing is writing this run any more (the window or terminal running it closed). Resume runs its remaining cases.';

customElements.define('rag-inspector-app', InspectorApp);

declare global {
  interface HTMLElementTagNameMap { 'rag-inspector-app': InspectorApp }
}

/** "vendor batch: 120 / 400 requests done" — several: "2 of 3 vendor batches open: …". */
export function batchWords(b: BatchState): string {
  const which = b.batches === 1 ? 'vendor batch' : `${b.open} of ${b.batches} vendor batches open`;
  return `${which}: ${formatCount(b.done)} / ${formatCount(b.total)} requests done`;
}
