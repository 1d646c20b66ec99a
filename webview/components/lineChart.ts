// A small inline-SVG line chart: one line per series, intervals as whiskers or bands, and a legend that does not rely on colour.
import { LitElement, css, html, svg, nothing } from 'lit';
import type { ChartData, ChartPoint } from '../state/chartSeries.js';
import { baseStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';

const WIDTH = 480;
const HEIGHT = 240;
const MARGIN = { top: 12, right: 16, bottom: 36, left: 44 };
/** Series differ by colour, dash pattern and marker shape, so they stay apart in high contrast and in print. */
const DASHES = ['', '6 3', '2 3', '8 3 2 3', '1 5', '12 4'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'cross', 'circle'] as const;
const SERIES_CLASSES = 6;

export class LineChart extends LitElement {
  static override properties = { data: { attribute: false }, caption: { type: String } };
  data?: ChartData;
  caption = '';

  static override styles = [baseStyles, css`
    :host { display: block; max-width: ${WIDTH + 220}px; }
    figure { margin: 0; display: flex; flex-wrap: wrap; gap: 0.5em 1.5em; align-items: flex-start; }
    svg { width: 100%; max-width: ${WIDTH}px; height: auto; overflow: visible; }
    .axis line, .axis path { stroke: var(--vscode-charts-lines); }
    .grid { stroke: var(--vscode-charts-lines); stroke-opacity: 0.35; }
    text { fill: var(--vscode-charts-foreground); font-size: 11px; font-family: var(--vscode-font-family); }
    .line { fill: none; stroke-width: 2; }
    .whisker { stroke-width: 1; }
    .band { fill-opacity: 0.08; stroke-opacity: 0.4; stroke-width: 0.75; stroke-dasharray: 2 3; }
    .marker { stroke-width: 1.5; }
    .s0 { stroke: var(--vscode-charts-blue); fill: var(--vscode-charts-blue); }
    .s1 { stroke: var(--vscode-charts-orange); fill: var(--vscode-charts-orange); }
    .s2 { stroke: var(--vscode-charts-green); fill: var(--vscode-charts-green); }
    .s3 { stroke: var(--vscode-charts-purple); fill: var(--vscode-charts-purple); }
    .s4 { stroke: var(--vscode-charts-red); fill: var(--vscode-charts-red); }
    .s5 { stroke: var(--vscode-charts-yellow); fill: var(--vscode-charts-yellow); }
    .line.s0, .line.s1, .line.s2, .line.s3, .line.s4, .line.s5 { fill: none; }
    ul { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.3em; }
    li { display: flex; align-items: center; gap: 0.5em; }
    li svg { width: 36px; height: 12px; }
  `];

  override render() {
    const data = this.data;
    if (!data || data.series.length === 0) return nothing;
    const points = data.series.flatMap((s) => s.points);
    const xs = points.map((p) => p.x);
    const ys = points.flatMap((p) => [p.y, p.low ?? p.y, p.high ?? p.y]);
    const xMin = Math.min(...xs);
    const xMax = Math.max(...xs);
    // Proportions get the full 0–1 axis so two charts of rates compare at a glance.
    const proportions = ys.every((y) => y >= 0 && y <= 1);
    const yMin = data.yMin ?? (proportions ? 0 : Math.min(0, ...ys));
    const yMax = data.yMax ?? (proportions ? 1 : Math.max(...ys) || 1);
    const plotW = WIDTH - MARGIN.left - MARGIN.right;
    const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
    const x = (v: number) => MARGIN.left + (xMax === xMin ? plotW / 2 : ((v - xMin) / (xMax - xMin)) * plotW);
    const y = (v: number) => MARGIN.top + plotH - ((v - yMin) / (yMax - yMin || 1)) * plotH;
    const xTicks = [...new Set(xs)].sort((a, b) => a - b);
    const yTicks = [0, 0.25, 0.5, 0.75, 1].map((t) => yMin + t * (yMax - yMin));
    const label = `${this.caption}: ${data.series.map((s) => `${s.name} ${s.points.map((p) => `${formatNumber(p.x)}→${formatNumber(p.y)}`).join(', ')}`).join('; ')}`;

    return html`<figure>
      <svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label=${label}>
        ${yTicks.map((t) => svg`<line class="grid" x1=${MARGIN.left} x2=${WIDTH - MARGIN.right} y1=${y(t)} y2=${y(t)}></line>
          <text x=${MARGIN.left - 6} y=${y(t) + 4} text-anchor="end">${formatNumber(t)}</text>`)}
        <g class="axis">
          <line x1=${MARGIN.left} x2=${WIDTH - MARGIN.right} y1=${MARGIN.top + plotH} y2=${MARGIN.top + plotH}></line>
          ${xTicks.map((t) => svg`<text x=${x(t)} y=${MARGIN.top + plotH + 16} text-anchor="middle">${formatNumber(t)}</text>`)}
        </g>
        ${data.xLabel ? svg`<text x=${MARGIN.left + plotW / 2} y=${HEIGHT - 4} text-anchor="middle">${data.xLabel}</text>` : nothing}
        ${data.yLabel ? svg`<text class="y-title" transform=${`translate(11 ${MARGIN.top + plotH / 2}) rotate(-90)`} text-anchor="middle">${data.yLabel}</text>` : nothing}
        ${data.series.map((series, i) => {
          const cls = `s${i % SERIES_CLASSES}`;
          const path = series.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(' ');
          const withInterval = series.points.filter((p) => p.low !== undefined && p.high !== undefined);
          return svg`<g data-series=${series.name}>
            ${data.bands
              ? withInterval.length >= 2 ? svg`<path class="band ${cls}" d=${bandPath(withInterval, x, y)}></path>` : nothing
              : withInterval.map((p) => svg`
              <line class="whisker ${cls}" x1=${x(p.x)} x2=${x(p.x)} y1=${y(p.low!)} y2=${y(p.high!)}></line>`)}
            <path class="line ${cls}" d=${path} stroke-dasharray=${DASHES[i % DASHES.length]!}></path>
            ${series.points.map((p) => marker(MARKERS[i % MARKERS.length]!, x(p.x), y(p.y), cls, tooltip(series.name, p)))}
          </g>`;
        })}
      </svg>
      <ul aria-hidden="true">
        ${data.series.map((series, i) => {
          const cls = `s${i % SERIES_CLASSES}`;
          return html`<li><svg viewBox="0 0 36 12">
            <line class="line ${cls}" x1="0" x2="36" y1="6" y2="6" stroke-dasharray=${DASHES[i % DASHES.length]!}></line>
            ${marker(MARKERS[i % MARKERS.length]!, 18, 6, cls, series.name)}
          </svg><span>${series.name}</span></li>`;
        })}
      </ul>
    </figure>`;
  }
}

/** The area between each point's low and high, along the line: upper edge left to right, lower edge back. */
function bandPath(points: readonly ChartPoint[], x: (v: number) => number, y: (v: number) => number): string {
  const upper = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${x(p.x).toFixed(1)},${y(p.high!).toFixed(1)}`);
  const lower = [...points].reverse().map((p) => `L${x(p.x).toFixed(1)},${y(p.low!).toFixed(1)}`);
  return `${upper.join(' ')} ${lower.join(' ')} Z`;
}

function tooltip(name: string, p: ChartPoint): string {
  const interval = p.low !== undefined && p.high !== undefined ? ` [${formatNumber(p.low)}, ${formatNumber(p.high)}]` : '';
  return `${name}: ${formatNumber(p.x)} → ${formatNumber(p.y)}${interval}`;
}

function marker(shape: (typeof MARKERS)[number], cx: number, cy: number, cls: string, title: string) {
  const r = 4;
  switch (shape) {
    case 'square': return svg`<rect class="marker ${cls}" x=${cx - r} y=${cy - r} width=${2 * r} height=${2 * r}><title>${title}</title></rect>`;
    case 'triangle': return svg`<path class="marker ${cls}" d=${`M${cx},${cy - r - 1} L${cx + r + 1},${cy + r} L${cx - r - 1},${cy + r} Z`}><title>${title}</title></path>`;
    case 'diamond': return svg`<path class="marker ${cls}" d=${`M${cx},${cy - r - 1} L${cx + r + 1},${cy} L${cx},${cy + r + 1} L${cx - r - 1},${cy} Z`}><title>${title}</title></path>`;
    case 'cross': return svg`<path class="marker ${cls}" d=${`M${cx - r},${cy - r} L${cx + r},${cy + r} M${cx + r},${cy - r} L${cx - r},${cy + r}`}><title>${title}</title></path>`;
    default: return svg`<circle class="marker ${cls}" cx=${cx} cy=${cy} r=${r}><title>${title}</title></circle>`;
  }
}

customElements.define('ri-line-chart', LineChart);

declare global {
  interface HTMLElementTagNameMap { 'ri-line-chart': LineChart }
}
