// The key to the highlight styles, shown above the documents so no style has to be guessed.
import { LitElement, css, html } from 'lit';
import { baseStyles, markStyles } from './sharedStyles.js';
import type { SpanKind } from '../../src/core/model.js';

const ENTRIES: { kind: string; label: string; hint: string }[] = [
  { kind: 'answer', label: 'answer', hint: 'an expected answer (solid underline)' },
  { kind: 'needle', label: 'needle', hint: 'an inserted needle (double overline)' },
  { kind: 'counterfactual', label: 'counterfactual', hint: 'planted misinformation (wavy underline)' },
  { kind: 'evidence', label: 'evidence', hint: 'what a score points at (dashed box)' },
  { kind: 'citation', label: 'citation', hint: 'a document ID the response cites (dotted underline)' },
];

/** The kinds shown unless a case view asks for others (citations matter only where responses cite). */
const DEFAULT_KINDS: SpanKind[] = ['answer', 'needle', 'counterfactual', 'evidence'];

export class SpanLegend extends LitElement {
  static override properties = { kinds: { attribute: false } };
  kinds: string[] = DEFAULT_KINDS;

  static override styles = [baseStyles, markStyles, css`
    :host { display: block; }
    ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.4em 1.25em; }
    li { white-space: nowrap; }
    mark { margin-inline-end: 0.35em; }
  `];

  override render() {
    return html`<ul aria-label="Highlight legend">
      ${ENTRIES.filter((e) => this.kinds.includes(e.kind)).map((e) => html`<li title=${e.hint}><mark class=${e.kind}>${e.label}</mark> <span class="muted">${e.hint.replace(/^.*\((.*)\)$/, '$1')}</span></li>`)}
    </ul>`;
  }
}

customElements.define('ri-span-legend', SpanLegend);

declare global {
  interface HTMLElementTagNameMap { 'ri-span-legend': SpanLegend }
}
