// "Why it came out this way": an explained case's one-line summary, each source's effect (a button that shows its
// card), the position curve, the instruction effects and whether removing the credited sources together flips the
// outcome as predicted (the faithfulness check). The attribution bars themselves are on the document cards.
import { LitElement, css, html, nothing } from 'lit';
import type { CaseExplanation } from '../../src/protocol.js';
import { EFFECT_LABELS, cardAttributions, positionChart, positionText } from '../state/explanation.js';
import { baseStyles } from './sharedStyles.js';
import { ROLE_WORDS } from './documentCard.js';
import './lineChart.js';

export interface RevealSourceDetail { documentId: string }

export class ExplanationView extends LitElement {
  static override properties = {
    explanation: { attribute: false },
    progress: { attribute: false },
  };

  explanation?: CaseExplanation;
  /** Variants of this case done so far (identical ones count once each), while it is being explained. */
  progress?: { done: number };

  static override styles = [baseStyles, css`
    :host { display: block; margin-bottom: 1em; }
    section {
      padding: 0.5em 0.75em; border-radius: 3px;
      border: 1px solid var(--vscode-focusBorder);
      background: var(--vscode-textBlockQuote-background, transparent);
    }
    .summary { margin: 0 0 0.4em; font-weight: 600; overflow-wrap: anywhere; }
    p { margin: 0.25em 0; }
    ul { margin: 0.25em 0; padding-inline-start: 1.25em; }
    li { margin: 0.15em 0; }
    .effect { font-weight: 600; }
    .effect.decisive, .effect.helps { color: var(--vscode-testing-iconPassed); }
    .effect.harms { color: var(--vscode-testing-iconFailed); }
    .effect.inert, .effect.undetermined { color: var(--vscode-descriptionForeground); }
    h4 { margin-top: 0.6em; }
    .partial, .check.does-not-flip { color: var(--vscode-editorWarning-foreground); }
    ri-line-chart { margin-top: 0.25em; }
  `];

  override render() {
    const e = this.explanation;
    if (!e) {
      if (!this.progress) return nothing;
      return html`<section aria-label="Explanation"><p role="status">Explaining this case: ${this.progress.done} variant${this.progress.done === 1 ? '' : 's'} done.
        Each document's card shows what leaving it out did; the effects follow when every variant has run.</p></section>`;
    }
    const cards = cardAttributions(e, undefined);
    const chart = positionChart(e);
    return html`<section aria-labelledby="why">
      <h3 id="why" class="visually-hidden">Why it came out this way</h3>
      <p class="summary" role="status">${e.summary}</p>
      <p class="muted">${e.meaning}${e.basis === 'rating' ? ' Compared by rating (share of the scale), not by a pass/fail verdict.' : ''}</p>
      ${e.missingVariants > 0 ? html`<p class="partial">Partial: ${e.missingVariants} variant${e.missingVariants === 1 ? '' : 's'} did not finish. Explain again to run only those.</p>` : nothing}
      <ul aria-label="Effect of each source">
        ${e.attributions.map((a) => {
          const label = EFFECT_LABELS[a.effect];
          const card = cards.get(a.sourceId);
          const source = e.sources.find((s) => s.id === a.sourceId);
          return html`<li>
            <button class="link mono" title="Show this document" @click=${() => this.reveal(a.sourceId)}>${a.sourceId}</button>
            <span class="muted">${ROLE_WORDS[a.role] ?? a.role}${a.answerBearing && a.role !== 'positive' ? ', labelled answer-bearing' : ''}</span>
            <span class="effect ${a.effect}">${label.glyph} ${label.word}</span>
            ${card?.kind === 'explained' ? html`<span class="mono">${card.valueText}</span> · <span>${card.withoutIt}</span>` : nothing}
            ${source?.preview ? html`<span class="muted">“${source.preview}”</span>` : nothing}
          </li>`;
        })}
      </ul>
      ${e.positionCurve ? html`<h4>Position of ${e.positionCurve.sourceId}</h4>
        <p>${positionText(e)}</p>
        ${chart ? html`<ri-line-chart .data=${chart} caption="Pass (1) or fail (0) by position"></ri-line-chart>` : nothing}` : nothing}
      ${e.instructions.length ? html`<h4>Instructions left out</h4><ul>
        ${e.instructions.map((i) => html`<li>without the <span class="mono">${i.section}</span> section:
          ${i.pass === null ? '? undetermined' : i.pass ? '✓ passes' : '✗ fails'}${i.flips ? html` <strong>(the verdict flips)</strong>` : ''}</li>`)}
      </ul>` : nothing}
      ${e.sentences.length ? html`<h4>Response sentences that depend on a source</h4><ul>
        ${e.sentences.map((s) => html`<li>“${s.sentence}” — gone without ${s.sourceIds.join(', ')}</li>`)}
      </ul>` : nothing}
      ${e.faithfulness && e.faithfulness.status !== 'nothing-to-check' ? html`<p class="check ${e.faithfulness.status}" aria-label="Faithfulness check">
        ${e.faithfulness.status === 'does-not-flip' ? '⚠ Check fails: ' : e.faithfulness.status === 'flips' ? '✓ Check holds: ' : 'Check: '}${e.faithfulness.note}.</p>` : nothing}
      ${e.surrogate ? html`<p class="muted">Subsets: ${e.surrogate.samples} determined, fit R² ${e.surrogate.r2.toFixed(2)}, accuracy ${e.surrogate.accuracy.toFixed(2)}${e.surrogate.agreementWithLeaveOneOut === null ? '' : `, agrees with leave-one-out ${e.surrogate.agreementWithLeaveOneOut.toFixed(2)}`}.</p>` : nothing}
    </section>`;
  }

  private reveal(documentId: string): void {
    this.dispatchEvent(new CustomEvent<RevealSourceDetail>('ri-reveal-source', { detail: { documentId }, bubbles: true, composed: true }));
  }
}

customElements.define('ri-explanation', ExplanationView);

declare global {
  interface HTMLElementTagNameMap { 'ri-explanation': ExplanationView }
}
