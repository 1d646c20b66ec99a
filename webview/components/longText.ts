// A scrollable view of a very long text (a 128k-token haystack) that renders only the chunks in view, highlights included.
import { LitElement, css, html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { MarkSpan } from '../text/segments.js';
import { chunkAt, chunkAtY, chunkText, estimateHeight, prefixOffsets, spansInChunk, visibleChunks } from '../text/chunks.js';
import type { Chunk } from '../text/chunks.js';
import { flashMarks, highlighted } from './highlight.js';
import { baseStyles, markStyles } from './sharedStyles.js';
import { styleProps } from './styleProps.js';

/** Sample for measuring the average character width of the current font. */
const PROBE = 'The quick brown fox jumps over the lazy dog, then 0123456789 times again. ';

export class LongText extends LitElement {
  static override properties = {
    text: { attribute: false },
    spans: { attribute: false },
    label: { type: String },
    scrollPos: { state: true },
    layoutVersion: { state: true },
  };

  text = '';
  spans: MarkSpan[] = [];
  label = 'Text';
  /** The viewport's scrollTop as last rendered. */
  scrollPos = 0;
  /** Bumped when heights change, so the chunks move to their new places. */
  layoutVersion = 0;

  private chunks: Chunk[] = [];
  private heights: number[] = [];
  private measured: Uint8Array = new Uint8Array(0);
  private offsets: number[] = [0];
  private viewportHeight = 400;
  private charsPerLine = 80;
  private lineHeight = 20;
  private scrollFrame = 0;
  private readonly resizeObserver = new ResizeObserver(() => this.onResize());

  static override styles = [baseStyles, markStyles, css`
    :host { display: block; }
    .viewport {
      position: relative; height: var(--ri-long-text-height, 26em); overflow-y: auto; overflow-x: hidden;
      border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px;
      background: var(--vscode-editor-background); line-height: 1.5; overflow-anchor: none;
    }
    .spacer { position: relative; width: 100%; }
    .chunk {
      position: absolute; top: 0; left: 0.75em; right: 0.75em;
      white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext;
    }
    .probe { position: absolute; visibility: hidden; white-space: pre; }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.hasUpdated) {
      const viewport = this.viewport();
      if (viewport) this.resizeObserver.observe(viewport);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.scrollFrame);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('text')) {
      this.chunks = chunkText(this.text);
      this.measured = new Uint8Array(this.chunks.length);
      this.estimateAll();
      this.scrollPos = 0;
      const viewport = this.viewport();
      if (viewport) viewport.scrollTop = 0;
    }
  }

  override render() {
    const { first, last } = visibleChunks(this.offsets, this.scrollPos, this.viewportHeight, this.viewportHeight);
    const indexes: number[] = [];
    for (let i = first; i <= last; i++) indexes.push(i);
    const total = this.offsets[this.offsets.length - 1] ?? 0;
    return html`<div class="viewport" tabindex="0" role="region" aria-label=${this.label}
        data-chunks=${this.chunks.length} @scroll=${this.onScroll} @keydown=${this.onKeydown}>
      <span class="probe" aria-hidden="true">${PROBE}</span>
      <div class="spacer" ${styleProps({ height: `${Math.ceil(total)}px` })}>
        ${repeat(indexes, (i) => i, (i) => {
          const chunk = this.chunks[i]!;
          return html`<div class="chunk" data-index=${i} data-start=${chunk.start} data-end=${chunk.end}
              ${styleProps({ transform: `translateY(${this.offsets[i] ?? 0}px)` })}>${highlighted(this.text.slice(chunk.start, chunk.end), spansInChunk(this.spans, chunk))}</div>`;
        })}
      </div>
    </div>`;
  }

  override firstUpdated(): void {
    const viewport = this.viewport();
    if (viewport) this.resizeObserver.observe(viewport);
    this.measureFont();
  }

  override updated(): void {
    this.measureChunks();
  }

  /**
   * Scrolls so the highlight with `id` (a needle, a piece of evidence) sits in the middle of the viewport. The
   * chunks around it are laid out on the way, which corrects the estimated heights, so it settles in a few
   * passes. With `flash`, the highlight flashes and the page scrolls to show the viewer too.
   */
  async reveal(id: string, options: { flash?: boolean } = {}): Promise<boolean> {
    const span = this.spans.find((s) => s.id === id);
    const viewport = this.viewport();
    if (!span || !viewport || span.start >= this.text.length) return false;
    const index = chunkAt(this.chunks, span.start);
    const chunk = this.chunks[index]!;
    const within = (span.start - chunk.start) / Math.max(1, chunk.end - chunk.start);
    this.setScroll(viewport, (this.offsets[index] ?? 0) + within * (this.heights[index] ?? 0) - this.viewportHeight / 2);
    for (let pass = 0; pass < 4; pass++) {
      await this.settled();
      const mark = this.markOf(id);
      if (!mark) continue;
      const spacer = this.renderRoot.querySelector('.spacer')!.getBoundingClientRect();
      const box = mark.getBoundingClientRect();
      const wanted = box.top - spacer.top + box.height / 2 - this.viewportHeight / 2;
      if (Math.abs(wanted - viewport.scrollTop) < 2) break;
      this.setScroll(viewport, wanted);
    }
    await this.settled();
    if (options.flash) return flashMarks(this.renderRoot, id);
    return this.markOf(id) !== null;
  }

  /** Same contract as DocumentCard.flash: scroll to the highlight and flash it. */
  flash(id: string): Promise<boolean> {
    return this.reveal(id, { flash: true });
  }

  /** Scrolls to the very end (the `End` key does the same once the viewer has focus). */
  async scrollToEnd(): Promise<void> {
    const viewport = this.viewport();
    if (!viewport) return;
    // The last chunks' real heights are known only once they render: repeat until the bottom holds still.
    for (let pass = 0; pass < 4; pass++) {
      this.setScroll(viewport, viewport.scrollHeight);
      await this.settled();
      if (viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1) break;
    }
  }

  // ——— layout ———

  private setScroll(viewport: HTMLElement, top: number): void {
    viewport.scrollTop = Math.max(0, top);
    this.scrollPos = viewport.scrollTop;
  }

  /** Two updates: the render at the new position, and the one after measuring it. */
  private async settled(): Promise<void> {
    await this.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await this.updateComplete;
  }

  private markOf(id: string): HTMLElement | null {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('mark[data-ids]')].find((m) => m.dataset.ids?.split(' ').includes(id)) ?? null;
  }

  private measureFont(): void {
    const viewport = this.viewport();
    const probe = this.renderRoot.querySelector<HTMLElement>('.probe');
    if (!viewport || !probe) return;
    const charWidth = probe.getBoundingClientRect().width / PROBE.length || 7;
    const lineHeight = parseFloat(getComputedStyle(viewport).lineHeight) || 20;
    const content = viewport.clientWidth - parseFloat(getComputedStyle(viewport).fontSize || '13') * 1.5;
    this.viewportHeight = viewport.clientHeight || this.viewportHeight;
    const charsPerLine = Math.max(10, Math.floor(content / charWidth));
    if (charsPerLine !== this.charsPerLine || lineHeight !== this.lineHeight) {
      this.charsPerLine = charsPerLine;
      this.lineHeight = lineHeight;
      this.measured.fill(0);
      this.estimateAll();
      this.layoutVersion++;
    }
  }

  private estimateAll(): void {
    this.heights = this.chunks.map((c, i) => (this.measured[i] ? this.heights[i]! : estimateHeight(this.text.slice(c.start, c.end), this.charsPerLine, this.lineHeight)));
    this.offsets = prefixOffsets(this.heights);
  }

  /** Replaces estimates with the rendered heights, keeping the text at the top of the viewport where it was. */
  private measureChunks(): void {
    const viewport = this.viewport();
    if (!viewport) return;
    let changed = false;
    for (const element of this.renderRoot.querySelectorAll<HTMLElement>('.chunk')) {
      const i = Number(element.dataset.index);
      const height = element.getBoundingClientRect().height;
      this.measured[i] = 1;
      if (Math.abs(height - (this.heights[i] ?? 0)) > 0.5) {
        this.heights[i] = height;
        changed = true;
      }
    }
    if (!changed) return;
    const atBottom = viewport.scrollTop > 0 && viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1;
    const anchor = chunkAtY(this.offsets, viewport.scrollTop);
    const within = viewport.scrollTop - (this.offsets[anchor] ?? 0);
    this.offsets = prefixOffsets(this.heights);
    const spacer = this.renderRoot.querySelector<HTMLElement>('.spacer');
    // The spacer's height is set now, not at the next render, or the browser would clamp the scroll position.
    spacer?.style.setProperty('height', `${Math.ceil(this.offsets[this.offsets.length - 1] ?? 0)}px`);
    const top = atBottom ? viewport.scrollHeight : (this.offsets[anchor] ?? 0) + within;
    // Writing scrollTop stops a scroll in progress (a wheel fling, an animated Page Down): only when the text moved.
    if (Math.abs(top - viewport.scrollTop) >= 1) this.setScroll(viewport, top);
    this.layoutVersion++;
  }

  private onResize(): void {
    const viewport = this.viewport();
    if (!viewport) return;
    this.viewportHeight = viewport.clientHeight || this.viewportHeight;
    this.measureFont();
    this.requestUpdate();
  }

  /**
   * Home and End are handled here: the browser's animated jump would be cut short when the chunks it passes are
   * measured, and End must land on the real end, which is known only once the last chunks have rendered.
   */
  private onKeydown = (event: KeyboardEvent): void => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const viewport = event.currentTarget as HTMLElement;
    if (event.key === 'End') {
      event.preventDefault();
      void this.scrollToEnd();
    } else if (event.key === 'Home') {
      event.preventDefault();
      this.setScroll(viewport, 0);
    }
  };

  private onScroll = (event: Event): void => {
    const target = event.currentTarget as HTMLElement;
    // One render per frame however many scroll events arrive.
    if (this.scrollFrame) return;
    this.scrollFrame = requestAnimationFrame(() => {
      this.scrollFrame = 0;
      this.scrollPos = target.scrollTop;
    });
  };

  private viewport(): HTMLElement | null {
    return this.renderRoot?.querySelector<HTMLElement>('.viewport') ?? null;
  }
}

customElements.define('ri-long-text', LongText);

declare global {
  interface HTMLElementTagNameMap { 'ri-long-text': LongText }
}
