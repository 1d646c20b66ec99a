// One case against one model: what was asked, what the model saw and said, every score, what each method's judges found, and where to edit.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CaseDetail, CaseExplanation, VariantOutcome } from '../../src/protocol.js';
import { cardAttributions } from '../state/explanation.js';
import type { RevealSourceDetail } from './explanationView.js';
import type { CaseDocument, Score } from '../../src/core/model.js';
import { expectedStrings, findMatches } from '../text/segments.js';
import type { MarkSpan } from '../text/segments.js';
import { clipLongStrings } from '../text/limits.js';
import { CUT_ANSWER, isTruncated, outcomeOf } from '../../src/core/model.js';
import { caseAnnotations } from '../state/caseAnnotations.js';
import type { CaseAnnotations } from '../state/caseAnnotations.js';
import { haystackOf, responseSpansOf } from '../state/needleCase.js';
import { caseViewParts } from '../../src/core/suites/views.js';
import { highlighted, flashMarks } from './highlight.js';
import { baseStyles, markStyles, outcomeStyles } from './sharedStyles.js';
import { evidenceId } from './scoreList.js';
import type { EvidenceEventDetail } from './scoreList.js';
import { basename, formatCost, formatCount, formatMs } from './format.js';
import { causeFindingOf, readRetrieval } from '../state/retrieval.js';
import type { RetrievalReading } from '../state/retrieval.js';
import './retrievalView.js';
import './documentCard.js';
import './scoreList.js';
import './spanLegend.js';
import './promptMessages.js';
import './needleView.js';
import './ragasFindings.js';
import './dimensionBars.js';
import './explanationView.js';

/** The pseudo document id a score may use to point into the response rather than a passage. */
const RESPONSE_ID = 'response';

export interface OpenRowDetail { file: string; line: number }

export class CaseView extends LitElement {
  static override properties = {
    detail: { attribute: false },
    loading: { type: Boolean },
    error: { type: String },
    canRunCommands: { type: Boolean, attribute: 'can-run-commands' },
    explanation: { attribute: false },
    explainRuns: { attribute: false },
    explaining: { type: Boolean },
    notice: { state: true },
  };

  detail?: CaseDetail;
  loading = false;
  error = '';
  canRunCommands = false;
  /** This case's stored or just computed explanation. */
  explanation?: CaseExplanation;
  /** While this case is being explained: its variant runs' outcomes so far, by variant id. */
  explainRuns?: ReadonlyMap<string, VariantOutcome>;
  /** An explanation runs on this run (one at a time): Explain waits. */
  explaining = false;
  notice = '';

  private annotations: CaseAnnotations | undefined;
  private annotated: CaseDetail | undefined;
  private retrieval: RetrievalReading = { kind: 'none' };
  private retrievalFor: CaseDetail | undefined;

  static override styles = [baseStyles, outcomeStyles, markStyles, css`
    :host { display: block; padding: 0.75em 1.25em 3em; }
    header { display: grid; gap: 0.4em; margin-bottom: 1em; }
    .title { display: flex; flex-wrap: wrap; gap: 0.75em; align-items: baseline; }
    h2 { overflow-wrap: anywhere; }
    .actions { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; }
    dl.facts { display: flex; flex-wrap: wrap; gap: 0.25em 1.5em; margin: 0; }
    dl.facts div { display: flex; gap: 0.4em; }
    dt { color: var(--vscode-descriptionForeground); }
    dd { margin: 0; font-variant-numeric: tabular-nums; }
    section { margin-top: 1.25em; }
    section > h3 { margin-bottom: 0.5em; }
    .question, .response {
      margin: 0; padding: 0.5em 0.75em; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; line-height: 1.5;
      background: var(--vscode-textCodeBlock-background);
      border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
      border-radius: 3px;
    }
    .response { max-height: 30em; overflow: auto; }
    .case-error {
      padding: 0.5em 0.75em; white-space: pre-wrap; overflow-wrap: anywhere;
      color: var(--vscode-errorForeground);
      background: var(--vscode-inputValidation-errorBackground);
      border: 1px solid var(--vscode-inputValidation-errorBorder);
    }
    .documents { display: grid; gap: 0.75em; margin-top: 0.5em; }
    .notice { color: var(--vscode-editorWarning-foreground); }
    pre.json { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
    details > summary { cursor: pointer; }
    summary h3 { display: inline; }
    .empty { padding: 2em 1em; }
  `];

