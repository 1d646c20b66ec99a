// One heatmap (depth × context length for Needle in a Haystack) as an SVG grid: hover or focus a cell for its case, Enter opens it.
import { LitElement, css, html, nothing, svg } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CaseDetail } from '../../src/protocol.js';
import type { HeatCell, HeatmapModel } from '../state/heatmap.js';
import { labelIndexes } from '../state/heatmap.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { styleProps } from './styleProps.js';
import { formatNumber } from './format.js';
import { formatCellNumber } from '../../src/core/numberFormat.js';
import { safeFileName, serializeSvg, svgDataUrl, svgToPngDataUrl } from './svgExport.js';

/** Fired when a cell is opened (click or Enter): the app shows that case. */
export interface ShowCaseDetail { key: string }
/** Fired by the export buttons: the app saves the file through its API. */
export interface ExportImageDetail { fileName: string; dataUrl: string }

export type CaseLoader = (key: string) => Promise<CaseDetail>;

const PLOT_W = 420;
const PLOT_H = 300;
const M = { top: 10, left: 60, right: 70 };
const WIDTH = M.left + PLOT_W + M.right;
const BAR = { x: M.left + PLOT_W + 14, width: 12 };
const RESPONSE_PREVIEW = 400;

/** Below the plot: tick labels (turned 45° when there are many columns), the axis title, the legend. */
function bottomLayout(columns: number): { rotate: boolean; titleY: number; legendY: number; height: number } {
  const rotate = columns > 8;
  const base = M.top + PLOT_H;
  const titleY = base + (rotate ? 58 : 32);
  const legendY = titleY + 22;
  return { rotate, titleY, legendY, height: legendY + 10 };
}

let instances = 0;

export class Heatmap extends LitElement {
  static override properties = {
    model: { attribute: false },
    loadCase: { attribute: false },
    tipDetail: { attribute: false },
    active: { state: true },
    tip: { state: true },
    responses: { state: true },
    exportError: { state: true },
  };

  model?: HeatmapModel;
  loadCase?: CaseLoader;
  /** What the tooltip says a cell opens, instead of its first case's response (the sweep's cells open their ranks). */
  tipDetail?: (cell: HeatCell) => string;
  /** The cell keyboard focus returns to (roving tabindex) and the tooltip describes. */
  active: { row: number; col: number } = { row: 0, col: 0 };
  tip: { left: number; top: number; below: boolean } | undefined;
  /** Response text per case key, fetched on first hover. */
  responses = new Map<string, string>();
  exportError = '';

