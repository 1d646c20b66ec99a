// A distribution as small bar charts, one per model on a shared count axis, so models compare at a glance.
import { LitElement, css, html, nothing, svg } from 'lit';
import type { Histogram, HistogramSeries } from '../state/histogram.js';
import { baseStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';

const W = 240;
const H = 130;
const M = { top: 14, right: 6, bottom: 22, left: 6 };

export class HistogramChart extends LitElement {
  static override properties = { data: { attribute: false }, caption: { type: String } };
  data?: Histogram;
  caption = '';

  static override styles = [baseStyles, css`
    :host { display: block; }
    .multiples { display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; }
    figure { margin: 0; }
    figcaption { font-size: 0.9em; }
    svg { width: ${W}px; max-width: 100%; height: auto; display: block; }
    text { fill: var(--vscode-charts-foreground, var(--vscode-foreground)); font-size: 10px; font-family: var(--vscode-font-family); }
    .bar { fill: var(--vscode-charts-blue); stroke: var(--vscode-contrastBorder, none); }
    .axis { stroke: var(--vscode-charts-lines); }
  `];

  override render() {
    const data = this.data;
    if (!data) return nothing;
    return html`<div class="multiples">${data.series.map((s) => this.renderSeries(data, s))}</div>`;
  }

  private renderSeries(data: Histogram, series: HistogramSeries) {
    const plotW = W - M.left - M.right;
    const plotH = H - M.top - M.bottom;
    const slot = plotW / data.bins.length;
    const label = `${this.caption} — ${series.name}: ${data.bins.map((b, i) => `${b.label} ${series.counts[i]}`).join(', ')}`;
    return html`<figure data-series=${series.name}>
      <svg viewBox="0 0 ${W} ${H}" role="img" aria-label=${label}>
        <line class="axis" x1=${M.left} x2=${W - M.right} y1=${M.top + plotH} y2=${M.top + plotH}></line>
        ${data.bins.map((bin, i) => {
          const count = series.counts[i] ?? 0;
          const h = (count / data.maxCount) * plotH;
          const x = M.left + i * slot + slot * 0.12;
          return svg`<rect class="bar" data-bin=${bin.label} data-count=${count} x=${x} y=${M.top + plotH - h} width=${slot * 0.76} height=${h}></rect>
            <text x=${x + slot * 0.38} y=${M.top + plotH - h - 3} text-anchor="middle">${count}</text>
            <text x=${M.left + i * slot + slot / 2} y=${H - 8} text-anchor="middle">${formatNumber(bin.low)}–${formatNumber(bin.high)}</text>`;
        })}
      </svg>
      <figcaption><span class="mono">${series.name}</span> <span class="muted">n = ${formatNumber(series.n)}${series.undetermined ? `, ${formatNumber(series.undetermined)} undetermined` : ''}</span></figcaption>
    </figure>`;
  }
}

customElements.define('ri-histogram', HistogramChart);

declare global {
  interface HTMLElementTagNameMap { 'ri-histogram': HistogramChart }
}