  constructor() {
    super();
    this.addEventListener('ri-evidence', (event) => void this.revealEvidence((event as CustomEvent<EvidenceEventDetail>).detail));
    this.addEventListener('ri-reveal-source', (event) => this.revealSource((event as CustomEvent<RevealSourceDetail>).detail.documentId));
  }

  override render() {
    if (this.error) return html`<p class="error-text empty" role="alert">${this.error}</p>`;
    if (!this.detail) return html`<p class="muted empty">${this.loading ? 'Loading case…' : 'Select a case to inspect it (↑/↓ and Enter, or n / p for the next / previous failure).'}</p>`;
    const { evalCase, result } = this.detail;
    const evidence = evidenceByDocument(result.scores);
    const annotations = this.annotationsOf(this.detail);
    // A needle case shows its haystack (virtualised) and its answer in the needle view instead.
    const haystack = caseViewParts(evalCase.method).haystack ? haystackOf(evalCase) : undefined;
    const documents = haystack ? evalCase.documents.filter((d) => d !== haystack) : evalCase.documents;
    const attributions = cardAttributions(this.explanation, this.explainRuns);
    const retrieval = this.retrievalOf(this.detail);
    return html`
      ${this.renderHeader()}
      <ri-explanation .explanation=${this.explanation} .progress=${this.explainRuns && !this.explanation ? { done: this.explainRuns.size } : undefined}></ri-explanation>
      ${result.error ? html`<div class="case-error" role="note"><strong>${result.error.stage} error</strong> (${result.error.kind}${result.error.status ? `, HTTP ${result.error.status}` : ''}): ${result.error.message}</div>` : nothing}
      ${haystack ? html`<section aria-label="Needle"><ri-needle-view .detail=${this.detail} .evidence=${evidence.get(haystack.id) ?? []}></ri-needle-view></section>` : nothing}
      <section aria-labelledby="q"><h3 id="q">Question</h3><p class="question">${evalCase.question}</p></section>
      ${retrieval.kind === 'none' ? nothing : html`<section aria-labelledby="rt"><h3 id="rt">Retrieval</h3>
        <ri-retrieval-view .reading=${retrieval} .cause=${causeFindingOf(result.scores)} ?can-run-commands=${this.canRunCommands}></ri-retrieval-view></section>`}
      <section aria-labelledby="s"><h3 id="s">Scores</h3>
        ${annotations.dimensions ? html`<ri-dimension-bars .chart=${annotations.dimensions}></ri-dimension-bars>` : nothing}
        <ri-score-list .scores=${result.scores} .notes=${annotations.scoreNotes}></ri-score-list></section>
      ${annotations.ragas ? html`<section aria-labelledby="j"><h3 id="j">What the judges found</h3><ri-ragas-findings .findings=${annotations.ragas}></ri-ragas-findings></section>` : nothing}
      ${haystack ? nothing : html`<section aria-labelledby="r">
        <h3 id="r">Response${result.response?.given ? html` <span class="muted">(from the dataset; no model was called)</span>` : nothing}</h3>
        ${result.response
          ? html`<p class="response" id="response-text">${highlighted(result.response.text, [...responseMatches(this.detail), ...responseSpansOf(result.scores), ...(evidence.get(RESPONSE_ID) ?? [])])}</p>`
          : html`<p class="muted">No response${result.error ? ' (see the error above)' : ''}.</p>`}
      </section>`}
      ${evalCase.expected !== undefined && evalCase.expected !== null ? html`<section aria-labelledby="e">
        <h3 id="e">Expected</h3><pre class="json mono">${JSON.stringify(evalCase.expected, null, 2)}</pre></section>` : nothing}
      ${this.notice && haystack ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
      ${documents.length ? html`<section aria-labelledby="d">
        <h3 id="d">Documents (${documents.length})</h3>
        ${this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing}
        <ri-span-legend .kinds=${annotations.legend}></ri-span-legend>
        <div class="documents">
          ${documents.map((doc) => html`<ri-document-card data-doc-id=${doc.id} .document=${doc}
            .evidence=${[...(evidence.get(doc.id) ?? []), ...(annotations.marks.get(doc.id) ?? [])]} .notes=${annotations.notes.get(doc.id) ?? []}
            .attribution=${attributions.get(doc.id)}></ri-document-card>`)}
        </div>
      </section>` : nothing}
      <section aria-labelledby="p">
        <details open><summary><h3 id="p">Prompt as sent (${evalCase.messages.length} messages)</h3></summary>
          <ri-prompt-messages .messages=${evalCase.messages}></ri-prompt-messages>
        </details>
      </section>
      <section aria-labelledby="m">
        <details><summary><h3 id="m">Parameters</h3></summary>
          <pre class="json mono">${JSON.stringify(clipLongStrings({ params: evalCase.params, seed: evalCase.seed, variables: evalCase.variables }), null, 2)}</pre>
        </details>
      </section>
    `;
  }

