// LLM-Eval's scores of one case as a small horizontal bar chart, one bar per dimension on the suite's scale.
import { LitElement, css, html, nothing, svg } from 'lit';
import type { DimensionChart } from '../state/dimensions.js';
import { baseStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';

const W = 420;
const ROW = 22;
const LABEL = 120;
const VALUE = 74;

export class DimensionBars extends LitElement {
  static override properties = { chart: { attribute: false } };
  chart?: DimensionChart;

  static override styles = [baseStyles, css`
    :host { display: block; margin-bottom: 0.75em; }
    /* Drawn at its own size: scaled to the pane, its labels would outgrow the text around it. */
    svg { width: ${W}px; max-width: 100%; height: auto; display: block; }
    text { fill: var(--vscode-charts-foreground, var(--vscode-foreground)); font-size: 12px; font-family: var(--vscode-font-family); }
    .track { fill: var(--vscode-textCodeBlock-background); stroke: var(--vscode-charts-lines); stroke-width: 0.5; }
    .bar { fill: var(--vscode-charts-blue); stroke: var(--vscode-contrastBorder, none); }
    .error { fill: var(--vscode-errorForeground); }
  `];

  override render() {
    const chart = this.chart;
    if (!chart || chart.bars.length === 0) return nothing;
    const track = W - LABEL - VALUE;
    const height = chart.bars.length * ROW + 4;
    const label = chart.bars.map((b) => `${b.name} ${b.value === null ? 'not scored' : formatNumber(b.value)}`).join(', ');
    return html`<svg viewBox="0 0 ${W} ${height}" role="img" aria-label=${`Dimension scores on ${chart.min}–${chart.max}: ${label}`}>
      ${chart.bars.map((b, i) => {
        const y = 2 + i * ROW;
        const width = b.value === null ? 0 : (Math.max(0, Math.min(chart.max, b.value) - chart.min) / (chart.max - chart.min || 1)) * track;
        return svg`<g data-dimension=${b.name}>
          <text x=${LABEL - 8} y=${y + 15} text-anchor="end">${b.name}</text>
          <rect class="track" x=${LABEL} y=${y + 3} width=${track} height=${ROW - 8}></rect>
          ${b.value === null ? nothing : svg`<rect class="bar" x=${LABEL} y=${y + 3} width=${width} height=${ROW - 8}></rect>`}
          <text class=${b.value === null ? 'error' : ''} x=${W - VALUE + 6} y=${y + 15}>${b.value === null ? (b.judgeError ? '⚠ error' : '—') : formatNumber(b.value)}</text>
        </g>`;
      })}
    </svg>
    <span class="muted">Scale ${formatNumber(chart.min)}–${formatNumber(chart.max)}${chart.bars.some((b) => b.judgeError) ? '; ⚠ a judge error leaves a dimension unscored (see Scores)' : ''}.</span>`;
  }
}

customElements.define('ri-dimension-bars', DimensionBars);

declare global {
  interface HTMLElementTagNameMap { 'ri-dimension-bars': DimensionBars }
}
