// One document the model saw, as a card marked by its role, with its known spans and any evidence highlighted.
import { LitElement, css, html, nothing, svg } from 'lit';
import type { CaseDocument } from '../../src/core/model.js';
import type { MarkSpan } from '../text/segments.js';
import type { CardNote } from '../state/cardNotes.js';
import { flashMarks, highlighted } from './highlight.js';
import { RENDER_LIMIT } from '../text/limits.js';
import { baseStyles, markStyles, roleStyles } from './sharedStyles.js';
import { noteStyles, renderNotes } from './noteList.js';
import { EFFECT_LABELS } from '../state/explanation.js';
import type { CardAttribution } from '../state/explanation.js';

export const ROLE_WORDS: Record<string, string> = {
  positive: 'answer-bearing',
  negative: 'noise',
  counterfactual: 'counterfactual',
  haystack: 'haystack',
  unknown: 'role unknown',
};

/** Past this size a document starts collapsed to a scrollable box, so one haystack does not bury the rest. */
const LONG_DOCUMENT = 4000;

export class DocumentCard extends LitElement {
  static override properties = {
    document: { attribute: false },
    evidence: { attribute: false },
    notes: { attribute: false },
    attribution: { attribute: false },
    expanded: { type: Boolean, reflect: true },
    full: { type: Boolean, reflect: true },
  };

  document?: CaseDocument;
  /** Evidence regions pointing into this document, with ids the score list uses to find them. */
  evidence: MarkSpan[] = [];
  /** What a method says about this document: cited, judged noise, useful at rank 1… */
  notes: CardNote[] = [];
  /** What explaining the case found about this document (see state/explanation.ts); none until it is explained. */
  attribution?: CardAttribution;
  expanded = false;
  /** The whole text is rendered (always, below RENDER_LIMIT). */
  full = false;

  static override styles = [baseStyles, roleStyles, markStyles, noteStyles, css`
    :host { display: block; }
    article {
      border: 1px solid var(--vscode-widget-border, transparent);
      border-inline-start: 4px solid var(--ri-role-colour, var(--vscode-widget-border));
      border-radius: 3px;
      background: var(--vscode-editor-background);
    }
    article.positive { --ri-role-colour: var(--vscode-charts-green); }
    article.negative { --ri-role-colour: var(--vscode-charts-orange); }
    article.counterfactual { --ri-role-colour: var(--vscode-charts-red); }
    article.haystack { --ri-role-colour: var(--vscode-charts-lines); }
    header {
      display: flex; flex-wrap: wrap; gap: 0.75em; align-items: baseline; padding: 0.35em 0.75em;
      border-bottom: 1px solid var(--vscode-widget-border, transparent);
    }
    .id { font-weight: 600; }
    .spacer { flex: 1; }
    .text {
      margin: 0; padding: 0.5em 0.75em; white-space: pre-wrap; overflow-wrap: anywhere;
      /* Each paragraph takes its direction from its own first strong character: RTL passages read right,
         and cannot reorder the card around them. */
      unicode-bidi: plaintext;
      line-height: 1.5;
    }
    :host(:not([expanded])) .text.long { max-height: 18em; overflow: auto; }
    .more { padding: 0.25em 0.75em 0.5em; display: flex; gap: 0.75em; }
    ul.notes { border-bottom: 1px solid var(--vscode-widget-border, transparent); }
    /* The document that misled the model: outlined, and named so in the card's label and its effect text. */
    article.harms { outline: 2px solid var(--vscode-testing-iconFailed); outline-offset: 1px; }
    .attribution {
      display: flex; flex-wrap: wrap; gap: 0.3em 0.9em; align-items: center; padding: 0.3em 0.75em;
      border-bottom: 1px solid var(--vscode-widget-border, transparent);
    }
    .effect { font-weight: 600; white-space: nowrap; }
    .effect.decisive, .effect.helps { color: var(--vscode-testing-iconPassed); }
    .effect.harms { color: var(--vscode-testing-iconFailed); }
    .effect.inert, .effect.undetermined, .effect.running { color: var(--vscode-descriptionForeground); }
    svg.bar { width: 120px; height: 12px; flex: none; }
    svg.bar .track { fill: var(--vscode-textCodeBlock-background); stroke: var(--vscode-charts-lines); stroke-width: 0.5; }
    svg.bar .axis { stroke: var(--vscode-foreground); stroke-width: 1; }
    svg.bar .up { fill: var(--vscode-testing-iconPassed); stroke: var(--vscode-contrastBorder, none); }
    svg.bar .down { fill: var(--vscode-testing-iconFailed); stroke: var(--vscode-contrastBorder, none); }
    .value { font-variant-numeric: tabular-nums; }
    article.flash { outline: 2px solid var(--vscode-focusBorder); outline-offset: 1px; animation: ri-card-flash 1.5s ease-out; }
    @keyframes ri-card-flash { 0%, 30% { background: var(--vscode-editor-findMatchHighlightBackground); } }
    @media (prefers-reduced-motion: reduce) { article.flash { animation: none; } }
  `];