  private renderHeader() {
    const { evalCase, result } = this.detail!;
    const outcome = outcomeOf(result);
    const response = result.response;
    return html`<header>
      <div class="title">
        <h2 class="mono">${evalCase.id}</h2>
        ${outcomeBadge(outcome)}
        <span class="badge">${result.modelKey}</span>
        <span class="muted">${evalCase.suiteId}${evalCase.testbed ? ` › ${evalCase.testbed}` : ''} (${evalCase.method})</span>
      </div>
      <div class="actions">
        ${this.canRunCommands
          ? html`
            <vscode-button secondary @click=${() => this.emit('ri-open-dataset-row', { file: evalCase.row.file, line: evalCase.row.line })}
              title="Open the dataset row this case was built from">Open dataset row ${basename(evalCase.row.file)}:${evalCase.row.line}</vscode-button>
            ${evalCase.template ? html`<vscode-button secondary @click=${() => this.emit('ri-open-template', { file: evalCase.template! })}
              title=${evalCase.template}>Open template ${basename(evalCase.template)}</vscode-button>` : nothing}
            <vscode-button @click=${() => this.emit('ri-rerun', {})} title="Run this case again with the current template">↻ Rerun</vscode-button>
            <vscode-button secondary ?disabled=${this.explaining} aria-disabled=${String(this.explaining)} @click=${() => { if (!this.explaining) this.emit('ri-explain', {}); }}
              title="Find which document, position or instruction made the model answer this way: the cost is shown first">${this.explanation ? 'Explain again' : 'Explain'}</vscode-button>`
          : html`<span class="muted">Dataset row <span class="mono">${evalCase.row.file}:${evalCase.row.line}</span>${evalCase.template ? html` · template <span class="mono">${evalCase.template}</span>` : nothing}</span>`}
      </div>
      <dl class="facts">
        ${response ? html`
          <div><dt>Tokens</dt><dd>${formatCount(response.usage.inputTokens)} in / ${formatCount(response.usage.outputTokens)} out</dd></div>
          <div><dt>Latency</dt><dd>${formatMs(response.latencyMs)}</dd></div>
          <div><dt>Cost</dt><dd>${response.costUsd === undefined ? 'unknown' : formatCost(response.costUsd)}</dd></div>
          <div><dt>Cached</dt><dd>${response.cached ? 'yes' : 'no'}</dd></div>
          ${response.finishReason ? html`<div><dt>Finish</dt><dd>${response.finishReason}${isTruncated(response) ? html` <span class="badge cut" title="The model stopped at its token limit: raise maxTokens (truncated: error makes such answers case errors)">${CUT_ANSWER}</span>` : nothing}</dd></div>` : nothing}` : nothing}
        <div><dt>Attempts</dt><dd>${result.attempts}</dd></div>
        ${result.judgeUsage ? html`<div><dt>Judge</dt><dd>${result.judgeUsage.calls} calls, ${formatCount(result.judgeUsage.inputTokens + result.judgeUsage.outputTokens)} tokens${result.judgeUsage.costUsd !== undefined ? `, ${formatCost(result.judgeUsage.costUsd)}` : ''}</dd></div>` : nothing}
      </dl>
    </header>`;
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('detail')) {
      this.notice = '';
      if (this.detail) void this.announceShown(this.detail);
    }
  }

  /** Fires `ri-case-shown` once the cards have rendered too: the app's timing and the tests wait for it. */
  private async announceShown(detail: CaseDetail): Promise<void> {
    const children = [...this.renderRoot.querySelectorAll('ri-document-card, ri-score-list, ri-prompt-messages, ri-needle-view, ri-ragas-findings, ri-explanation, ri-retrieval-view')] as LitElement[];
    await Promise.all(children.map((c) => c.updateComplete));
    if (this.detail !== detail) return;
    this.dispatchEvent(new CustomEvent('ri-case-shown', { detail: { caseId: detail.evalCase.id, modelKey: detail.result.modelKey }, bubbles: true, composed: true }));
  }

  private async revealEvidence({ documentId, id }: EvidenceEventDetail): Promise<void> {
    this.notice = '';
    if (documentId === RESPONSE_ID) {
      const response = this.renderRoot.querySelector('#response-text');
      if (response && flashMarks(response, id)) return;
    }
    const needle = this.renderRoot.querySelector('ri-needle-view');
    if (needle && this.detail && haystackOf(this.detail.evalCase)?.id === documentId) {
      if (!(await needle.flash(id))) this.notice = `The evidence span in ${documentId} lies outside the document's text.`;
      return;
    }
    const card = [...this.renderRoot.querySelectorAll('ri-document-card')].find((c) => c.dataset.docId === documentId);
    if (!card) {
      this.notice = `The evidence points at document “${documentId}”, which is not among this case's documents.`;
      return;
    }
    // A link to a whole document (a claim's source with no located quote, a verdict by rank) flashes the card.
    if (!id) { card.flashCard(); return; }
    if (!(await card.flash(id))) this.notice = `The evidence span in ${documentId} lies outside the document's text.`;
  }

  /** From the explanation's list to the document's card; a needle segment or a context line has no card of its own. */
  private revealSource(documentId: string): void {
    this.notice = '';
    const card = [...this.renderRoot.querySelectorAll('ri-document-card')].find((c) => c.dataset.docId === documentId);
    if (card) { card.flashCard(); card.focusAttribution(); }
    else this.notice = `“${documentId}” is a piece of the context, not one of the document cards; its effect is listed in the explanation.`;
  }

  /** The case's retrieval record, read once per case. */
  private retrievalOf(detail: CaseDetail): RetrievalReading {
    if (this.retrievalFor !== detail) { this.retrievalFor = detail; this.retrieval = readRetrieval(detail.evalCase.params); }
    return this.retrieval;
  }

  /** Method readings of the case, once per case (they are read on every render). */
  private annotationsOf(detail: CaseDetail): CaseAnnotations {
    if (this.annotated !== detail || !this.annotations) {
      this.annotated = detail;
      this.annotations = caseAnnotations(detail);
    }
    return this.annotations;
  }

  private emit(name: string, detail: object): void {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }
}

