// The sweep page: a heatmap of one measure over two chosen settings (the needle grid's component; the other settings
// held at chosen values), a table of every cell with intervals, the best cell against the current setting, and a
// cell's per-question ranks when it is opened (click or Enter on the heatmap, or the table's button). In VS Code's
// sweep panel, cells picked in the table (checkboxes; the best and the current setting in one click) run end to end
// through the host, which asks about the cost first; their accuracy and failure split are shown below the table.
import { LitElement, css, html, nothing } from 'lit';
import { formatCellNumber } from '../../src/core/numberFormat.js';
import type { ReportCell } from '../../src/core/reportTable.js';
import { bestLine, settingColumns } from '../../src/core/corpus/sweep/sweepText.js';
import { cellQuestions, defaultAxes, defaultFixed, SWEEP_METRIC_WORDS, SWEEP_METRICS, sweepHeatmap } from '../state/sweep.js';
import type { SweepAxis, SweepCellResult, SweepMetric, SweepReport } from '../state/sweep.js';
import type { HeatCell } from '../state/heatmap.js';
import type { ShowCaseDetail } from './heatmap.js';
import { baseStyles } from './sharedStyles.js';
import { formatCount } from './format.js';
import { CancelSweepCells, OpenSweepCellRun, RunSweepCells, SweepCellRuns } from '../../src/protocol.js';
import type { SweepCellRun } from '../../src/protocol.js';
import type { InspectorApi } from '../api/inspectorApi.js';
import type { OpenRunDetail } from './sweepEndToEnd.js';
import './heatmap.js';
import './sweepEndToEnd.js';

type Value = number | boolean | string;

export class SweepView extends LitElement {
  static override properties = {
    report: { attribute: false },
    x: { state: true },
    y: { state: true },
    metric: { state: true },
    fixed: { state: true },
    opened: { state: true },
    picked: { state: true },
    cellRuns: { state: true },
    running: { state: true },
    endToEndMessage: { state: true },
  };

  report?: SweepReport;
  x: SweepAxis = 'k';
  y: SweepAxis | undefined;
  metric: SweepMetric = 'ndcg';
  fixed: Partial<Record<SweepAxis, Value>> = {};
  /** The key of the cell whose ranks are shown. */
  opened: string | undefined;
  /** The host that runs cells end to end (VS Code's sweep panel); the page opened from a file has none. */
  api?: InspectorApi;
  /** Keys of the cells picked to run end to end. */
  picked: ReadonlySet<string> = new Set();
  cellRuns: SweepCellRun[] = [];
  running = false;
  endToEndMessage: string | undefined;
  private unsubscribe: (() => void) | undefined;
  private namedSeen = false;

