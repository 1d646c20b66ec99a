// Every score of a case: value, verdict, label, explanation, judge error, and evidence links into the documents.
import { LitElement, css, html, nothing } from 'lit';
import type { Score } from '../../src/core/model.js';
import type { CardNote } from '../state/cardNotes.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';
import { noteStyles, renderNotes } from './noteList.js';

/** Fired when an evidence link is activated; the case view scrolls to the span and flashes it. */
export interface EvidenceEventDetail { documentId: string; id: string }

/** The id the case view gives evidence `j` of score `i`, shared with the marks it renders. */
export function evidenceId(scoreIndex: number, evidenceIndex: number): string {
  return `ev-${scoreIndex}-${evidenceIndex}`;
}

export class ScoreList extends LitElement {
  static override properties = { scores: { attribute: false }, notes: { attribute: false } };
  scores: Score[] = [];
  /** Method notes by metric, e.g. IF-RAG's "✗ wrong citation" on `correct`. */
  notes: Map<string, CardNote[]> = new Map();

  static override styles = [baseStyles, outcomeStyles, noteStyles, css`
    :host { display: block; }
    ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5em; }
    li {
      padding: 0.5em 0.75em; border-radius: 3px;
      background: var(--vscode-textCodeBlock-background);
      border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
    }
    .head { display: flex; flex-wrap: wrap; gap: 0.75em; align-items: baseline; }
    .metric { font-weight: 600; }
    .value { font-variant-numeric: tabular-nums; }
    .explanation { margin: 0.35em 0 0; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; }
    .judge-error {
      margin-top: 0.35em; padding: 0.35em 0.5em; white-space: pre-wrap; overflow-wrap: anywhere;
      color: var(--vscode-errorForeground);
      background: var(--vscode-inputValidation-errorBackground);
      border: 1px solid var(--vscode-inputValidation-errorBorder);
    }
    .evidence { margin-top: 0.35em; display: flex; flex-wrap: wrap; gap: 0.25em 1em; }
    .quote { color: var(--vscode-descriptionForeground); }
    details { margin-top: 0.35em; }
    pre { margin: 0.25em 0 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    ul.notes { padding: 0.35em 0 0; }
  `];

  override render() {
    if (this.scores.length === 0) return html`<p class="muted">No scores.</p>`;
    return html`<ol>${this.scores.map((score, i) => this.renderScore(score, i))}</ol>`;
  }

  private renderScore(score: Score, index: number) {
    return html`<li data-metric=${score.metric}>
      <div class="head">
        <span class="metric">${score.metric}</span>
        <span class="value mono">${score.judgeError ? '—' : score.value === null ? 'undetermined' : formatNumber(score.value)}</span>
        ${verdict(score)}
        ${score.label ? html`<span class="badge">${score.label}</span>` : nothing}
      </div>
      ${renderNotes(this.notes.get(score.metric))}
      ${score.explanation ? html`<p class="explanation">${score.explanation}</p>` : nothing}
      ${score.judgeError ? html`<div class="judge-error" role="note"><strong>⚠ Judge error:</strong> ${score.judgeError}</div>` : nothing}
      ${score.samples ? html`<p class="samples muted" data-unstable=${String(score.samples.unstable)}>${score.samples.unstable ? html`<span class="badge unstable">unstable</span> ` : nothing}${score.samples.k} judge samples: ${score.samples.values.map((v) => (v === null ? 'undetermined' : formatNumber(v))).join(' · ')} → ${score.samples.aggregation === 'majority' ? 'majority verdict' : 'mean'}</p>` : nothing}
      ${score.evidence?.length ? html`<div class="evidence">
        <span class="muted">Evidence:</span>
        ${score.evidence.map((ev, j) => html`<span>
          <button class="link mono evidence-link" data-evidence=${evidenceId(index, j)}
            @click=${() => this.reveal(ev.documentId, evidenceId(index, j))}>${ev.documentId} [${ev.start}–${ev.end}]</button>
          ${ev.text ? html`<span class="quote">“${clip(ev.text)}”</span>` : nothing}
        </span>`)}
      </div>` : nothing}
      ${score.details !== undefined ? html`<details><summary class="muted">Details</summary>
        <pre class="mono">${JSON.stringify(score.details, null, 2)}</pre></details>` : nothing}
    </li>`;
  }

  private reveal(documentId: string, id: string): void {
    this.dispatchEvent(new CustomEvent<EvidenceEventDetail>('ri-evidence', { detail: { documentId, id }, bubbles: true, composed: true }));
  }
}

function verdict(score: Score) {
  if (score.judgeError) return html`<span class="outcome error">⚠ judge error</span>`;
  if (score.pass === true) return html`<span class="outcome pass">✓ pass</span>`;
  if (score.pass === false) return html`<span class="outcome fail">✗ fail</span>`;
  return html`<span class="outcome none">– no verdict</span>`;
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

customElements.define('ri-score-list', ScoreList);

declare global {
  interface HTMLElementTagNameMap { 'ri-score-list': ScoreList }
}