function outcomeBadge(outcome: ReturnType<typeof outcomeOf>) {
  switch (outcome) {
    case 'pass': return html`<span class="outcome pass">✓ passed</span>`;
    case 'fail': return html`<span class="outcome fail">✗ failed</span>`;
    case 'error': return html`<span class="outcome error">⚠ error</span>`;
    default: return html`<span class="outcome none">– no verdict</span>`;
  }
}

/** Evidence of every score, grouped by the document it points into, with ids the score list shares. */
function evidenceByDocument(scores: readonly Score[]): Map<string, MarkSpan[]> {
  const byDocument = new Map<string, MarkSpan[]>();
  scores.forEach((score, i) => score.evidence?.forEach((ev, j) => {
    const list = byDocument.get(ev.documentId) ?? [];
    list.push({ kind: 'evidence', start: ev.start, end: ev.end, id: evidenceId(i, j), label: score.metric });
    byDocument.set(ev.documentId, list);
  }));
  return byDocument;
}

/** Answer and counterfactual strings found in the response: the expected answers and the documents' spans. */
function responseMatches(detail: CaseDetail): MarkSpan[] {
  const text = detail.result.response?.text ?? '';
  const needles = [
    ...expectedStrings(detail.evalCase.expected).map((t) => ({ text: t, kind: 'answer' as const })),
    ...spansOfKind(detail.evalCase.documents, 'answer'),
    ...spansOfKind(detail.evalCase.documents, 'counterfactual'),
  ];
  return findMatches(text, needles);
}

function spansOfKind(documents: readonly CaseDocument[], kind: 'answer' | 'counterfactual') {
  return documents.flatMap((d) => d.spans.filter((s) => s.kind === kind).map((s) => ({ text: s.text, kind })));
}

customElements.define('ri-case-view', CaseView);

declare global {
  interface HTMLElementTagNameMap { 'ri-case-view': CaseView }
}
