// A case's retrieval: the ranked candidates its retriever returned, the cut-off at k, which were sent (linked to their
// document cards), each one's relevance and label source, where it came from, and the failure cause with its evidence.
import { LitElement, css, html, nothing } from 'lit';
import type { CauseFinding, RankedPassage, RetrievalRecord } from '../../src/core/retrieval/contract.js';
import { CAUSE_WORDS, LABEL_SOURCE_WORDS, RANKED_PREVIEW, placeInFile, relevanceOf, visibleCandidates } from '../state/retrieval.js';
import type { RetrievalReading } from '../state/retrieval.js';
import type { RevealSourceDetail } from './explanationView.js';
import type { OpenRowDetail } from './caseView.js';
import { baseStyles } from './sharedStyles.js';
import { basename, formatCount, formatMs, formatNumber } from './format.js';

const RELEVANCE_MARK = { relevant: '✓', 'not-relevant': '✗', unknown: '?' } as const;
const RELEVANCE_WORD = { relevant: 'relevant', 'not-relevant': 'not relevant', unknown: 'unknown' } as const;

export class RetrievalView extends LitElement {
  static override properties = {
    reading: { attribute: false },
    cause: { attribute: false },
    canRunCommands: { type: Boolean, attribute: 'can-run-commands' },
    showAll: { state: true },
  };

  reading: RetrievalReading = { kind: 'none' };
  cause?: CauseFinding;
  canRunCommands = false;
  showAll = false;
  private shownFor: RetrievalReading | undefined;

  static override styles = [baseStyles, css`
    :host { display: block; }
    .cause {
      margin: 0 0 0.6em; padding: 0.4em 0.75em; overflow-wrap: anywhere;
      border-inline-start: 3px solid var(--vscode-editorWarning-foreground);
      background: var(--vscode-textCodeBlock-background);
    }
    .cause strong { margin-inline-end: 0.4em; }
    dl.facts { display: flex; flex-wrap: wrap; gap: 0.25em 1.5em; margin: 0 0 0.6em; }
    dl.facts div { display: flex; gap: 0.4em; }
    dt { color: var(--vscode-descriptionForeground); }
    dd { margin: 0; font-variant-numeric: tabular-nums; overflow-wrap: anywhere; }
    .wrap { overflow-x: auto; }
    table { border-collapse: collapse; width: 100%; }
    th, td { padding: 0.2em 0.7em; text-align: start; vertical-align: baseline; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    th { color: var(--vscode-descriptionForeground); font-weight: 600; }
    td.num { text-align: end; font-variant-numeric: tabular-nums; }
    td.id { overflow-wrap: anywhere; }
    td.sent, .mark { white-space: nowrap; }
    tr.unsent td { color: var(--vscode-descriptionForeground); }
    tr.unsent td.id, tr.unsent .relevant { color: var(--vscode-foreground); }
    tr.about { background: var(--vscode-editor-findMatchHighlightBackground); outline: 1px dashed var(--vscode-editorWarning-foreground); outline-offset: -1px; }
    .relevant { color: var(--vscode-testing-iconPassed); font-weight: 600; }
    .not-relevant { color: var(--vscode-descriptionForeground); }
    .unknown { color: var(--vscode-descriptionForeground); font-style: italic; }
    tr.cutoff td { padding: 0; border-bottom: none; }
    .cutoff-line {
      display: flex; align-items: center; gap: 0.6em; margin: 0.15em 0; font-size: 0.9em; font-weight: 600;
      color: var(--vscode-editorWarning-foreground);
    }
    .cutoff-line::before, .cutoff-line::after { content: ''; flex: 1 1 1em; border-top: 2px dashed var(--vscode-editorWarning-foreground); }
    .url { overflow-wrap: anywhere; }
    .more { margin-top: 0.5em; }
    .error-text { margin: 0; }
  `];

  override willUpdate(changed: Map<string, unknown>): void {
    // Another case starts folded again.
    if (changed.has('reading') && this.shownFor !== this.reading) { this.shownFor = this.reading; this.showAll = false; }
  }