  /** Pattern and gradient ids: unique per instance, since an exported file or a shared root must not collide. */
  private readonly uid = `hm${++instances}`;

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: block; min-width: 0; }
    figure { margin: 0; display: grid; gap: 0.35em; }
    figcaption { display: flex; flex-wrap: wrap; gap: 0.25em 0.75em; align-items: baseline; }
    figcaption .suite { font-weight: 600; }
    .subtitle { font-size: 0.9em; }
    .plot { position: relative; }
    svg { width: 100%; height: auto; display: block; overflow: visible; }
    text { fill: var(--vscode-charts-foreground, var(--vscode-foreground)); font-size: 11px; font-family: var(--vscode-font-family); }
    .title { font-size: 12px; font-weight: 600; }
    .bg { fill: var(--vscode-editor-background); }
    .frame { fill: none; stroke: var(--vscode-charts-lines); }
    .frame-swatch { stroke: var(--vscode-charts-lines); }
    .hatch-line { stroke: var(--vscode-charts-lines); stroke-width: 1.5; }
    .hatch-bg { fill: var(--vscode-editor-background); }
    .cell { cursor: pointer; outline: none; }
    .cell.active { stroke: var(--vscode-editor-foreground); stroke-width: 1.5; }
    .cell:focus-visible, .cell:focus { stroke: var(--vscode-focusBorder); stroke-width: 3; }
    .marker { fill: var(--vscode-editor-foreground); stroke: var(--vscode-editor-background); stroke-width: 0.75; pointer-events: none; }
    .tick { stroke: var(--vscode-charts-lines); }
    .tip {
      position: absolute; z-index: 2; max-width: 22em; pointer-events: none; padding: 0.4em 0.6em; border-radius: 3px;
      background: var(--vscode-editorHoverWidget-background, var(--vscode-editorWidget-background, var(--vscode-editor-background)));
      color: var(--vscode-editorHoverWidget-foreground, var(--vscode-foreground));
      border: 1px solid var(--vscode-editorHoverWidget-border, var(--vscode-widget-border, var(--vscode-contrastBorder)));
      box-shadow: 0 2px 8px var(--vscode-widget-shadow, transparent);
      display: grid; gap: 0.2em; font-size: 0.95em;
    }
    .tip .where { font-weight: 600; }
    .tip .response { white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; max-height: 9em; overflow: hidden; }
    .tip .undetermined { color: var(--vscode-editorWarning-foreground); }
    .counts { font-size: 0.9em; }
    .actions { display: flex; gap: 0.5em; flex-wrap: wrap; align-items: center; }
  `];

  override willUpdate(changed: Map<string, unknown>): void {
    const previous = changed.get('model') as HeatmapModel | undefined;
    // Live results rebuild the model of the same heatmap: the tooltip a reader is looking at stays.
    if (changed.has('model') && previous !== undefined && previous.id !== this.model?.id) {
      this.responses = new Map();
      this.tip = undefined;
      const rows = this.model?.rows.length ?? 0;
      const cols = this.model?.columns.length ?? 0;
      this.active = { row: Math.min(this.active.row, Math.max(0, rows - 1)), col: Math.min(this.active.col, Math.max(0, cols - 1)) };
    }
  }

  override render() {
    const model = this.model;
    if (!model) return nothing;
    const cell = this.tip ? model.cells[this.active.row]?.[this.active.col] : undefined;
    return html`<figure>
      <figcaption>
        <span class="suite">${model.suiteId}</span>
        ${model.modelKey ? html`<span class="badge mono">${model.modelKey}</span>` : nothing}
        <span class="subtitle muted">${model.spec.title}</span>
      </figcaption>
      <div class="plot" @mouseleave=${this.onLeave}>
        ${this.renderSvg(model)}
        ${cell ? this.renderTip(cell) : nothing}
      </div>
      <div class="counts muted" role="note">
        ${formatNumber(model.rows.length * model.columns.length - model.noData)} of ${formatNumber(model.rows.length * model.columns.length)} cells scored${model.noData ? ` · ${formatNumber(model.noData)} without data (hatched)` : ''}${model.undetermined
          ? html` · <span class="undetermined-count">${formatNumber(model.undetermined)} undetermined result${model.undetermined === 1 ? '' : 's'}</span> (judge or model errors, in no mean; ◢ marks their cells)` : ''}
      </div>
      <div class="actions">
        <vscode-button secondary class="export-svg" @click=${() => void this.exportAs('svg')}>Export SVG</vscode-button>
        <vscode-button secondary class="export-png" @click=${() => void this.exportAs('png')}>Export PNG</vscode-button>
        ${this.exportError ? html`<span class="error-text" role="alert">${this.exportError}</span>` : nothing}
      </div>
    </figure>`;
  }

  private renderSvg(model: HeatmapModel) {
    const rows = model.rows.length;
    const cols = model.columns.length;
    const cw = PLOT_W / Math.max(1, cols);
    const ch = PLOT_H / Math.max(1, rows);
    const { rotate, titleY, height } = bottomLayout(cols);
    const xLabels = labelIndexes(cols, Math.floor(PLOT_W / (rotate ? 14 : 42)));
    const yLabels = labelIndexes(rows, Math.floor(PLOT_H / 13));
    const { spec } = model;
    const marker = Math.min(cw, ch) * 0.4;
    const label = `${spec.title}: ${rows} rows (${spec.yTitle}) by ${cols} columns (${spec.xTitle}), colour from ${formatNumber(spec.min)} to ${formatNumber(spec.max)}`;
    return html`<svg class="heatmap" viewBox="0 0 ${WIDTH} ${height}" role="group" aria-label=${label}>
      <defs>
        <pattern id=${`${this.uid}-hatch`} patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
          <rect class="hatch-bg" width="6" height="6"></rect>
          <line class="hatch-line" x1="0" y1="0" x2="0" y2="6"></line>
        </pattern>
        <linearGradient id=${`${this.uid}-scale`} x1="0" y1="1" x2="0" y2="0">
          ${spec.colors.map((colour, i) => svg`<stop offset=${spec.colors.length > 1 ? i / (spec.colors.length - 1) : 0} stop-color=${colour}></stop>`)}
        </linearGradient>
      </defs>
      <rect class="bg" x="0" y="0" width=${WIDTH} height=${height}></rect>
      <g class="cells" @keydown=${this.onKeydown} @focusin=${this.onFocusIn} @click=${this.onClick} @mouseover=${this.onHover}>
        ${model.cells.flatMap((row) => row.map((cell) => {
          const x = M.left + cell.col * cw;
          const y = M.top + cell.row * ch;
          const isActive = cell.row === this.active.row && cell.col === this.active.col;
          return svg`<rect class=${`cell${cell.fill ? '' : ' empty'}${isActive && this.tip ? ' active' : ''}`} data-row=${cell.row} data-col=${cell.col}
              x=${x} y=${y} width=${cw} height=${ch} fill=${cell.fill ?? `url(#${this.uid}-hatch)`}
              tabindex=${isActive ? '0' : '-1'} role="button" aria-label=${describeCell(cell, spec.yTitle, spec.xTitle)}
              aria-describedby=${isActive && this.tip ? `${this.uid}-tip` : nothing}></rect>
            ${cell.undetermined ? svg`<path class="marker" d=${`M${x + cw - marker},${y + ch} L${x + cw},${y + ch} L${x + cw},${y + ch - marker} Z`}></path>` : nothing}`;
        }))}
      </g>
      <rect class="frame" x=${M.left} y=${M.top} width=${PLOT_W} height=${PLOT_H}></rect>
      ${yLabels.map((i) => svg`<text x=${M.left - 6} y=${M.top + (i + 0.5) * ch + 4} text-anchor="end">${model.rows[i]}</text>`)}
      ${xLabels.map((j) => {
        const x = M.left + (j + 0.5) * cw;
        const y = M.top + PLOT_H + 12;
        return rotate
          ? svg`<text x=${x} y=${y} text-anchor="end" transform=${`rotate(-45 ${x} ${y})`}>${model.columns[j]}</text>`
          : svg`<text x=${x} y=${y + 2} text-anchor="middle">${model.columns[j]}</text>`;
      })}
      <text class="title" x=${M.left + PLOT_W / 2} y=${titleY} text-anchor="middle">${spec.xTitle}</text>
      <text class="title" x=${14} y=${M.top + PLOT_H / 2} text-anchor="middle" transform=${`rotate(-90 14 ${M.top + PLOT_H / 2})`}>${spec.yTitle}</text>
      ${this.renderScale(model)}
      ${this.renderLegend(model)}
    </svg>`;
  }

  /** The colour bar: max at the top, as seaborn draws it, with min, middle and max ticks. */
  private renderScale(model: HeatmapModel) {
    const { spec } = model;
    const ticks = [spec.max, (spec.min + spec.max) / 2, spec.min];
    return svg`<g class="scale">
      <rect x=${BAR.x} y=${M.top} width=${BAR.width} height=${PLOT_H} fill=${`url(#${this.uid}-scale)`}></rect>
      ${ticks.map((t, i) => {
        const y = M.top + (i / 2) * PLOT_H;
        return svg`<line class="tick" x1=${BAR.x + BAR.width} x2=${BAR.x + BAR.width + 4} y1=${y} y2=${y}></line>
          <text x=${BAR.x + BAR.width + 6} y=${y + 4}>${formatNumber(t)}</text>`;
      })}
    </g>`;
  }

  /** The marker's key only where a cell carries it: a grid without undetermined results (a sweep's) has nothing to explain. */
  private renderLegend(model: HeatmapModel) {
    const y = bottomLayout(model.columns.length).legendY;
    return svg`<g class="legend">
      <rect x=${M.left} y=${y - 9} width="12" height="12" fill=${`url(#${this.uid}-hatch)`} class="frame-swatch"></rect>
      <text x=${M.left + 17} y=${y + 1}>no data</text>
      ${model.undetermined ? svg`<path class="marker" d=${`M${M.left + 86},${y + 3} L${M.left + 98},${y + 3} L${M.left + 98},${y - 9} Z`}></path>
      <text x=${M.left + 103} y=${y + 1}>has undetermined results</text>` : nothing}
    </g>`;
  }

  private renderTip(cell: HeatCell) {
    const position = this.tip!;
    const key = cell.keys[0];
    const response = key ? this.responses.get(key) : undefined;
    const { spec } = this.model!;
    return html`<div class="tip" id=${`${this.uid}-tip`} role="tooltip"
        ${styleProps({ left: `${position.left}px`, top: `${position.top}px`, transform: position.below ? 'none' : 'translateY(-100%)' })}>
      <span class="where">${spec.yTitle} ${cell.rowLabel} · ${spec.xTitle} ${cell.colLabel}</span>
      <span>score <strong class="score">${cell.value === null ? 'no data' : formatCellNumber(cell.value)}</strong>
        ${cell.low !== undefined && cell.high !== undefined ? html`<span class="muted">[${formatCellNumber(cell.low)}, ${formatCellNumber(cell.high)}]</span>` : nothing}
        · n = <span class="n">${formatNumber(cell.n)}</span></span>
      ${cell.undetermined ? html`<span class="undetermined">${formatNumber(cell.undetermined)} undetermined (not in the mean)</span>` : nothing}
      ${this.tipDetail
        ? html`<span class="muted">${this.tipDetail(cell)}</span>`
        : key
        ? html`<span class="muted">Response${cell.keys.length > 1 ? ` (first of ${cell.keys.length} cases)` : ''}:</span>
          <span class="response">${response === undefined ? '…' : clip(response)}</span>
          <span class="muted">Click or Enter opens the case.</span>`
        : html`<span class="muted">No case of this run matches this cell.</span>`}
    </div>`;
  }

  // ——— interaction ———

  private cellOf(target: EventTarget | null): HeatCell | undefined {
    const element = target as Element | null;
    if (!element?.classList?.contains('cell')) return undefined;
    return this.model?.cells[Number(element.getAttribute('data-row'))]?.[Number(element.getAttribute('data-col'))];
  }

  private onHover = (event: Event): void => {
    const cell = this.cellOf(event.target);
    if (cell) this.show(cell, event.target as Element);
  };

  private onFocusIn = (event: Event): void => {
    const cell = this.cellOf(event.target);
    if (cell) this.show(cell, event.target as Element);
  };

  private onLeave = (): void => {
    // A tooltip a keyboard user is reading stays; one the mouse opened goes with the mouse.
    if (!this.shadowRoot?.activeElement?.classList.contains('cell')) this.tip = undefined;
  };

  private onClick = (event: Event): void => {
    const cell = this.cellOf(event.target);
    if (cell) this.open(cell);
  };

  private onKeydown = (event: KeyboardEvent): void => {
    const model = this.model;
    if (!model || event.altKey || event.ctrlKey || event.metaKey) return;
    let { row, col } = this.active;
    switch (event.key) {
      case 'ArrowUp': row = Math.max(0, row - 1); break;
      case 'ArrowDown': row = Math.min(model.rows.length - 1, row + 1); break;
      case 'ArrowLeft': col = Math.max(0, col - 1); break;
      case 'ArrowRight': col = Math.min(model.columns.length - 1, col + 1); break;
      case 'Home': col = 0; break;
      case 'End': col = model.columns.length - 1; break;
      case 'Enter':
      case ' ': {
        event.preventDefault();
        const cell = model.cells[row]?.[col];
        if (cell) this.open(cell);
        return;
      }
      case 'Escape': this.tip = undefined; return;
      default: return;
    }
    event.preventDefault();
    this.active = { row, col };
    void this.updateComplete.then(() => this.cellElement(row, col)?.focus());
  };

  private cellElement(row: number, col: number): SVGRectElement | null {
    return this.renderRoot.querySelector<SVGRectElement>(`rect.cell[data-row="${row}"][data-col="${col}"]`);
  }

  private show(cell: HeatCell, element: Element): void {
    this.active = { row: cell.row, col: cell.col };
    const plot = this.renderRoot.querySelector('.plot')!.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    // Beside the cell, flipped to its left past the middle; above it, or below it in the top rows.
    const right = box.left - plot.left > plot.width / 2;
    const left = right ? Math.max(0, box.left - plot.left - 260) : box.right - plot.left + 8;
    const below = box.top - plot.top < plot.height / 3;
    this.tip = { left, top: below ? box.bottom - plot.top + 4 : box.top - plot.top - 4, below };
    const key = cell.keys[0];
    if (key && !this.responses.has(key)) void this.fetchResponse(key);
  }

  private async fetchResponse(key: string): Promise<void> {
    if (!this.loadCase) return;
    let text: string;
    try {
      const detail = await this.loadCase(key);
      const { result } = detail;
      text = result.response?.text ?? (result.error ? `[${result.error.stage} error] ${result.error.message}` : '(no response)');
    } catch (error) {
      text = `Could not load the case: ${error instanceof Error ? error.message : String(error)}`;
    }
    this.responses = new Map(this.responses).set(key, text);
  }

  private open(cell: HeatCell): void {
    const key = cell.keys[0];
    if (!key) return;
    this.dispatchEvent(new CustomEvent<ShowCaseDetail>('ri-show-case', { detail: { key }, bubbles: true, composed: true }));
  }

  // ——— export ———

  /** The heatmap as a standalone SVG file, colours and fonts of the current theme written in. */
  exportSvgText(): string {
    const element = this.renderRoot.querySelector<SVGSVGElement>('svg.heatmap');
    if (!element || !this.model) throw new Error('the heatmap has not rendered yet');
    const { height } = bottomLayout(this.model.columns.length);
    return serializeSvg(element, {
      width: WIDTH, height, title: this.model.spec.title,
      // On the page the caption names the chart; a file needs its own heading.
      heading: [this.model.suiteId, this.model.modelKey].filter(Boolean).join(' · '),
      // Hover and focus outlines are interaction, not data.
      skip: (el) => (el.classList.contains('cell') ? ['stroke', 'stroke-width'] : []),
    });
  }

  private async exportAs(format: 'svg' | 'png'): Promise<void> {
    const model = this.model;
    if (!model) return;
    this.exportError = '';
    try {
      const text = this.exportSvgText();
      const dataUrl = format === 'svg' ? svgDataUrl(text) : await svgToPngDataUrl(text);
      const fileName = `${safeFileName(`heatmap-${model.suiteId}-${model.modelKey ?? model.spec.tableId}`)}.${format}`;
      this.dispatchEvent(new CustomEvent<ExportImageDetail>('ri-export-image', { detail: { fileName, dataUrl }, bubbles: true, composed: true }));
    } catch (error) {
      this.exportError = `Export failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

function describeCell(cell: HeatCell, yTitle: string, xTitle: string): string {
  const value = cell.value === null ? 'no data' : `score ${formatNumber(cell.value)}, n ${formatNumber(cell.n)}`;
  return `${yTitle} ${cell.rowLabel}, ${xTitle} ${cell.colLabel}: ${value}${cell.undetermined ? `, ${cell.undetermined} undetermined` : ''}`;
}

function clip(text: string): string {
  return text.length > RESPONSE_PREVIEW ? `${text.slice(0, RESPONSE_PREVIEW)}…` : text;
}

customElements.define('ri-heatmap', Heatmap);

declare global {
  interface HTMLElementTagNameMap { 'ri-heatmap': Heatmap }
}
