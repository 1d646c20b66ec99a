// A person's verdict on the open case (or on every case of a multi-selection): Correct (y), Wrong (x), Comment (c).
// The keys are handled by the inspector; this bar shows the verdict, whether it is stale, and the note field.
import { LitElement, css, html, nothing } from 'lit';
import type { CaseVerdictView } from '../../src/core/verdicts/view.js';
import { baseStyles } from './sharedStyles.js';

/** Fired with the change a person asked for; the inspector sends it to the host. */
export interface VerdictRequestDetail {
  label: 'correct' | 'wrong' | null;
  note?: string;
}

export class VerdictBar extends LitElement {
  static override properties = {
    verdict: { attribute: false },
    count: { type: Number },
    commenting: { state: true },
    busy: { type: Boolean },
  };

  verdict: CaseVerdictView | undefined;
  /** How many cases the bar acts on (more than one for a multi-selection). */
  count = 1;
  busy = false;
  commenting = false;

  static override styles = [baseStyles, css`
    :host { display: block; }
    .bar { display: flex; flex-wrap: wrap; align-items: center; gap: 0.5em; padding: 0.4em 0.75em; border-bottom: 1px solid var(--vscode-widget-border, transparent); }
    .state.correct { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); font-weight: 600; }
    .state.wrong { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); font-weight: 600; }
    .stale { color: var(--vscode-editorWarning-foreground); }
    .note { font-style: italic; }
    input { flex: 1 1 16em; font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background); border: 1px solid var(--vscode-input-border, var(--vscode-focusBorder)); padding: 0.2em 0.4em; }
    button { font: inherit; }
  `];

  /** The `c` key: open the note field. */
  startComment(): void {
    this.commenting = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector('input')?.focus());
  }

  private request(detail: VerdictRequestDetail): void {
    this.dispatchEvent(new CustomEvent<VerdictRequestDetail>('ri-verdict', { detail, bubbles: true, composed: true }));
  }

  private onNoteKey = (event: KeyboardEvent): void => {
    const input = event.target as HTMLInputElement;
    if (event.key === 'Enter' && input.value.trim() !== '') {
      this.request({ label: null, note: input.value.trim() });
      this.commenting = false;
    } else if (event.key === 'Escape') {
      this.commenting = false;
    }
  };

  override render() {
    const v = this.verdict;
    const target = this.count > 1 ? `${this.count} selected cases` : 'this case';
    return html`<div class="bar" role="group" aria-label="Your verdict">
      <span class="muted">Your verdict on ${target}:</span>
      ${this.count > 1 ? nothing : v?.label ? html`<span class="state ${v.label}">${v.label === 'correct' ? '✓ correct' : '✗ wrong'}</span>` : html`<span class="muted">none</span>`}
      ${this.count === 1 && v?.stale ? html`<span class="stale" title="The response changed since you judged it: not counted in agreement">stale (response changed)</span>` : nothing}
      ${this.count === 1 && v?.note ? html`<span class="note">“${v.note}”</span>` : nothing}
      <button class="mark-correct" ?disabled=${this.busy} @click=${() => this.request({ label: 'correct' })} title="Mark correct (y)">Correct <kbd>y</kbd></button>
      <button class="mark-wrong" ?disabled=${this.busy} @click=${() => this.request({ label: 'wrong' })} title="Mark wrong (x)">Wrong <kbd>x</kbd></button>
      <button class="comment" ?disabled=${this.busy} @click=${() => this.startComment()} title="Add a note (c)">Comment <kbd>c</kbd></button>
      ${this.commenting ? html`<input class="note-input" aria-label="Note (Enter saves, Escape cancels)" placeholder="Note — Enter saves, Escape cancels" @keydown=${this.onNoteKey}>` : nothing}
    </div>`;
  }
}

customElements.define('ri-verdict-bar', VerdictBar);

declare global {
  interface HTMLElementTagNameMap {
    'ri-verdict-bar': VerdictBar;
  }
}
