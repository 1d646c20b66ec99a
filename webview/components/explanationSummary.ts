// The run's explained cases at a glance, per suite and model: how accuracy moves with the answer-bearing passage's
// position, which passages most often harm answers, and whether the decisive passages are the ones the dataset labels
// answer-bearing. Computed by core's aggregateSuites from the case explanations the inspector holds, so it follows a
// running explanation case by case and reads the same as the CLI's and the reports' tables.
import { LitElement, css, html, nothing } from 'lit';
import type { SuiteExplanation } from '../../src/core/explain/model.js';
import { suitePositionChart, suitePositionText } from '../state/explanation.js';
import { ROLE_WORDS } from './documentCard.js';
import { formatCount } from './format.js';
import { baseStyles } from './sharedStyles.js';
import './lineChart.js';

export class ExplanationSummary extends LitElement {
  static override properties = { suites: { attribute: false } };
  suites: readonly SuiteExplanation[] = [];

  static override styles = [baseStyles, css`
    :host { display: block; }
    .suite + .suite { margin-top: 1.25em; padding-top: 1em; border-top: 1px solid var(--vscode-widget-border, transparent); }
    h4 { margin: 0 0 0.4em; }
    p { margin: 0.3em 0; }
    ol { margin: 0.25em 0; padding-inline-start: 1.5em; }
    li { margin: 0.15em 0; overflow-wrap: anywhere; }
    .warning { color: var(--vscode-editorWarning-foreground); }
  `];

  override render() {
    return this.suites.map((suite) => this.renderSuite(suite));
  }

  private renderSuite(suite: SuiteExplanation) {
    const chart = suitePositionChart(suite);
    const { agree, n } = suite.decisiveIsLabelled;
    return html`<section class="suite" aria-label=${`Explained cases of ${suite.suiteId}, ${suite.modelKey}`}>
      <h4>${suite.suiteId} <span class="muted">· ${suite.modelKey} · ${formatCount(suite.cases)} case${suite.cases === 1 ? '' : 's'} explained</span></h4>
      ${n > 0 ? html`<p>Decisive sources the dataset labels answer-bearing: <strong>${formatCount(agree)} of ${formatCount(n)}</strong>.
        ${agree < n ? html`<span class="warning">A decisive source the dataset calls noise suggests its labels (or the answer) may be wrong.</span>` : nothing}</p>`
        : html`<p class="muted">No source was decisive in these cases.</p>`}
      ${suite.accuracyByPosition.length ? html`<p>Pass rate by position of the answer-bearing source: ${suitePositionText(suite)}.</p>
        ${chart ? html`<ri-line-chart .data=${chart} caption="Share of explained cases that pass with the answer-bearing source at each position"></ri-line-chart>` : nothing}` : nothing}
      ${suite.mostHarmful.length ? html`<p>Sources that most often harm the answer:</p>
        <ol>${suite.mostHarmful.map((h) => html`<li>“${h.preview}” <span class="muted">(${ROLE_WORDS[h.role] ?? h.role}) — harms ${formatCount(h.cases)} case${h.cases === 1 ? '' : 's'}</span></li>`)}</ol>` : nothing}
    </section>`;
  }
}

customElements.define('ri-explanation-summary', ExplanationSummary);

declare global {
  interface HTMLElementTagNameMap { 'ri-explanation-summary': ExplanationSummary }
}
