// One suite report table as the paper lays it out (rows × model columns, interval and n), with the chart it implies.
import { LitElement, css, html, nothing } from 'lit';
import type { ReportCell, ReportTable } from '../../src/core/suites/contract.js';
import { baseStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';
import { formatCellNumber } from '../../src/core/numberFormat.js';
import { chartFromTable } from '../state/chartSeries.js';
import { histogramFromTable } from '../state/histogram.js';
import './lineChart.js';
import './histogram.js';

export class ReportTableView extends LitElement {
  static override properties = { table: { attribute: false }, charted: { type: Boolean } };
  table?: ReportTable;
  /** A chart elsewhere draws this table (a heatmap): the numbers fold away under it instead of being charted again. */
  charted = false;

  static override styles = [baseStyles, css`
    :host { display: block; }
    .wrap { overflow-x: auto; }
    table { border-collapse: collapse; min-width: 50%; }
    caption { text-align: start; font-weight: 600; padding-bottom: 0.4em; }
    th, td {
      padding: 0.3em 0.8em; text-align: end; vertical-align: top;
      border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border));
    }
    th { font-weight: 600; color: var(--vscode-descriptionForeground); }
    th[scope='row'], thead th:first-child { text-align: start; }
    .value { font-variant-numeric: tabular-nums; font-weight: 600; }
    .interval, .n { display: block; font-size: 0.85em; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    .undetermined { display: block; font-size: 0.85em; color: var(--vscode-editorWarning-foreground); }
    ul.notes { margin: 0.4em 0 0; padding-inline-start: 1.2em; color: var(--vscode-descriptionForeground); }
    ri-line-chart, ri-histogram { margin-top: 0.75em; }
    details > summary { cursor: pointer; }
    .chart-title { font-weight: 600; margin-bottom: 0.3em; }
  `];

  override render() {
    const table = this.table;
    if (!table) return nothing;
    if (this.charted) return html`<details><summary class="muted">Data table: ${table.title}</summary>${this.renderTable(table)}</details>`;
    const histogram = histogramFromTable(table);
    if (histogram) {
      return html`<div class="chart-title">${table.title}</div>
        <ri-histogram .data=${histogram} .caption=${table.title}></ri-histogram>
        <details><summary class="muted">Data table</summary>${this.renderTable(table)}</details>`;
    }
    const chart = chartFromTable(table);
    return html`
      ${this.renderTable(table)}
      ${chart ? html`<ri-line-chart .data=${chart} .caption=${table.title}></ri-line-chart>` : nothing}
    `;
  }

  private renderTable(table: ReportTable) {
    return html`
      <div class="wrap">
        <table data-table=${table.id}>
          <caption>${table.title}</caption>
          <thead><tr><th scope="col"></th>${table.columns.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
          <tbody>
            ${table.rows.map((row) => html`<tr>
              <th scope="row">${row.label}</th>
              ${row.cells.map((cell) => html`<td>${renderCell(cell)}</td>`)}
            </tr>`)}
          </tbody>
        </table>
      </div>
      ${table.notes?.length ? html`<ul class="notes">${table.notes.map((n) => html`<li>${n}</li>`)}</ul>` : nothing}
    `;
  }
}

/** Value, then the interval and n on their own lines; cases that could not be scored are counted apart. */
function renderCell(cell: ReportCell) {
  // A rate over no cases is no number: "—", never "0 [0, 1] n = 0".
  if (typeof cell.value === 'number' && cell.n === 0) cell = { value: null, n: 0, undetermined: cell.undetermined };
  const value = cell.value === null ? '—' : typeof cell.value === 'number' ? formatCellNumber(cell.value) : cell.value;
  return html`
    <span class="value">${value}</span>
    ${typeof cell.low === 'number' && typeof cell.high === 'number'
      ? html`<span class="interval" title="95% interval">[${formatCellNumber(cell.low)}, ${formatCellNumber(cell.high)}]</span>` : nothing}
    ${typeof cell.n === 'number' ? html`<span class="n">n = ${formatNumber(cell.n)}</span>` : nothing}
    ${cell.undetermined ? html`<span class="undetermined" title="Not scored (e.g. judge errors); kept out of the value">${cell.undetermined} undetermined</span>` : nothing}
    ${cell.unmatched ? html`<span class="undetermined unmatched" title="The judge's answer matched neither verdict; counted as the negative one, as the reference does (strict: true makes these judge errors)">${cell.unmatched} matched neither verdict</span>` : nothing}
  `;
}

customElements.define('ri-report-table', ReportTableView);

declare global {
  interface HTMLElementTagNameMap { 'ri-report-table': ReportTableView }
}