  override connectedCallback(): void {
    super.connectedCallback();
    if (!this.api || !this.api.handles(RunSweepCells) || this.unsubscribe) return;
    this.unsubscribe = this.api.on(SweepCellRuns, ({ runs, running, message, named }) => {
      // The eval file's own picks (sweep.endToEnd), once, when the user has picked nothing yet.
      if (!this.namedSeen && this.picked.size === 0 && named.length > 0) this.setPicked(new Set(named));
      this.namedSeen = true;
      this.cellRuns = runs;
      this.running = running;
      this.endToEndMessage = message;
    });
    // The page is reloaded when the panel is hidden and shown again: the picks come back from the view state.
    const saved = (this.api.getViewState() as { sweepPicked?: unknown } | undefined)?.sweepPicked;
    if (Array.isArray(saved)) this.picked = new Set(saved.filter((key): key is string => typeof key === 'string'));
    this.api.start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private get canRun(): boolean {
    return this.unsubscribe !== undefined;
  }

  static override styles = [baseStyles, css`
    :host { display: block; padding: 1em 1.25em; max-width: 90em; }
    header { display: grid; gap: 0.35em; margin-bottom: 0.9em; }
    .best { overflow-wrap: anywhere; }
    .controls { display: flex; flex-wrap: wrap; gap: 0.5em 1.25em; align-items: center; margin: 0.6em 0; }
    label { display: inline-flex; gap: 0.4em; align-items: center; }
    select {
      font: inherit; color: var(--vscode-dropdown-foreground); background: var(--vscode-dropdown-background);
      border: 1px solid var(--vscode-dropdown-border, var(--vscode-widget-border)); padding: 0.15em 0.3em;
    }
    ri-heatmap { max-width: 44em; }
    .wrap { overflow-x: auto; margin-top: 1em; }
    table { border-collapse: collapse; }
    caption { text-align: start; font-weight: 600; padding-bottom: 0.4em; }
    th, td { padding: 0.3em 0.7em; text-align: end; vertical-align: top; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    th { font-weight: 600; color: var(--vscode-descriptionForeground); }
    td.text, th.text { text-align: start; }
    .value { font-variant-numeric: tabular-nums; font-weight: 600; }
    .interval { display: block; font-size: 0.85em; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    tr.best td { background: var(--vscode-list-inactiveSelectionBackground); }
    tr.opened td { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    .mark { white-space: nowrap; }
    .question { max-width: 40em; overflow-wrap: anywhere; }
    .missed { color: var(--vscode-testing-iconFailed); }
    .found { color: var(--vscode-testing-iconPassed); }
    ul.notes { margin: 0.4em 0 0; padding-inline-start: 1.2em; color: var(--vscode-descriptionForeground); }
    section.ranks { margin-top: 1.25em; }
  `];

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('report') && this.report) {
      const { x, y } = defaultAxes(this.report);
      this.x = x;
      this.y = y;
      this.metric = this.report.metric;
      this.fixed = defaultFixed(this.report);
    }
  }

  override render() {
    const report = this.report;
    if (!report) return nothing;
    const model = sweepHeatmap(report, this.x, this.y, this.metric, this.fixed);
    const opened = report.cells.find((cell) => cell.key === this.opened);
    return html`
      <header>
        <h2>Sweep: ${report.name}</h2>
        <span class="muted">${formatCount(report.cells.length)} cells · ${formatCount(report.questions.length)} questions of suite ${report.suite} · retriever ${report.retriever} · ${formatCount(report.retrievals)} retrievals, no model calls</span>
        <p class="best" role="status">${bestLine(report)}</p>
      </header>
      ${this.renderControls(report)}
      <ri-heatmap .model=${model} .tipDetail=${(cell: HeatCell) => this.tipOf(report, cell)} @ri-show-case=${this.onOpen}></ri-heatmap>
      <p class="muted scale">Colours run from the lowest to the highest ${SWEEP_METRIC_WORDS[this.metric]} of the whole sweep.</p>
      ${this.renderTable(report)}
      ${this.canRun ? this.renderEndToEnd(report) : nothing}
      ${report.notes.length > 0 ? html`<ul class="notes">${report.notes.map((note) => html`<li>${note}</li>`)}</ul>` : nothing}
      ${opened ? this.renderRanks(report, opened) : nothing}`;
  }

  private tipOf(report: SweepReport, heat: HeatCell): string {
    const cell = report.cells.find((c) => c.key === heat.keys[0]);
    if (!cell) return 'No cell of the sweep has these settings.';
    const marks = [cell.best ? '★ best' : '', cell.current ? '• current setting' : ''].filter(Boolean).join(', ');
    return `${cell.key}${marks ? ` (${marks})` : ''}. Click or Enter opens its questions' ranks.`;
  }

  private renderControls(report: SweepReport) {
    const axes = report.axes.map((a) => a.axis);
    const others = report.axes.filter((a) => a.axis !== this.x && a.axis !== this.y && a.values.length > 1);
    return html`<div class="controls">
      <label>Measure <select class="metric" @change=${(e: Event) => { this.metric = (e.target as HTMLSelectElement).value as SweepMetric; }}>
        ${SWEEP_METRICS.map((m) => html`<option value=${m} ?selected=${m === this.metric}>${SWEEP_METRIC_WORDS[m]}</option>`)}
      </select></label>
      <label>Columns <select class="x-axis" @change=${(e: Event) => this.chooseAxis('x', (e.target as HTMLSelectElement).value as SweepAxis)}>
        ${axes.map((a) => html`<option value=${a} ?selected=${a === this.x}>${a}</option>`)}
      </select></label>
      ${axes.length > 1 ? html`<label>Rows <select class="y-axis" @change=${(e: Event) => this.chooseAxis('y', (e.target as HTMLSelectElement).value as SweepAxis)}>
        ${axes.map((a) => html`<option value=${a} ?selected=${a === this.y}>${a}</option>`)}
      </select></label>` : nothing}
      ${others.map(({ axis, values }) => html`<label>${axis} <select class="fixed" data-axis=${axis} @change=${(e: Event) => this.hold(axis, values, (e.target as HTMLSelectElement).selectedIndex)}>
        ${values.map((v) => html`<option ?selected=${v === this.fixed[axis]}>${String(v)}</option>`)}
      </select></label>`)}
    </div>`;
  }

  /** Picking the other axis's setting swaps the two, so rows and columns never show the same setting. */
  private chooseAxis(which: 'x' | 'y', axis: SweepAxis): void {
    const other = which === 'x' ? this.y : this.x;
    if (axis === other) {
      if (which === 'x') this.y = this.x;
      else this.x = this.y ?? this.x;
    }
    this[which] = axis;
  }

  private hold(axis: SweepAxis, values: readonly Value[], index: number): void {
    this.fixed = { ...this.fixed, [axis]: values[index] as Value };
  }

  private onOpen = (event: CustomEvent<ShowCaseDetail>): void => {
    event.stopPropagation();
    this.open(event.detail.key);
  };

  private open(key: string): void {
    this.opened = key;
    void this.updateComplete.then(() => this.renderRoot.querySelector('section.ranks h3')?.scrollIntoView({ block: 'nearest' }));
  }

  private renderTable(report: SweepReport) {
    const axes = settingColumns(report);
    return html`<div class="wrap"><table class="cells">
      <caption>Every cell: mean over questions [95% bootstrap interval]; ★ best by ${SWEEP_METRIC_WORDS[report.metric]}, • current setting</caption>
      <thead><tr><th class="text" scope="col">cell</th>${axes.map((a) => html`<th scope="col">${a}</th>`)}${SWEEP_METRICS.map((m) => html`<th scope="col">${SWEEP_METRIC_WORDS[m]}</th>`)}<th scope="col">n</th><th scope="col">errors</th><th scope="col"><span class="visually-hidden">open</span></th>${this.canRun ? html`<th scope="col">end to end</th>` : nothing}</tr></thead>
      <tbody>${report.cells.map((cell) => html`<tr class=${`${cell.best ? 'best' : ''}${cell.key === this.opened ? ' opened' : ''}`} data-cell=${cell.key}>
        <td class="text mark">${cell.best ? '★ best' : ''}${cell.best && cell.current ? ' ' : ''}${cell.current ? '• current' : ''}</td>
        ${axes.map((a) => html`<td>${cell.settings[a] === undefined ? '' : String(cell.settings[a])}</td>`)}
        ${SWEEP_METRICS.map((m) => html`<td>${this.renderNumber(cell.metrics[m])}</td>`)}
        <td>${formatCount(cell.metrics[report.metric].n ?? 0)}</td>
        <td title=${cell.firstError ?? ''}>${cell.errors > 0 ? formatCount(cell.errors) : ''}</td>
        <td><button class="link open" @click=${() => this.open(cell.key)}>ranks</button></td>
        ${this.canRun ? html`<td><input type="checkbox" class="pick" .checked=${this.picked.has(cell.key)} ?disabled=${this.running}
          aria-label=${`run ${cell.key} end to end`} @change=${(e: Event) => this.pick([cell.key], (e.target as HTMLInputElement).checked)}></td>` : nothing}
      </tr>`)}</tbody>
    </table></div>`;
  }

  private pick(keys: readonly string[], on: boolean): void {
    const next = new Set(this.picked);
    for (const key of keys) if (on) next.add(key); else next.delete(key);
    this.setPicked(next);
  }

  private setPicked(picked: ReadonlySet<string>): void {
    this.picked = picked;
    this.api?.setViewState({ sweepPicked: [...picked] });
  }

  private renderEndToEnd(report: SweepReport) {
    const best = report.cells.filter((c) => c.best).map((c) => c.key);
    const current = report.cells.filter((c) => c.current).map((c) => c.key);
    const picked = report.cells.filter((c) => this.picked.has(c.key)).map((c) => c.key);
    return html`<section class="end-to-end" aria-label="end to end">
      <h3>End to end</h3>
      <p class="muted">Runs the picked cells with the eval file's models (each a run of its own, in the run list): answer accuracy and where the failures come from. The cost plan is shown before anything is sent.</p>
      <div class="actions">
        <button class="pick-best" ?disabled=${this.running || best.length === 0} @click=${() => this.pick(best, true)}>Pick the best cell</button>
        <button class="pick-current" ?disabled=${this.running || current.length === 0} @click=${() => this.pick(current, true)}>Pick the current setting</button>
        <button class="pick-none" ?disabled=${this.running || picked.length === 0} @click=${() => this.setPicked(new Set())}>Clear</button>
        <button class="run-end-to-end" ?disabled=${this.running || picked.length === 0} @click=${() => this.api?.command(RunSweepCells, { cells: picked })}>Run end to end (${formatCount(picked.length)} cell${picked.length === 1 ? '' : 's'})</button>
        ${this.running ? html`<button class="cancel-end-to-end" @click=${() => this.api?.command(CancelSweepCells, {})}>Cancel</button>` : nothing}
      </div>
      <p class="status" role="status">${this.running ? `Running end to end…${this.endToEndMessage ? ` ${this.endToEndMessage}` : ''}` : this.endToEndMessage ?? ''}</p>
      <ri-sweep-end-to-end .runs=${this.cellRuns} @ri-open-run=${(e: CustomEvent<OpenRunDetail>) => this.api?.command(OpenSweepCellRun, { runId: e.detail.runId })}></ri-sweep-end-to-end>
    </section>`;
  }

  private renderNumber(cell: ReportCell) {
    if (typeof cell.value !== 'number') return html`<span class="muted">—</span>`;
    return html`<span class="value">${formatCellNumber(cell.value)}</span>${typeof cell.low === 'number' && typeof cell.high === 'number'
      ? html`<span class="interval">[${formatCellNumber(cell.low)}, ${formatCellNumber(cell.high)}]</span>` : nothing}`;
  }

  private renderRanks(report: SweepReport, cell: SweepCellResult) {
    const rows = cellQuestions(report, cell);
    const found = rows.filter((r) => r.rank !== null).length;
    const measured = rows.filter((r) => r.value !== null).length;
    return html`<section class="ranks" aria-label="ranks of the opened cell">
      <h3 tabindex="-1">Questions of ${cell.key}</h3>
      <p class="muted">A relevant passage in the top ${cell.settings.k} for ${formatCount(found)} of ${formatCount(measured)} measured questions.</p>
      <div class="wrap"><table class="questions">
        <thead><tr><th class="text" scope="col">id</th><th class="text" scope="col">question</th><th scope="col">first relevant rank</th><th scope="col">${SWEEP_METRIC_WORDS[report.metric]}</th></tr></thead>
        <tbody>${rows.map((r) => html`<tr data-question=${r.id}>
          <td class="text mono">${r.id}</td>
          <td class="text question">${r.question}</td>
          <td>${r.value === null ? html`<span class="muted">not measured</span>` : r.rank === null ? html`<span class="missed">✗ not in top ${cell.settings.k}</span>` : html`<span class="found">✓ ${r.rank}</span>`}</td>
          <td>${r.value === null ? '' : formatCellNumber(r.value)}</td>
        </tr>`)}</tbody>
      </table></div>
    </section>`;
  }
}

customElements.define('ri-sweep-view', SweepView);
