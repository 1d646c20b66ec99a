// The run at a glance: totals, threshold outcomes, input problems, heatmaps side by side, and every suite's report tables and charts (lines, bars).
import { LitElement, css, html, nothing } from 'lit';
import type { CaseListItem, RunDetail } from '../../src/protocol.js';
import { chartedTableIds, groupHeatmaps, heatmapsOf } from '../state/heatmap.js';
import type { HeatmapGroup } from '../state/heatmap.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { formatCost, formatCount, formatNumber } from './format.js';
import type { CaseLoader } from './heatmap.js';
import './reportTable.js';
import './heatmap.js';
import './lineChart.js';
import './barChart.js';
import { reportChartsOf } from '../state/reportCharts.js';
import type { SuiteReport } from '../../src/core/suites/contract.js';
import type { InputProblem, RunTotals } from '../../src/core/model.js';
import { runStatusLabel } from '../../src/core/model.js';

export class RunSummary extends LitElement {
  static override properties = {
    detail: { attribute: false },
    items: { attribute: false },
    loadCase: { attribute: false },
    canRunCommands: { type: Boolean, attribute: 'can-run-commands' },
  };
  detail?: RunDetail;
  /** The run's case rows (live while it runs): heatmap cells find their cases here. */
  items: CaseListItem[] = [];
  /** Fetches a case, for the response a heatmap cell shows on hover. */
  loadCase?: CaseLoader;
  canRunCommands = false;
  private heatmaps: HeatmapGroup[] = [];

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: block; padding: 0.75em 1.25em 3em; overflow: auto; height: 100%; }
    section { margin-bottom: 1.75em; }
    section > h3 { margin-bottom: 0.6em; }
    dl.totals { display: grid; grid-template-columns: repeat(auto-fill, minmax(9em, 1fr)); gap: 0.5em; margin: 0; }
    dl.totals div {
      padding: 0.4em 0.6em; border-radius: 3px; background: var(--vscode-textCodeBlock-background);
      border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
    }
    dt { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
    dd { margin: 0; font-size: 1.3em; font-variant-numeric: tabular-nums; }
    table { border-collapse: collapse; }
    th, td { padding: 0.25em 0.8em; text-align: start; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    th { color: var(--vscode-descriptionForeground); font-weight: 600; }
    td.num { text-align: end; font-variant-numeric: tabular-nums; }
    ul.problems { margin: 0; padding-inline-start: 1.2em; display: grid; gap: 0.25em; }
    .hint { color: var(--vscode-descriptionForeground); }
    .suite { margin-bottom: 2em; }
    .suite > h3 { margin-bottom: 0.6em; }
    .tables { display: grid; gap: 1.5em; }
    .charts { display: grid; gap: 1.5em; margin-bottom: 1.5em; }
    figure.line-chart { margin: 0; }
    figcaption { font-weight: 600; margin-bottom: 0.3em; }
    ul.notes { margin: 0.5em 0 0; padding-inline-start: 1.2em; color: var(--vscode-descriptionForeground); }
    .hint { margin: 0 0 0.75em; }
    .heatmap-group { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 400px), 1fr)); gap: 1.5em 2em; margin-bottom: 1.5em; }
    .heatmap-group + .heatmap-group { padding-top: 1em; border-top: 1px solid var(--vscode-widget-border, transparent); }
  `];

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('detail') || changed.has('items')) {
      const detail = this.detail;
      this.heatmaps = detail ? groupHeatmaps(heatmapsOf(detail.reports, this.items.length ? this.items : detail.cases, detail.listing.models)) : [];
    }
  }

  override render() {
    const detail = this.detail;
    if (!detail) return html`<p class="muted">No run selected.</p>`;
    const { listing, thresholds, problems, reports } = detail;
    return html`
      <section aria-labelledby="totals">
        <h3 id="totals">Totals <span class="muted">· ${listing.name} · ${runStatusLabel(listing.status)} · ${new Date(listing.createdAt).toLocaleString()}</span></h3>
        ${listing.totals ? renderTotals(listing.totals) : html`<p class="muted">No totals yet (the run has not finished).</p>`}
      </section>
      ${thresholds.length ? html`<section aria-labelledby="thresholds">
        <h3 id="thresholds">Thresholds</h3>
        <table>
          <thead><tr><th scope="col">Outcome</th><th scope="col">Suite</th><th scope="col">Model</th><th scope="col">Metric</th><th scope="col">Value</th><th scope="col">Required</th></tr></thead>
          <tbody>${thresholds.map((t) => html`<tr data-passed=${String(t.passed)}>
            <td>${t.passed ? html`<span class="outcome pass">✓ met</span>` : html`<span class="outcome fail">✗ missed</span>`}</td>
            <td>${t.suiteId}</td><td>${t.modelKey}</td><td class="mono">${t.metric}</td>
            <td class="num">${t.value === null ? 'undetermined' : formatNumber(t.value)}${t.n !== undefined ? html`<span class="muted denominator"> n = ${formatNumber(t.n)}${t.undetermined !== undefined ? `, ${formatNumber(t.undetermined)} undetermined` : ''}</span>` : nothing}</td>
            <td>${[t.min !== undefined ? `≥ ${formatNumber(t.min)}` : '', t.max !== undefined ? `≤ ${formatNumber(t.max)}` : ''].filter(Boolean).join(' and ')}</td>
          </tr>`)}</tbody>
        </table>
      </section>` : nothing}
      ${problems.length ? html`<section aria-labelledby="problems">
        <h3 id="problems">Input problems (${problems.length})</h3>
        <ul class="problems">${problems.map((p) => this.renderProblem(p))}</ul>
      </section>` : nothing}
      ${this.heatmaps.length ? html`<section aria-labelledby="heatmaps">
        <h3 id="heatmaps">Heatmaps${this.heatmaps.some((g) => g.maps.length > 1) ? html` <span class="muted">(same grid side by side)</span>` : nothing}</h3>
        <p class="hint">Hover a cell, or Tab to a heatmap and move with the arrow keys, to see its score and response; click or Enter opens the case.</p>
        ${this.heatmaps.map((group) => html`<div class="heatmap-group" role="group" aria-label=${`${group.maps.length} heatmap${group.maps.length === 1 ? '' : 's'} on a ${group.rows.length} × ${group.columns.length} grid`}>
          ${group.maps.map((model) => html`<ri-heatmap data-suite=${model.suiteId} data-model=${model.modelKey ?? ''} .model=${model} .loadCase=${this.loadCase}></ri-heatmap>`)}
        </div>`)}
      </section>` : nothing}
      ${reports.map((report) => html`<section class="suite" aria-label=${`Suite ${report.suiteId}`}>
        <h3>${report.suiteId} <span class="muted">(${report.method})</span>${report.scoring ? html` <span class="scoring muted">· scoring: ${report.scoring}</span>` : nothing}</h3>
        ${this.renderCharts(report)}
        <div class="tables">${report.tables.map((table) => html`<ri-report-table .table=${table} ?charted=${chartedTableIds(report).has(table.id)}></ri-report-table>`)}</div>
        ${report.notes.length ? html`<ul class="notes">${report.notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}
      </section>`)}
      ${reports.length === 0 ? html`<p class="muted">No suite reports yet.</p>` : nothing}
      <slot name="after"></slot>
    `;
  }

  /** The report's line and bar charts, above the tables they draw (which fold away under them). */
  private renderCharts(report: SuiteReport) {
    const charts = reportChartsOf(report);
    if (charts.length === 0) return nothing;
    return html`<div class="charts">${charts.map((chart) => chart.kind === 'line'
      ? html`<figure class="line-chart" data-table=${chart.spec.tableId}><figcaption>${chart.spec.title}</figcaption>
          <ri-line-chart .data=${chart.data} .caption=${chart.spec.title}></ri-line-chart></figure>`
      : html`<ri-bar-chart data-table=${chart.spec.tableId} .model=${chart}></ri-bar-chart>`)}</div>`;
  }

  private renderProblem(p: InputProblem) {
    const where = `${p.file}${p.line !== undefined ? `:${p.line}` : ''}${p.column !== undefined ? `:${p.column}` : ''}`;
    return html`<li>
      ${this.canRunCommands && p.line !== undefined
        ? html`<button class="link mono" @click=${() => this.dispatchEvent(new CustomEvent('ri-open-dataset-row', { detail: { file: p.file, line: p.line }, bubbles: true, composed: true }))}>${where}</button>`
        : html`<span class="mono">${where}</span>`}
      — ${p.message}${p.hint ? html` <span class="hint">(${p.hint})</span>` : nothing}
    </li>`;
  }
}

function renderTotals(t: RunTotals) {
  const cells: [string, string][] = [
    ['Cases', formatCount(t.cases)],
    ['Passed', formatCount(t.passed)],
    ['Failed', formatCount(t.failed)],
    ['Errors', formatCount(t.error)],
    ['Model calls', formatCount(t.modelCalls)],
    ['Cache hits', formatCount(t.cacheHits)],
    ['Judge calls', formatCount(t.judgeCalls)],
    ['Tokens in', formatCount(t.inputTokens)],
    ['Tokens out', formatCount(t.outputTokens)],
    ['Cost', t.costUsd === undefined ? 'unknown' : formatCost(t.costUsd)],
  ];
  return html`<dl class="totals">${cells.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}</dl>`;
}

customElements.define('ri-run-summary', RunSummary);

declare global {
  interface HTMLElementTagNameMap { 'ri-run-summary': RunSummary }
}