  override render() {
    const reading = this.reading;
    if (reading.kind === 'none') return nothing;
    return html`
      ${this.cause ? html`<p class="cause" role="note" data-cause=${this.cause.cause}><strong>${capitalised(CAUSE_WORDS[this.cause.cause])}:</strong> ${this.cause.words}</p>` : nothing}
      ${reading.kind === 'invalid'
        ? html`<p class="error-text" role="alert">This case's retrieval record cannot be read (${reading.reason}); its ranked list is not shown.</p>`
        : this.renderRecord(reading.record)}
    `;
  }

  private renderRecord(record: RetrievalRecord) {
    const rows = visibleCandidates(record, this.showAll);
    const hidden = record.candidates.length - rows.length;
    const missing = (record.relevant ?? []).filter((r) => r.grade > 0 && !record.candidates.some((c) => c.id === r.id)).map((r) => r.id);
    return html`
      <dl class="facts">
        <div><dt>Retriever</dt><dd class="mono">${record.retriever}</dd></div>
        <div><dt>Cut-off k</dt><dd>${record.k}</dd></div>
        <div><dt>Candidates</dt><dd>${formatCount(record.candidates.length)}</dd></div>
        ${record.latencyMs !== undefined ? html`<div><dt>Retrieval</dt><dd>${record.cached ? 'cached' : formatMs(record.latencyMs)}</dd></div>` : nothing}
        ${missing.length ? html`<div><dt>Relevant, never retrieved</dt><dd class="mono">${missing.join(', ')}</dd></div>` : nothing}
      </dl>
      ${record.candidates.length === 0 ? html`<p class="muted">The retriever returned no candidates.</p>` : html`<div class="wrap"><table>
        <caption class="visually-hidden">Candidates in the retriever's order; the dashed line is the cut-off at k = ${record.k}</caption>
        <thead><tr><th scope="col">Rank</th><th scope="col">Score</th><th scope="col">Id</th><th scope="col">Relevance</th><th scope="col">Sent</th><th scope="col">Source</th></tr></thead>
        <tbody>${rows.map((passage, i) => html`${this.renderRow(passage)}${isCutAfter(rows, i, record.k) ? html`<tr class="cutoff" data-cutoff=${record.k}><td colspan="6">
          <div class="cutoff-line">cut-off k = ${record.k}: below this line was not sent</div></td></tr>` : nothing}`)}</tbody>
      </table></div>`}
      ${hidden > 0 ? html`<button class="link more" @click=${() => { this.showAll = true; }}>Show all ${formatCount(record.candidates.length)} candidates (${formatCount(hidden)} more)</button>` : nothing}
      ${this.showAll && record.candidates.length > RANKED_PREVIEW ? html`<button class="link more" @click=${() => { this.showAll = false; }}>Show the top ${RANKED_PREVIEW} only</button>` : nothing}
    `;
  }

  private renderRow(passage: RankedPassage) {
    const relevance = relevanceOf(passage);
    const about = this.cause?.passageId === passage.id;
    return html`<tr class=${`${passage.sent ? 'sent' : 'unsent'}${about ? ' about' : ''}`} data-rank=${passage.rank} data-id=${passage.id}>
      <td class="num">${passage.rank}</td>
      <td class="num">${passage.score === undefined ? '—' : formatNumber(passage.score)}</td>
      <td class="id mono">${passage.id}${about ? html` <span class="muted">(the cause's passage)</span>` : nothing}</td>
      <td><span class=${`${relevance} mark`}>${RELEVANCE_MARK[relevance]} ${RELEVANCE_WORD[relevance]}</span>${passage.labelSource ? html` <span class="muted">(${LABEL_SOURCE_WORDS[passage.labelSource]})</span>` : nothing}</td>
      <td class="sent">${passage.sent
        ? passage.documentId
          ? html`<button class="link" title="Show the document card the model saw" @click=${() => this.reveal(passage.documentId!)}>sent as ${passage.documentId}</button>`
          : html`sent`
        : html`<span class="muted">not sent</span>`}</td>
      <td>${this.renderSource(passage)}</td>
    </tr>`;
  }

  private renderSource(passage: RankedPassage) {
    const source = passage.source;
    if (!source) return html`<span class="muted">—</span>`;
    if (source.file) {
      const place = placeInFile(source);
      const where = `${basename(source.file)}${place}`;
      // A PDF opens as the text the index read from it, at the passage's line.
      const opens = source.startPage !== undefined ? `Open the text of ${source.file} at${place}` : `Open ${source.file}${place}`;
      return this.canRunCommands
        ? html`<button class="link mono" title=${opens} @click=${() => this.open(source.file!, source.startLine ?? 1)}>${where}</button>`
        : html`<span class="mono" title=${source.file}>${source.file}${place}</span>`;
    }
    // A URL is shown as text to copy, never followed from the webview.
    return html`<span class="mono url">${source.url}</span>`;
  }

  private reveal(documentId: string): void {
    this.dispatchEvent(new CustomEvent<RevealSourceDetail>('ri-reveal-source', { detail: { documentId }, bubbles: true, composed: true }));
  }

  private open(file: string, line: number): void {
    this.dispatchEvent(new CustomEvent<OpenRowDetail>('ri-open-dataset-row', { detail: { file, line }, bubbles: true, composed: true }));
  }
}

/** The cut-off line goes after rank k when a row below it follows in what is drawn. */
function isCutAfter(rows: readonly RankedPassage[], index: number, k: number): boolean {
  return rows[index]!.rank === k && index + 1 < rows.length;
}

function capitalised(words: string): string {
  return words.charAt(0).toUpperCase() + words.slice(1);
}

customElements.define('ri-retrieval-view', RetrievalView);

declare global {
  interface HTMLElementTagNameMap { 'ri-retrieval-view': RetrievalView }
}
