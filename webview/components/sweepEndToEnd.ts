// The sweep's end-to-end cells: per cell its run's answer accuracy with the interval and where the failures come from
// (not retrieved, ranked out, …), a cell still running with its progress, a cell that errored said in words (never
// shown as a success), and a link that opens the cell's run — its cases — in the inspector.
import { LitElement, css, html, nothing } from 'lit';
import { formatCellNumber } from '../../src/core/numberFormat.js';
import type { ReportCell } from '../../src/core/reportTable.js';
import { runStatusLabel } from '../../src/core/model.js';
import type { SweepCellModel, SweepCellRun } from '../../src/protocol.js';
import { baseStyles } from './sharedStyles.js';
import { formatCount } from './format.js';

/** Fired with a run id when the user asks to see a cell's cases. */
export type OpenRunDetail = { runId: string };

export class SweepEndToEnd extends LitElement {
  static override properties = { runs: { attribute: false } };

  runs: SweepCellRun[] = [];

  static override styles = [baseStyles, css`
    :host { display: block; }
    .wrap { overflow-x: auto; }
    table { border-collapse: collapse; }
    caption { text-align: start; font-weight: 600; padding-bottom: 0.4em; }
    th, td { padding: 0.3em 0.7em; text-align: start; vertical-align: top; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    th { font-weight: 600; color: var(--vscode-descriptionForeground); }
    .value { font-variant-numeric: tabular-nums; font-weight: 600; }
    .interval { font-size: 0.85em; color: var(--vscode-descriptionForeground); font-variant-numeric: tabular-nums; }
    ul.split { list-style: none; margin: 0; padding: 0; }
    .problem { color: var(--vscode-errorForeground); max-width: 36em; overflow-wrap: anywhere; }
    .problem::before { content: '⚠ '; }
  `];

  override render() {
    if (this.runs.length === 0) return nothing;
    return html`<div class="wrap"><table class="end-to-end">
      <caption>End to end: each picked cell's run — answer accuracy [95% Wilson interval] and where its failures come from</caption>
      <thead><tr><th scope="col">cell</th><th scope="col">model</th><th scope="col">accuracy</th><th scope="col">failures by cause</th><th scope="col">run</th></tr></thead>
      <tbody>${this.runs.map((run) => this.renderRun(run))}</tbody>
    </table></div>`;
  }

  private renderRun(run: SweepCellRun) {
    const models: Array<SweepCellModel | undefined> = run.models.length > 0 ? run.models : [undefined];
    return models.map((model, i) => html`<tr data-cell=${run.cellKey} data-state=${run.state}>
      ${i === 0 ? html`<th scope="row" rowspan=${models.length} class="mono">${run.cellKey}</th>` : nothing}
      <td>${model?.model ?? ''}</td>
      <td>${model ? this.renderShare(model.accuracy) : run.state === 'running' ? html`<span class="muted">running${run.cases ? ` (${formatCount(run.done ?? 0)}/${formatCount(run.cases)} cases)` : ''}…</span>` : html`<span class="muted">—</span>`}</td>
      <td>${model ? this.renderSplit(model) : nothing}</td>
      ${i === 0 ? html`<td rowspan=${models.length}>${this.renderStatus(run)}</td>` : nothing}
    </tr>`);
  }

  private renderShare(cell: ReportCell) {
    if (typeof cell.value !== 'number') return html`<span class="muted">— (no answer scored)</span>`;
    const interval = typeof cell.low === 'number' && typeof cell.high === 'number' ? ` [${formatCellNumber(cell.low)}, ${formatCellNumber(cell.high)}]` : '';
    return html`<span class="value">${formatCellNumber(cell.value)}</span><span class="interval">${interval}${cell.n === undefined ? '' : ` n ${formatCount(cell.n)}`}${cell.undetermined ? `, ${formatCount(cell.undetermined)} undetermined` : ''}</span>`;
  }

  private renderSplit(model: SweepCellModel) {
    if (typeof model.accuracy.value !== 'number') return html`<span class="muted">—</span>`;
    if (model.split.length === 0) return html`<span class="muted">no failed case</span>`;
    return html`<ul class="split">${model.split.map(({ cause, share }) => html`<li data-cause=${cause}>${cause}: ${this.renderShare(share)}</li>`)}</ul>`;
  }

  private renderStatus(run: SweepCellRun) {
    const open = run.runId && run.state !== 'running'
      ? html`<button class="link open-run" @click=${() => this.dispatchEvent(new CustomEvent<OpenRunDetail>('ri-open-run', { detail: { runId: run.runId! }, bubbles: true, composed: true }))}>open its ${run.cases === undefined ? '' : `${formatCount(run.cases)} `}cases</button>`
      : nothing;
    const status = run.status && run.status !== 'success' ? html` <span class="muted">(${runStatusLabel(run.status)})</span>` : nothing;
    // An earlier run is found by the cell's name: its date says which one is shown.
    const when = run.createdAt ? html`<div class="muted when">run of ${new Date(run.createdAt).toLocaleString()}</div>` : nothing;
    return html`${open}${status}${when}${run.problem ? html`<div class="problem" role="status">${run.problem}</div>` : nothing}`;
  }
}

customElements.define('ri-sweep-end-to-end', SweepEndToEnd);
