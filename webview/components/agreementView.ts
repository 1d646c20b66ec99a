// For each judge metric with human verdicts: how often the judge agrees (accuracy and Cohen's κ with 95% intervals),
// the confusion matrix, and the disagreeing cases one click away.
import { LitElement, css, html, nothing } from 'lit';
import type { VerdictsView } from '../../src/core/verdicts/view.js';
import { baseStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';

const range = (low: number, high: number) => `[${formatNumber(low)}, ${formatNumber(high)}]`;

export class AgreementView extends LitElement {
  static override properties = { verdicts: { attribute: false } };
  verdicts: VerdictsView | undefined;

  static override styles = [baseStyles, css`
    :host { display: block; }
    section { margin-bottom: 1em; }
    table { border-collapse: collapse; margin: 0.3em 0; }
    th, td { border: 1px solid var(--vscode-widget-border, var(--vscode-descriptionForeground)); padding: 0.2em 0.5em; text-align: right; }
    th { text-align: left; font-weight: 600; }
    ul { margin: 0.3em 0; padding-inline-start: 1.2em; }
    button.link { background: none; border: none; padding: 0; color: var(--vscode-textLink-foreground); cursor: pointer; font: inherit; text-decoration: underline; }
  `];

  private open(key: string): void {
    this.dispatchEvent(new CustomEvent('ri-show-case', { detail: { key }, bubbles: true, composed: true }));
  }

  override render() {
    const metrics = this.verdicts?.agreement ?? [];
    if (metrics.length === 0) {
      return html`<p class="muted">No human verdicts on judge verdicts yet: open a case and press <kbd>y</kbd> (correct) or <kbd>x</kbd> (wrong).</p>`;
    }
    return html`${metrics.map((m) => html`<section class="metric" data-metric=${m.metric} aria-label=${`Agreement on ${m.metric}`}>
      <h4>${m.metric}</h4>
      <p>Judge agrees with you on <strong class="accuracy">${m.accuracy.value === null ? '—' : `${formatNumber(m.accuracy.value * 100)} %`}</strong>
        of ${m.n} case${m.n === 1 ? '' : 's'}${m.accuracy.value === null ? '' : ` ${range(m.accuracy.low * 100, m.accuracy.high * 100)} %`};
        Cohen's κ <strong class="kappa">${m.kappa ? formatNumber(m.kappa.value) : 'undefined'}</strong>${m.kappa ? ` ${range(m.kappa.low, m.kappa.high)}` : ' (one label only)'}
        ${m.stale || m.undetermined ? html`<span class="muted">· not counted: ${m.stale} stale, ${m.undetermined} judge undetermined</span>` : nothing}</p>
      <table aria-label=${`Confusion matrix for ${m.metric}`}>
        <thead><tr><th scope="col">judge \\ you</th><th scope="col">correct</th><th scope="col">wrong</th></tr></thead>
        <tbody>
          <tr><th scope="row">pass</th><td>${m.matrix.passCorrect}</td><td>${m.matrix.passWrong}</td></tr>
          <tr><th scope="row">fail</th><td>${m.matrix.failCorrect}</td><td>${m.matrix.failWrong}</td></tr>
        </tbody>
      </table>
      ${m.disagreements.length ? html`<p>Disagreements:</p><ul class="disagreements">${m.disagreements.map((key) => html`<li><button class="link" @click=${() => this.open(key)}>${key.replace('\u0000', ' on ')}</button></li>`)}</ul>` : nothing}
    </section>`)}`;
  }
}

customElements.define('ri-agreement-view', AgreementView);

declare global {
  interface HTMLElementTagNameMap {
    'ri-agreement-view': AgreementView;
  }
}
