// What the RAGAS judges found on one case: statements with verdicts and evidence, claims traced to their documents, verdicts by rank.
import { LitElement, css, html, nothing } from 'lit';
import type { ClaimRow, ExtractedRow, Located, RagasFindings, StatementRow, VerdictRow } from '../state/ragasFindings.js';
import type { EvidenceEventDetail } from './scoreList.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';
import { formatNumber } from './format.js';

export class RagasFindingsView extends LitElement {
  static override properties = { findings: { attribute: false } };
  findings?: RagasFindings;

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: grid; gap: 1.1em; }
    h4 { margin-bottom: 0.35em; }
    h4 .muted { font-weight: normal; }
    ol { margin: 0; padding-inline-start: 1.6em; display: grid; gap: 0.45em; }
    li { padding-inline-start: 0.4em; border-inline-start: 3px solid transparent; }
    /* Not supported, incorrect, not useful: a bar in the failure colour beside the item as well as the glyph and word. */
    li.unsupported, li.incorrect { border-inline-start-color: var(--vscode-testing-iconFailed); }
    .row { display: flex; flex-wrap: wrap; gap: 0.2em 0.6em; align-items: baseline; }
    .text { overflow-wrap: anywhere; unicode-bidi: plaintext; }
    .reason { color: var(--vscode-descriptionForeground); overflow-wrap: anywhere; unicode-bidi: plaintext; }
    .links { display: flex; flex-wrap: wrap; gap: 0.2em 0.8em; align-items: baseline; }
    .source.noise { color: var(--vscode-editorWarning-foreground); }
    .tag { font-size: 0.9em; padding: 0 0.35em; border: 1px solid currentColor; border-radius: 2px; white-space: nowrap; }
    .warn { color: var(--vscode-editorWarning-foreground); }
  `];

  override render() {
    const f = this.findings;
    if (!f) return nothing;
    return html`
      ${f.faithfulness ? this.renderStatements(f.faithfulness.rows) : nothing}
      ${f.noise ? this.renderClaims(f.noise) : nothing}
      ${f.usefulness.map((u) => this.renderVerdicts(u.metric, u.rows))}
      ${f.relevance ? this.renderExtracted(f.relevance.rows) : nothing}
      ${f.recall ? html`<section class="recall" aria-labelledby="rf-recall">
        <h4 id="rf-recall">Context recall: reference sentences <span class="muted">(over the joined contexts)</span></h4>
        <ol>${f.recall.rows.map((r) => html`<li class=${r.attributed ? 'attributed' : 'unsupported'}><div class="row">
          ${r.attributed ? html`<span class="outcome pass">✓ attributed</span>` : html`<span class="outcome fail">✗ not attributed</span>`}
          <span class="text">${r.statement}</span></div><div class="reason">${r.reason}</div></li>`)}</ol>
      </section>` : nothing}
    `;
  }

  private renderStatements(rows: StatementRow[]) {
    const supported = rows.filter((r) => r.supported).length;
    return html`<section class="faithfulness" aria-labelledby="rf-faith">
      <h4 id="rf-faith">Faithfulness: statements of the response <span class="muted">(${supported} of ${rows.length} supported)</span></h4>
      <ol>${rows.map((r, i) => html`<li class=${r.supported ? 'supported' : 'unsupported'} data-statement=${i}>
        <div class="row">
          ${r.supported ? html`<span class="outcome pass">✓ supported</span>` : html`<span class="outcome fail">✗ not supported</span>`}
          <span class="text">${r.statement}</span>
        </div>
        <div class="reason">${r.reason}</div>
        ${r.evidence ? html`<div class="links">${this.link(r.evidence, `Evidence in ${r.evidence.documentId}`, r.evidence.text ?? r.quote)}</div>`
          : r.supported && r.quote ? html`<div class="warn">⚠ The judge's quote is not exact text of any document, so it cannot be shown: “${clip(r.quote)}”</div>` : nothing}
      </li>`)}</ol>
    </section>`;
  }

  private renderClaims(noise: NonNullable<RagasFindings['noise']>) {
    const modes = noise.metrics.map((m) => `${m.metric} ${m.value === null ? 'undetermined' : formatNumber(m.value)}`).join(' · ');
    return html`<section class="noise" aria-labelledby="rf-noise">
      <h4 id="rf-noise">Noise sensitivity: where each claim came from <span class="muted">(${modes}; lower is better)</span></h4>
      <ol>${noise.claims.map((c, a) => this.renderClaim(c, a))}</ol>
    </section>`;
  }

  private renderClaim(c: ClaimRow, a: number) {
    return html`<li class=${c.correct ? 'correct' : 'incorrect'} data-claim=${a}>
      <div class="row">
        ${c.correct ? html`<span class="outcome pass">✓ correct</span>` : html`<span class="outcome fail">✗ incorrect</span>`}
        <span class="text">${c.claim}</span>
        ${c.counts ? html`<span class="tag">counts toward ${c.counts === 'relevant' ? 'relevant' : 'irrelevant (noise)'}</span>` : nothing}
      </div>
      ${c.reason ? html`<div class="reason">Against the reference: ${c.reason}</div>` : nothing}
      <div class="links">
        ${c.sources.length === 0 ? html`<span class="muted">Inferred from no context.</span>` : html`<span class="muted">From:</span>`}
        ${c.sources.map((s) => html`<span class="source ${s.relevant ? 'relevant' : 'noise'}" data-doc=${s.documentId}>
          ${s.evidence
            ? this.link(s.evidence, `${s.documentId} · ${s.relevant ? 'relevant' : 'noise'}`, undefined)
            : html`<button class="link" @click=${() => this.reveal(s.documentId, '')}>${s.documentId} · ${s.relevant ? 'relevant' : 'noise'}</button>`}
        </span>`)}
      </div>
    </li>`;
  }

  private renderVerdicts(metric: string, rows: VerdictRow[]) {
    return html`<section class="usefulness" data-metric=${metric} aria-label=${`${metric} verdicts by rank`}>
      <h4>${metric === 'context_utilization' ? 'Context utilization' : 'Context precision'}: verdicts in rank order <span class="muted">(also on each document)</span></h4>
      <ol>${rows.map((r) => html`<li value=${r.rank} class=${r.useful ? 'useful' : 'unsupported'}><div class="row">
        <button class="link mono" @click=${() => this.reveal(r.documentId, '')}>${r.documentId}</button>
        ${r.useful ? html`<span class="outcome pass">✓ useful</span>` : html`<span class="outcome fail">✗ not useful</span>`}
        <span class="reason">${r.reason}</span></div></li>`)}</ol>
    </section>`;
  }

  private renderExtracted(rows: ExtractedRow[]) {
    return html`<section class="relevance" aria-labelledby="rf-rel">
      <h4 id="rf-rel">Context relevance: sentences extracted as relevant <span class="muted">(highlighted as evidence in the documents)</span></h4>
      <ol>${rows.map((r) => html`<li><div class="row"><span class="text">“${r.text}”</span></div>
        <div class="links">${r.evidence ? this.link(r.evidence, `in ${r.evidence.documentId}`, undefined) : html`<span class="warn">⚠ not exact text of any document (still counted, as in the reference)</span>`}</div></li>`)}</ol>
    </section>`;
  }

  private link(where: Located, label: string, quote: string | undefined) {
    return html`<button class="link evidence-link" data-mark=${where.markId} @click=${() => this.reveal(where.documentId, where.markId)}>${label} [${where.start}–${where.end}]</button>
      ${quote ? html`<span class="reason">“${clip(quote)}”</span>` : nothing}`;
  }

  /** The case view scrolls to the span (or, with no span, the document) and flashes it. */
  private reveal(documentId: string, id: string): void {
    this.dispatchEvent(new CustomEvent<EvidenceEventDetail>('ri-evidence', { detail: { documentId, id }, bubbles: true, composed: true }));
  }
}

function clip(text: string): string {
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

customElements.define('ri-ragas-findings', RagasFindingsView);

declare global {
  interface HTMLElementTagNameMap { 'ri-ragas-findings': RagasFindingsView }
}
