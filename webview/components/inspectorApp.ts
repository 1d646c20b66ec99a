// The inspector shell: run picker, views (summary, cases, compare), global shortcuts, live updates, view state.
import { LitElement, css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CaseDetail, CaseExplanation, CaseListItem, CompareRow, ExplainPlan, RunDetail, RunListing, VariantOutcome, VerdictsView } from '../../src/protocol.js';
import { explanationsByKey, withOutcome } from '../state/explanation.js';
import { aggregateSuites } from '../../src/core/explain/aggregate.js';
import type { InspectorApi, InspectorNotification } from '../api/inspectorApi.js';
import { describeError } from '../api/inspectorApi.js';
import { flippedOnly } from '../api/compareRuns.js';
import { pairedVerdicts } from '../../src/core/report/pairedRows.js';
import type { PairedVerdicts } from '../../src/core/report/pairedRows.js';
import { outcomeOf, runStatusLabel } from '../../src/core/model.js';
import { causeLine } from '../../src/core/errorCauses.js';
import { INITIAL_VIEW_STATE, VIEW_STATE_VERSION, restoreViewState } from '../state/viewState.js';
import type { ViewName, ViewState } from '../state/viewState.js';
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
    runs: { state: true },
    detail: { state: true },
    items: { state: true },
    state: { state: true },
    caseDetail: { state: true },
    caseLoading: { state: true },
    caseError: { state: true },
    compareRows: { state: true },
    comparePaired: { state: true },
    compareLoading: { state: true },
    compareError: { state: true },
    progress: { state: true },
    batches: { state: true },
    resumeAsked: { state: true },
    explanations: { state: true },
    explainRuns: { state: true },
    explaining: { state: true },
    error: { state: true },
    loading: { state: true },
    verdicts: { state: true },
    marked: { state: true },
    verdictBusy: { state: true },
  };

  api!: InspectorApi;
  runs: RunListing[] = [];
  detail: RunDetail | undefined;
  /** The run's case rows; replaced (never mutated) when live results arrive so the list notices. */
  items: CaseListItem[] = [];
  state: ViewState = INITIAL_VIEW_STATE;
  caseDetail: CaseDetail | undefined;
  caseLoading = false;
  caseError = '';
  compareRows: CompareRow[] | undefined;
  /** The paired verdict of the two runs' case verdicts, per suite and model. */
  comparePaired: PairedVerdicts | undefined;
  compareLoading = false;
  compareError = '';
  progress: { done: number; total: number } | undefined;
  /** Batch mode: the running run's vendor batches, while one is open (no case finishes until its results come). */
  batches: { open: number; batches: number; done: number; total: number } | undefined;
  /** The run whose Resume run was just clicked, until it starts again (see askResume). */
  resumeAsked: string | undefined;
  error = '';
  loading = true;
  /** The shown run's explained cases, by list key: stored ones when the run opens, then each as it is explained. */
  explanations: ReadonlyMap<string, CaseExplanation> = new Map();
  /** Cases being explained: their variant runs' outcomes so far (cards show leave-one-out's at once). */
  explainRuns: ReadonlyMap<string, ReadonlyMap<string, VariantOutcome>> = new Map();
  /** The explanation running on a run, after its cost was accepted; `total` comes with the first variant run. */
  explaining: { runId: string; plan: ExplainPlan; done: number; total?: number } | undefined;
  /** Human verdicts on the shown run, when the host keeps them (core/verdicts). */
  verdicts: VerdictsView | undefined;
  /** Cases marked (Ctrl/⌘- or Shift-click) for a verdict on several at once. */
  marked: ReadonlySet<string> = new Set();
  verdictBusy = false;

  private resumeAskedTimer: ReturnType<typeof setTimeout> | undefined;
  private quietRunCheck: ReturnType<typeof setInterval> | undefined;
  private caseRequest = 0;
  private compareKey = '';
  private pendingItems: CaseListItem[] = [];
  private flushFrame = 0;
  private firstRowsMarked = false;
  private unsubscribe: (() => void) | undefined;

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
    this.addEventListener('ri-open-case', (e) => { this.marked = new Set(); void this.openCase((e as CustomEvent<{ key: string }>).detail.key); });
    this.addEventListener('ri-mark-cases', (e) => this.markCases((e as CustomEvent<MarkCasesDetail>).detail));
    this.addEventListener('ri-verdict', (e) => void this.applyVerdict((e as CustomEvent<VerdictRequestDetail>).detail));
    this.addEventListener('ri-compare-open', (e) => { this.setView('cases'); void this.openCase((e as CustomEvent<{ key: string }>).detail.key, true); });
    this.addEventListener('ri-show-case', (e) => { this.setView('cases'); void this.openCase((e as CustomEvent<ShowCaseDetail>).detail.key, true); });
    this.addEventListener('ri-export-image', (e) => {
      const { fileName, dataUrl } = (e as CustomEvent<ExportImageDetail>).detail;
      this.api.exportImage(fileName, dataUrl);
    });
    this.addEventListener('ri-filters-changed', (e) => {
      const { filters, sort } = (e as CustomEvent<FiltersChangedDetail>).detail;
      this.saveState({ ...this.state, filters, sort });
    });
    this.addEventListener('ri-filter-cases', (e) => this.showCause((e as CustomEvent<FilterCasesDetail>).detail));
    this.addEventListener('ri-compare-select', (e) => this.saveState({ ...this.state, compare: (e as CustomEvent<CompareSelection>).detail }));
    this.addEventListener('ri-open-dataset-row', (e) => {
      const { file, line } = (e as CustomEvent<{ file: string; line: number }>).detail;
      this.api.openDatasetRow(file, line);
    });
    this.addEventListener('ri-open-template', (e) => this.api.openTemplate((e as CustomEvent<{ file: string }>).detail.file));
    this.addEventListener('ri-explain', () => { if (this.state.runId && this.state.caseKey) this.api.explain(this.state.runId, this.state.caseKey); });
    this.addEventListener('ri-rerun', () => { if (this.state.runId && this.state.caseKey) this.api.rerunCase(this.state.runId, this.state.caseKey); });
    this.addEventListener('ri-case-shown', () => {
      if (performance.getEntriesByName('ri-case-open', 'mark').length === 0) return;
      performance.measure('ri-case-switch', 'ri-case-open');
      performance.clearMarks('ri-case-open');
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('keydown', this.onGlobalKey);
    clearTimeout(this.resumeAskedTimer);
    clearInterval(this.quietRunCheck);
    this.unsubscribe?.();
  }

  /** Wires the API, restores the saved navigation and loads the first run. */
  async start(api: InspectorApi): Promise<void> {
    this.api = api;
    this.state = restoreViewState(api.getViewState());
    this.unsubscribe = api.onNotification((n) => this.onNotification(n));
    api.start();
    if (api.canRunCommands) this.quietRunCheck = setInterval(() => void this.relistQuietRun(), QUIET_RUN_CHECK_MS);
    try {
      this.runs = sortRuns(await api.listRuns());
      const runId = this.runs.some((r) => r.runId === this.state.runId) ? this.state.runId : this.runs[0]?.runId;
      if (runId) await this.selectRun(runId, true);
    } catch (error) {
      this.error = `Could not list runs: ${describeError(error)}`;
    } finally {
      this.loading = false;
    }
  }

  override render() {
    const listing = this.detail?.listing;
    const { failed, errors } = this.failureCounts();
    return html`
      <header class="bar">
        <span class="brand">RAG Inspector</span>
        ${this.runs.length ? html`<vscode-single-select class="run" aria-label="Run" .value=${this.state.runId ?? ''}
            @change=${(e: Event) => void this.selectRun((e.target as HTMLSelectElement).value, false)}>
          ${repeat(this.runs, (r) => `${r.runId}\u0000${runLabel(r)}`, (r) => html`<vscode-option value=${r.runId} ?selected=${r.runId === this.state.runId}>${runLabel(r)}</vscode-option>`)}
        </vscode-single-select>` : nothing}
        ${listing?.interrupted
          ? html`<span class="badge interrupted" title=${INTERRUPTED_TITLE}>interrupted</span>`
          : listing ? html`<span class="badge ${listing.status}" title="Run status">${runStatusLabel(listing.status)}</span>` : nothing}
        ${this.causesNote()}
        ${this.progress && listing?.status === 'started' && !listing.interrupted ? html`<span class="progress muted" role="status">${formatCount(this.progress.done)} / ${formatCount(this.progress.total)} cases</span>` : nothing}
        ${this.batches && this.batches.open > 0 && listing?.status === 'started' ? html`<span class="progress muted batches" role="status"
          title="Batch mode: the vendor answers within its window (up to 24 hours); closing VS Code keeps the batches, Resume Interrupted Run collects them">${batchWords(this.batches)}</span>` : nothing}
        ${listing?.status === 'started' && this.api?.canRunCommands ? this.runAction(listing) : nothing}
        ${listing && this.api?.canRunCommands ? this.explainAction(listing, failed + errors) : nothing}
        <div role="tablist" aria-label="Views">
          ${VIEWS.map((v) => html`<button role="tab" id=${`tab-${v.name}`} aria-selected=${String(this.state.view === v.name)}
              tabindex=${this.state.view === v.name ? '0' : '-1'} @click=${() => this.setView(v.name)} @keydown=${this.onTabKey}>
            ${v.label}${v.name === 'cases' && this.detail ? ` (${formatCount(this.items.length)}${failed ? `, ${formatCount(failed)} failed` : ''}${errors ? `, ${formatCount(errors)} error${errors === 1 ? '' : 's'}` : ''})` : ''}
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
    if (!listing.interrupted) return html`<vscode-button secondary @click=${() => this.api.cancelRun(listing.runId)}>Cancel run</vscode-button>`;
    const asked = this.resumeAsked === listing.runId;
    return html`<vscode-button secondary ?disabled=${asked} aria-disabled=${String(asked)}
        title="Run its remaining cases into the same log (RAG Inspector: Resume Interrupted Run)"
        @click=${() => this.askResume(listing.runId)}>${asked ? 'Resuming…' : 'Resume run'}</vscode-button>`;
  }

  /** Explain failed cases on a finished run; while an explanation runs on it, its progress and Cancel. */
  private explainAction(listing: RunListing, failures: number) {
    const running = this.explaining;
    if (running?.runId === listing.runId) {
      const done = running.total === undefined ? 'starting' : `${formatCount(running.done)} / ${formatCount(running.total)} variant runs`;
      return html`<span class="progress muted" role="status">Explaining: ${done} · ${formatCount(running.plan.calls)} model calls planned</span>
        <vscode-button secondary @click=${() => this.api.cancelExplain(listing.runId)}
          title="Stop; finished variants are kept and Explain runs only the rest">Cancel explanation</vscode-button>`;
    }
    if (listing.status === 'started' || failures === 0) return nothing;
    return html`<vscode-button secondary ?disabled=${running !== undefined} aria-disabled=${String(running !== undefined)}
        title="Find which document, position or instruction made each failed case fail: the cost is shown first"
        @click=${() => { if (!this.explaining) this.api.explain(listing.runId); }}>Explain failed cases</vscode-button>`;
  }

  /**
   * One click, one request: the button waits until the run starts again (RunStarted clears it). The host may instead
   * ask a question or refuse with a message of its own (a run in progress, the eval file changed), and sends nothing
   * back then, so the button comes back after RESUME_ASKED_MS.
   */
  private askResume(runId: string): void {
    if (this.resumeAsked === runId) return;
    this.resumeAsked = runId;
    clearTimeout(this.resumeAskedTimer);
    this.resumeAskedTimer = setTimeout(() => { this.resumeAsked = undefined; }, RESUME_ASKED_MS);
    this.api.resumeRun(runId);
  }

  private renderView() {
    if (this.loading) return html`<p class="muted placeholder">Loading…</p>`;
    if (this.runs.length === 0) return html`<p class="muted placeholder">No runs yet. Run an evaluation (“RAG Inspector: Run Evaluation”) and it will appear here.</p>`;
    switch (this.state.view) {
      case 'summary':
        return html`<ri-run-summary .detail=${this.detail} .items=${this.items} .loadCase=${this.loadCase}
          ?can-run-commands=${this.api.canRunCommands}>${this.explanations.size ? html`<section slot="after" class="explained" aria-labelledby="explained-heading">
            <h3 id="explained-heading">Explained cases</h3><ri-explanation-summary .suites=${aggregateSuites([...this.explanations.values()])}></ri-explanation-summary></section>` : nothing}${this.api.getVerdicts ? html`<section slot="after" class="agreement" aria-label="Judge agreement with your verdicts">
            <h3>Judge vs. your verdicts</h3><ri-agreement-view .verdicts=${this.verdicts}></ri-agreement-view></section>` : nothing}</ri-run-summary>`;
      case 'compare':
        return html`<ri-compare-view .runs=${this.runs} .selection=${this.compareSelection()} .rows=${this.compareRows} .paired=${this.comparePaired}
          ?loading=${this.compareLoading} .error=${this.compareError}></ri-compare-view>`;
      default:
        return html`<div class="cases">
          <ri-case-list .items=${this.items} .filters=${this.state.filters} .sort=${this.state.sort} .openKey=${this.state.caseKey} .marked=${this.marked} .human=${this.verdicts?.cases ?? {}}></ri-case-list>
          <div class="case-pane">
            ${this.api.setVerdicts && this.verdictTargets().length > 0 ? html`<ri-verdict-bar .verdict=${this.state.caseKey ? this.verdicts?.cases[this.state.caseKey] : undefined}
              .count=${this.verdictTargets().length} ?busy=${this.verdictBusy}></ri-verdict-bar>` : nothing}
            <ri-case-view .detail=${this.caseDetail} ?loading=${this.caseLoading} .error=${this.caseError}
              ?can-run-commands=${this.api.canRunCommands} .explanation=${this.state.caseKey ? this.explanations.get(this.state.caseKey) : undefined}
              .explainRuns=${this.state.caseKey ? this.explainRuns.get(this.state.caseKey) : undefined}
              ?explaining=${this.explaining !== undefined}></ri-case-view>
          </div>
        </div>`;
    }
  }

  override updated(): void {
    if (this.state.view === 'compare') void this.loadCompare();
    if (!this.firstRowsMarked && this.state.view === 'cases' && this.items.length > 0) {
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
    const shown = this.detail?.listing;
    if (!shown || shown.status !== 'started' || shown.interrupted || this.progress) return;
    let runs: RunListing[];
    try {
      runs = sortRuns(await this.api.listRuns());
    } catch {
      return; // the next tick asks again; a failed background check is not worth a banner
    }
    this.runs = runs;
    const listing = runs.find((r) => r.runId === shown.runId);
    if (listing && this.detail?.listing.runId === listing.runId) this.detail = { ...this.detail, listing };
  }

  // ——— navigation ———

  private async selectRun(runId: string, restoring: boolean): Promise<void> {
    if (!runId) return;
    const keepCase = restoring ? this.state.caseKey : undefined;
    this.saveState({ ...this.state, runId, caseKey: keepCase });
    this.caseDetail = undefined;
    this.caseError = '';
    this.error = '';
    this.explanations = new Map();
    this.explainRuns = new Map();
    void this.loadExplanation(runId);
    try {
      const detail = await this.api.getRun(runId);
      if (this.state.runId !== runId) return;
      this.detail = detail;
      this.items = detail.cases;
      this.progress = undefined;
      this.marked = new Set();
      void this.loadVerdicts(runId);
      if (keepCase && detail.cases.some((c) => c.key === keepCase)) {
        await this.openCase(keepCase, true);
      } else if (keepCase) {
        this.saveState({ ...this.state, caseKey: undefined });
      }
    } catch (error) {
      this.error = `Could not load run ${runId}: ${describeError(error)}`;
    }
  }

  /** After Explain, the run's list and failure split again: the host lists Explain's causes of the explained cases. */
  private async reloadCauses(runId: string): Promise<void> {
    try {
      const detail = await this.api.getRun(runId);
      if (this.state.runId !== runId) return; // another run is shown now
      this.detail = detail;
      this.items = detail.cases;
    } catch (error) {
      if (this.state.runId === runId) this.error = `Could not reload run ${runId} after Explain: ${describeError(error)}`;
    }
  }

  /** Explanations stored for the run (a run explained earlier, or by the CLI) show as soon as it opens. */
  private async loadExplanation(runId: string): Promise<void> {
    try {
      const stored = await this.api.getExplanation(runId);
      if (this.state.runId === runId) this.explanations = explanationsByKey(stored);
    } catch (error) {
      if (this.state.runId === runId) this.error = `Could not read the run's explanation: ${describeError(error)}`;
    }
  }

  /** A bar of a failure split: the case list with exactly that bar's cases (its suite, cause and, when the bar is one model's, that model). */
  private showCause({ cause, suiteId, column }: FilterCasesDetail): void {
    const model = this.detail?.listing.models.includes(column) ? column : '';
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

  private async openCase(key: string, reveal = false): Promise<void> {
    const runId = this.state.runId;
    if (!runId) return;
    performance.clearMarks('ri-case-open');
    performance.mark('ri-case-open');
    const request = ++this.caseRequest;
    this.saveState({ ...this.state, caseKey: key });
    this.caseLoading = true;
    this.caseError = '';
    if (reveal) void this.updateComplete.then(() => this.caseList()?.revealKey(key));
    try {
      const detail = await this.api.getCase(runId, key);
      // A later click wins over a slower earlier answer.
      if (request !== this.caseRequest) return;
      this.caseDetail = detail;
    } catch (error) {
      if (request !== this.caseRequest) return;
      this.caseDetail = undefined;
      this.caseError = `Could not load the case: ${describeError(error)}`;
    } finally {
      if (request === this.caseRequest) this.caseLoading = false;
    }
  }

  private compareSelection(): CompareSelection | undefined {
    if (this.state.compare) return this.state.compare;
    // Default: the selected run against the run before it (runs are newest first); the oldest run against the next.
    const index = Math.max(0, this.runs.findIndex((r) => r.runId === this.state.runId));
    const selected = this.runs[index];
    const older = this.runs[index + 1];
    const newer = this.runs[index - 1];
    if (selected && older) return { before: older.runId, after: selected.runId };
    if (selected && newer) return { before: selected.runId, after: newer.runId };
    return undefined;
  }

  private async loadCompare(): Promise<void> {
    const selection = this.compareSelection();
    const key = selection ? `${selection.before}\u0000${selection.after}` : '';
    if (key === this.compareKey) return;
    this.compareKey = key;
    this.compareRows = undefined;
    this.comparePaired = undefined;
    this.compareError = '';
    if (!selection) return;
    if (selection.before === selection.after) { this.compareError = 'Choose two different runs.'; return; }
    this.compareLoading = true;
    try {
      // Both runs' case lists give the paired verdict (every paired case counts, not only the flipped ones).
      const [rows, earlier, later] = await Promise.all([this.api.compareRuns(selection.before, selection.after), this.api.getRun(selection.before), this.api.getRun(selection.after)]);
      if (this.compareKey === key) {
        this.compareRows = flippedOnly(rows);
        this.comparePaired = pairedVerdicts(earlier.cases, later.cases);
      }
    } catch (error) {
      if (this.compareKey === key) this.compareError = `Could not compare: ${describeError(error)}`;
    } finally {
      if (this.compareKey === key) this.compareLoading = false;
    }
  }

  // ——— live updates ———

  private onNotification(n: InspectorNotification): void {
    switch (n.type) {
      case 'runStarted': {
        if (this.resumeAsked === n.params.runId) this.resumeAsked = undefined;
        this.runs = sortRuns([n.params.listing, ...this.runs.filter((r) => r.runId !== n.params.runId)]);
        if (!this.state.runId) void this.selectRun(n.params.runId, false);
        if (this.state.runId === n.params.runId) {
          this.progress = { done: 0, total: n.params.total };
          this.batches = undefined;
          // A resumed run starts again under its own id: it is no longer interrupted.
          if (this.detail?.listing.runId === n.params.runId) this.detail = { ...this.detail, listing: n.params.listing };
        }
        break;
      }
      case 'batchProgress': {
        if (n.params.runId === this.state.runId) this.batches = n.params;
        break;
      }
      case 'caseFinished': {
        if (n.params.runId !== this.state.runId) break;
        this.progress = { done: n.params.done, total: n.params.total };
        this.pendingItems.push(n.params.item);
        // Results can arrive hundreds per second; the list is rebuilt at most once per frame.
        if (!this.flushFrame) this.flushFrame = requestAnimationFrame(() => this.flushItems());
        break;
      }
      case 'runFinished': {
        const listing = n.params.detail.listing;
        this.runs = sortRuns(this.runs.map((r) => (r.runId === n.params.runId ? listing : r)));
        if (n.params.runId === this.state.runId) {
          this.pendingItems = [];
          this.detail = n.params.detail;
          this.items = n.params.detail.cases;
          this.progress = undefined;
          this.batches = undefined;
        }
        // A rerun may have changed the case on screen: fetch it again.
        if (n.params.runId === this.state.runId && this.state.caseKey) void this.openCase(this.state.caseKey);
        break;
      }
      case 'showCompare': {
        const { before, after } = n.params;
        void (async () => {
          // The pair may include a run this view has not listed yet (a log opened from disk).
          if (![before, after].every((id) => this.runs.some((r) => r.runId === id))) {
            try { this.runs = sortRuns(await this.api.listRuns()); } catch (error) { this.error = `Could not list runs: ${describeError(error)}`; }
          }
          this.saveState({ ...this.state, view: 'compare', compare: { before, after } });
        })();
        break;
      }
      case 'explainStarted': {
        this.explaining = { runId: n.params.runId, plan: n.params.plan, done: 0 };
        break;
      }
      case 'explainProgress': {
        const { runId, key, variantIds, outcome, done, total } = n.params;
        if (this.explaining?.runId === runId) this.explaining = { ...this.explaining, done, total };
        if (runId === this.state.runId) this.explainRuns = new Map(this.explainRuns).set(key, withOutcome(this.explainRuns.get(key), variantIds, outcome));
        break;
      }
      case 'caseExplained': {
        const { runId, key, explanation } = n.params;
        if (runId !== this.state.runId) break;
        this.explanations = new Map(this.explanations).set(key, explanation);
        const running = new Map(this.explainRuns);
        running.delete(key);
        this.explainRuns = running;
        break;
      }
      case 'explainFinished': {
        const { runId, explanation, error } = n.params;
        if (this.explaining?.runId === runId) this.explaining = undefined;
        if (runId !== this.state.runId) break;
        this.explainRuns = new Map();
        // The stored file holds every case explained so far, partial ones of a cancel included.
        if (explanation) this.explanations = explanationsByKey(explanation);
        if (explanation) void this.reloadCauses(runId);
        if (error) this.error = `Explain failed: ${error}`;
        break;
      }
      case 'reveal': {
        const { runId, key } = n.params;
        void (async () => {
          if (runId !== this.state.runId) await this.selectRun(runId, false);
          this.saveState({ ...this.state, view: key ? 'cases' : this.state.view });
          if (key) await this.openCase(key, true);
        })();
        break;
      }
    }
  }

  private flushItems(): void {
    this.flushFrame = 0;
    if (this.pendingItems.length === 0) return;
    const incoming = new Map(this.pendingItems.map((item) => [item.key, item]));
    this.pendingItems = [];
    // A rerun replaces its row in place; a new case is appended.
    const merged = this.items.map((item) => {
      const replacement = incoming.get(item.key);
      if (replacement) incoming.delete(item.key);
      return replacement ?? item;
    });
    this.items = [...merged, ...incoming.values()];
  }

  // ——— keyboard ———

  private onGlobalKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    if (isTyping(event)) return;
    if (event.key === '/') {
      event.preventDefault();
      this.setView('cases');
      void this.updateComplete.then(() => this.caseList()?.focusSearch());
    } else if ((event.key === 'y' || event.key === 'x' || event.key === 'c') && this.state.view === 'cases' && this.api.setVerdicts && this.verdictTargets().length > 0) {
      event.preventDefault();
      if (event.key === 'c') this.renderRoot.querySelector('ri-verdict-bar')?.startComment();
      else void this.applyVerdict({ label: event.key === 'y' ? 'correct' : 'wrong' });
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

  /** The cases a verdict applies to: the marked ones, else the open case. */
  private verdictTargets(): string[] {
    if (this.marked.size > 0) return [...this.marked];
    return this.state.caseKey ? [this.state.caseKey] : [];
  }

  private markCases({ keys, toggle }: MarkCasesDetail): void {
    const next = new Set(this.marked);
    // The open case joins the marks on the first Ctrl/⌘-click, so "open one, Ctrl-click another" marks both.
    if (next.size === 0 && this.state.caseKey && toggle && keys[0] !== this.state.caseKey) next.add(this.state.caseKey);
    for (const key of keys) {
      if (toggle && next.has(key)) next.delete(key);
      else next.add(key);
    }
    this.marked = next;
  }

  private async loadVerdicts(runId: string): Promise<void> {
    if (!this.api.getVerdicts) return;
    try {
      const view = await this.api.getVerdicts(runId);
      if (this.state.runId === runId) this.verdicts = view;
    } catch (error) {
      this.error = `Could not read your verdicts: ${describeError(error)}`;
    }
  }

  private async applyVerdict(request: VerdictRequestDetail): Promise<void> {
    const runId = this.state.runId;
    const keys = this.verdictTargets();
    if (!runId || !this.api.setVerdicts || keys.length === 0 || this.verdictBusy) return;
    this.verdictBusy = true;
    try {
      const view = await this.api.setVerdicts(runId, { keys, label: request.label, ...(request.note ? { note: request.note } : {}) });
      if (this.state.runId === runId) this.verdicts = view;
    } catch (error) {
      this.error = `Could not save your verdict: ${describeError(error)}`;
    } finally {
      this.verdictBusy = false;
    }
  }

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
    return runId ? this.api.getCase(runId, key) : Promise.reject(new Error('no run selected'));
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
    const causes = this.detail?.errorCauses ?? [];
    const [first] = causes;
    if (!first) return nothing;
    const errors = causes.reduce((sum, c) => sum + c.count, 0);
    const more = causes.length > 1 ? ` (+${causes.length - 1} other cause${causes.length === 2 ? '' : 's'})` : '';
    const all = causes.map((c) => `${c.count} × ${causeLine(c)} (first: ${c.firstCaseId} on ${c.firstModelKey})`).join('\n');
    return html`<span class="causes" role="note" title=${all}>⚠ ${formatCount(errors)} error${errors === 1 ? '' : 's'}: ${causeLine(first)}${more}</span>`;
  }

  private failuresOf: CaseListItem[] | undefined;
  private failures = { failed: 0, errors: 0 };
  /** Failed verdicts and errors apart, as the run's totals count them: a case that never got an answer did not fail. */
  private failureCounts(): { failed: number; errors: number } {
    if (this.failuresOf !== this.items) {
      this.failuresOf = this.items;
      this.failures = { failed: 0, errors: 0 };
      for (const item of this.items) {
        const outcome = outcomeOf(item);
        if (outcome === 'fail') this.failures.failed++;
        if (outcome === 'error') this.failures.errors++;
      }
    }
    return this.failures;
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
/** How long a clicked Resume run stays disabled when the run does not start (the host asked something or refused). */
const RESUME_ASKED_MS = 8_000;
const INTERRUPTED_TITLE = 'Run status: nothing is writing this run any more (the window or terminal running it closed). Resume runs its remaining cases.';

/** Newest first, which is what the picker and the default comparison want. */
function sortRuns(runs: RunListing[]): RunListing[] {
  return [...runs].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

customElements.define('rag-inspector-app', InspectorApp);

declare global {
  interface HTMLElementTagNameMap { 'rag-inspector-app': InspectorApp }
}

/** "vendor batch: 120 / 400 requests done" — several: "2 of 3 vendor batches open: …". */
export function batchWords(b: { open: number; batches: number; done: number; total: number }): string {
  const which = b.batches === 1 ? 'vendor batch' : `${b.open} of ${b.batches} vendor batches open`;
  return `${which}: ${formatCount(b.done)} / ${formatCount(b.total)} requests done`;
}
