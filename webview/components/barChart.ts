// Horizontal bars with interval whiskers (the failure split: share of failed cases per cause). Each value is written
// out as text; with a filter, each bar is a button that opens the case list filtered to the bar's cases.
import { LitElement, css, html, nothing } from 'lit';
import type { Bar, BarChartModel } from '../state/reportCharts.js';
import { CAUSE_WORDS } from '../state/retrieval.js';
import type { FailureCause } from '../../src/core/retrieval/contract.js';
import { baseStyles } from './sharedStyles.js';
import { formatCellNumber } from '../../src/core/numberFormat.js';
import { formatNumber } from './format.js';
import { styleProps } from './styleProps.js';

/** A bar asks the case list to show its cases (today: one failure cause). */
export interface FilterCasesDetail { cause: FailureCause; suiteId: string; column: string }

export class BarChart extends LitElement {
  static override properties = { model: { attribute: false } };
  model?: BarChartModel;

  static override styles = [baseStyles, css`
    :host { display: block; max-width: 720px; }
    .title { font-weight: 600; margin-bottom: 0.2em; }
    .sub { margin-bottom: 0.5em; }
    ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.25em; }
    .bar {
      display: grid; grid-template-columns: 11em minmax(8em, 1fr) 14em; gap: 0.75em; align-items: center;
      width: 100%; padding: 0.2em 0.4em; margin: 0; font: inherit; color: inherit; text-align: start;
      background: none; border: 1px solid transparent; border-radius: 2px;
    }
    button.bar { cursor: pointer; }
    button.bar:hover { background: var(--vscode-list-hoverBackground); border-color: var(--vscode-contrastActiveBorder, transparent); }
    button.bar:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 0; }
    .label { overflow-wrap: anywhere; }
    button.bar .label { color: var(--vscode-textLink-foreground); text-decoration: underline; text-underline-offset: 2px; }
    .track { position: relative; height: 1.1em; border-inline-start: 1px solid var(--vscode-charts-lines); }
    .fill {
      position: absolute; inset-block: 0.1em; inset-inline-start: 0; background: var(--vscode-charts-blue);
      border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
    }
    .whisker { position: absolute; top: 50%; height: 0; border-top: 1.5px solid var(--vscode-charts-foreground); }
    .whisker::before, .whisker::after { content: ''; position: absolute; top: -0.35em; height: 0.7em; border-inline-start: 1.5px solid var(--vscode-charts-foreground); }
    .whisker::before { left: 0; }
    .whisker::after { right: 0; }
    .value { font-variant-numeric: tabular-nums; }
    .value .muted { font-size: 0.9em; }
    .none { color: var(--vscode-descriptionForeground); font-style: italic; }
  `];

  override render() {
    const model = this.model;
    if (!model) return nothing;
    const { spec } = model;
    const filtering = spec.filter?.field === 'cause';
    return html`
      <div class="title">${spec.title}</div>
      <div class="sub muted">${spec.xTitle} · ${model.column}${filtering ? ' · click a bar (or Tab to it and press Enter) to list its cases' : ''}</div>
      <ol aria-label=${spec.title}>${model.bars.map((bar) => html`<li>${this.renderBar(model, bar)}</li>`)}</ol>
    `;
  }

  private renderBar(model: BarChartModel, bar: Bar) {
    const name = bar.cause ? CAUSE_WORDS[bar.cause] : bar.label;
    const value = bar.value === null ? 'no data' : `${formatCellNumber(bar.value)}${bar.low !== undefined ? ` [${formatCellNumber(bar.low)}, ${formatCellNumber(bar.high!)}]` : ''}`;
    const n = bar.n !== undefined ? `n = ${formatNumber(bar.n)}` : '';
    const content = html`
      <span class="label">${name}</span>
      <span class="track" aria-hidden="true">
        ${bar.value === null ? nothing : html`<span class="fill" ${styleProps({ width: percent(bar.value, model.max) })}></span>`}
        ${bar.low !== undefined ? html`<span class="whisker" ${styleProps({ left: percent(bar.low, model.max), width: percent(bar.high! - bar.low, model.max) })}></span>` : nothing}
      </span>
      <span class=${bar.value === null ? 'value none' : 'value'}>${value}${n ? html` <span class="muted">${n}</span>` : nothing}</span>`;
    if (!bar.cause) return html`<div class="bar" data-label=${bar.label}>${content}</div>`;
    const cause = bar.cause;
    return html`<button class="bar" data-label=${bar.label} aria-label=${`${name}: ${value}${n ? `, ${n}` : ''}. Show these cases`}
      @click=${() => this.filter(cause)}>${content}</button>`;
  }

  private filter(cause: FailureCause): void {
    const model = this.model!;
    this.dispatchEvent(new CustomEvent<FilterCasesDetail>('ri-filter-cases', { detail: { cause, suiteId: model.suiteId, column: model.column }, bubbles: true, composed: true }));
  }
}

function percent(value: number, max: number): string {
  return `${(Math.max(0, Math.min(1, max > 0 ? value / max : 0)) * 100).toFixed(2)}%`;
}

customElements.define('ri-bar-chart', BarChart);

declare global {
  interface HTMLElementTagNameMap { 'ri-bar-chart': BarChart }
}