  /** Scrolls the whole card into view and flashes it: for a link to a document with no span to point at. */
  flashCard(): void {
    const article = this.renderRoot.querySelector('article');
    if (!article) return;
    article.scrollIntoView({ block: 'center', behavior: 'auto' });
    article.classList.remove('flash');
    void article.offsetWidth;
    article.classList.add('flash');
    setTimeout(() => article.classList.remove('flash'), 2000);
  }

  /** Keyboard focus to the attribution row (from the explanation's list of sources), or to the card's text. */
  focusAttribution(): void {
    this.renderRoot.querySelector<HTMLElement>('.attribution')?.focus({ preventScroll: true });
  }

  /** Scrolls to the evidence with this id and flashes it, rendering the rest of a long text first if needed. */
  async flash(id: string): Promise<boolean> {
    const span = this.evidence.find((e) => e.id === id);
    if (span && span.start >= RENDER_LIMIT && !this.full) {
      this.full = true;
      await this.updateComplete;
    }
    return this.renderRoot ? flashMarks(this.renderRoot, id) : false;
  }

  override render() {
    const doc = this.document;
    if (!doc) return nothing;
    const spans: MarkSpan[] = [
      ...doc.spans.map((s) => ({ kind: s.kind, start: s.start, end: s.end, ...(s.label ? { label: s.label } : {}) })),
      ...this.evidence,
    ];
    const long = doc.text.length > LONG_DOCUMENT;
    const truncated = !this.full && doc.text.length > RENDER_LIMIT;
    const text = truncated ? doc.text.slice(0, RENDER_LIMIT) : doc.text;
    const counts = countKinds(doc);
    return html`
      <article class="${doc.role} ${this.attribution?.kind === 'explained' ? this.attribution.effect : ''}"
        aria-label=${`Document ${doc.id}, ${ROLE_WORDS[doc.role] ?? doc.role}${this.attribution?.kind === 'explained' ? `, ${EFFECT_LABELS[this.attribution.effect].word}` : ''}`}>
        <header>
          <span class="id mono">${doc.id}</span>
          <span class="role ${doc.role}">${ROLE_WORDS[doc.role] ?? doc.role}</span>
          ${doc.source ? html`<span class="muted mono">${doc.source}</span>` : nothing}
          <span class="muted">${counts}</span>
          <span class="spacer"></span>
          <span class="muted">${doc.text.length.toLocaleString()} chars</span>
          ${long ? html`<button class="link" @click=${() => { this.expanded = !this.expanded; }} aria-expanded=${String(this.expanded)}>
            ${this.expanded ? 'Collapse' : 'Expand'}</button>` : nothing}
        </header>
        ${renderAttribution(this.attribution)}
        ${renderNotes(this.notes)}
        <div class="text ${long ? 'long' : ''}" tabindex=${long ? '0' : '-1'}>${highlighted(text, spans)}</div>
        ${truncated ? html`<div class="more"><span class="muted">… ${(doc.text.length - RENDER_LIMIT).toLocaleString()} more characters not shown yet.</span>
          <button class="link show-all" @click=${() => { this.full = true; }}>Show all</button></div>` : nothing}
      </article>
    `;
  }
}

/** Effect, value and support as text; the bar draws the same value from the middle (right: its presence helps). */
function renderAttribution(attribution: CardAttribution | undefined) {
  if (!attribution) return nothing;
  if (attribution.kind === 'running') {
    return html`<div class="attribution" tabindex="0" aria-label=${`Explaining: ${attribution.withoutIt}`}>
      <span class="effect running">… explaining</span><span>${attribution.withoutIt}</span></div>`;
  }
  const label = EFFECT_LABELS[attribution.effect];
  const half = 58;
  const width = attribution.value === null ? 0 : Math.abs(attribution.value) * half;
  const text = `${label.word}: ${attribution.valueText}; ${attribution.withoutIt}; ${attribution.supportText}`;
  return html`<div class="attribution" tabindex="0" aria-label=${text} title=${label.meaning}>
    <span class="effect ${attribution.effect}">${label.glyph} ${label.word}</span>
    <svg class="bar" viewBox="0 0 120 12" aria-hidden="true">
      <rect class="track" x="1" y="2" width="118" height="8"></rect>
      ${attribution.value === null ? nothing : svg`<rect class=${attribution.value >= 0 ? 'up' : 'down'} x=${attribution.value >= 0 ? 60 : 60 - width} y="2" width=${width} height="8"></rect>`}
      <line class="axis" x1="60" x2="60" y1="0" y2="12"></line>
    </svg>
    <span class="value mono">${attribution.valueText}</span>
    <span>${attribution.withoutIt}</span>
    <span class="muted">${attribution.supportText}</span>
  </div>`;
}

function countKinds(doc: CaseDocument): string {
  const counts = new Map<string, number>();
  for (const s of doc.spans) counts.set(s.kind, (counts.get(s.kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}${n > 1 ? 's' : ''}`).join(' · ');
}

customElements.define('ri-document-card', DocumentCard);

declare global {
  interface HTMLElementTagNameMap { 'ri-document-card': DocumentCard }
}
