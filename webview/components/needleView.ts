// A needle case: where the needle went (requested vs actual depth, token index, tokenizer), the text around it beside the answer, and the whole context.
import { LitElement, css, html, nothing } from 'lit';
import type { CaseDetail } from '../../src/protocol.js';
import { haystackOf, needleFacts, needleWindows, responseSpansOf } from '../state/needleCase.js';
import type { NeedleFacts, TextWindow } from '../state/needleCase.js';
import { findMatches } from '../text/segments.js';
import type { MarkSpan } from '../text/segments.js';
import { highlighted } from './highlight.js';
import { baseStyles, markStyles, outcomeStyles } from './sharedStyles.js';
import { formatCount, formatNumber } from './format.js';
import type { LongText } from './longText.js';
import './longText.js';

/** The id the viewer gives needle `i`, so the windows and the facts can point at it. */
export const needleId = (i: number): string => `needle-${i}`;

export class NeedleView extends LitElement {
  static override properties = { detail: { attribute: false }, evidence: { attribute: false } };
  detail?: CaseDetail;
  /** Score evidence pointing into the haystack, with the score list's ids. */
  evidence: MarkSpan[] = [];

  static override styles = [baseStyles, markStyles, outcomeStyles, css`
    :host { display: block; }
    dl.facts { display: flex; flex-wrap: wrap; gap: 0.4em 0.6em; margin: 0 0 1em; }
    dl.facts div {
      flex: 1 1 auto; max-width: 24em;
      padding: 0.35em 0.6em; border-radius: 3px; background: var(--vscode-textCodeBlock-background);
      border: var(--ri-hc-border) solid var(--vscode-contrastBorder, transparent);
    }
    dt { color: var(--vscode-descriptionForeground); font-size: 0.9em; }
    dd { margin: 0; font-variant-numeric: tabular-nums; }
    .approximate { color: var(--vscode-editorWarning-foreground); font-weight: 600; }
    .around { display: grid; grid-template-columns: minmax(0, 3fr) minmax(16em, 2fr); gap: 1em; align-items: start; }
    @media (max-width: 760px) { .around { grid-template-columns: 1fr; } }
    h3 { margin-bottom: 0.4em; }
    .window, .reply {
      margin: 0 0 0.6em; padding: 0.5em 0.75em; line-height: 1.5; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext;
      border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px; background: var(--vscode-editor-background);
    }
    .reply { background: var(--vscode-textCodeBlock-background); }
    .window-head { display: flex; flex-wrap: wrap; gap: 0.75em; align-items: baseline; margin-bottom: 0.25em; }
    .elided { color: var(--vscode-descriptionForeground); }
    .whole { margin-top: 1em; }
    .whole-head { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: baseline; margin-bottom: 0.4em; }
    table { border-collapse: collapse; margin-bottom: 1em; }
    th, td { padding: 0.2em 0.8em; text-align: end; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); font-variant-numeric: tabular-nums; }
    th:first-child, td:first-child { text-align: start; }
  `];

  override render() {
    const detail = this.detail;
    const haystack = detail ? haystackOf(detail.evalCase) : undefined;
    if (!detail || !haystack) return html`<p class="muted">This needle case has no haystack document.</p>`;
    const facts = needleFacts(detail.evalCase);
    const windows = needleWindows(haystack.text, facts.needles);
    return html`
      ${this.renderFacts(facts, haystack.text.length, scoringOf(detail))}
      <div class="around">
        <section aria-labelledby="around">
          <h3 id="around">Around the needle${windows.length > 1 ? 's' : ''}</h3>
          ${facts.negative || facts.needles.length === 0
            ? html`<p class="muted">No needle was inserted (${facts.negative ? 'the negative test: the right answer is UNANSWERABLE' : 'none recorded'}).</p>`
            : windows.map((w) => this.renderWindow(haystack.text, w, facts))}
        </section>
        <section aria-labelledby="answer">
          <h3 id="answer">Answer <span class="badge">${detail.result.modelKey}</span></h3>
          ${detail.result.response
            ? html`<p class="reply" id="needle-answer">${highlighted(detail.result.response.text, answerMarks(detail, detail.result.response.text))}</p>`
            : html`<p class="muted">No response${detail.result.error ? ` (${detail.result.error.stage} error: ${detail.result.error.message})` : ''}.</p>`}
          ${detail.result.scores.map((s) => html`<p class="muted">${s.metric}: <strong>${s.judgeError ? 'judge error' : s.value === null ? 'undetermined' : formatNumber(s.value)}</strong>${s.label ? ` · ${s.label}` : ''}</p>`)}
        </section>
      </div>
      <section class="whole" aria-labelledby="whole">
        <div class="whole-head">
          <h3 id="whole">Whole context</h3>
          <span class="muted">${formatCount(haystack.text.length)} characters${facts.contextTokens !== undefined ? ` · ${formatCount(facts.contextTokens)} tokens` : ''} · only the part in view is rendered</span>
          ${facts.needles.map((n, i) => html`<button class="link goto-needle" @click=${() => void this.viewer()?.flash(needleId(i))}>Go to ${n.label}</button>`)}
          <button class="link goto-end" @click=${() => void this.viewer()?.scrollToEnd()}>Go to end</button>
        </div>
        <ri-long-text label="Whole context (scroll, or focus and use the arrow, Page and Home/End keys)" .text=${haystack.text} .spans=${this.spans(haystack)}></ri-long-text>
      </section>
    `;
  }

  private renderFacts(f: NeedleFacts, chars: number, scoring: string | undefined) {
    const depth = (v: number | null | undefined) => (v === null || v === undefined ? '—' : `${formatNumber(v)} %`);
    const shift = typeof f.requestedDepth === 'number' && typeof f.actualDepthPercent === 'number' ? f.actualDepthPercent - f.requestedDepth : undefined;
    const tokenizer = [f.tokenizer, f.tokenizerModel ? `(${f.tokenizerModel})` : ''].filter(Boolean).join(' ');
    return html`<dl class="facts">
      <div><dt>Requested depth</dt><dd class="requested-depth">${depth(f.requestedDepth)}</dd></div>
      <div><dt>Actual depth</dt><dd class="actual-depth">${depth(f.actualDepthPercent)}${shift ? html` <span class="muted">(${shift > 0 ? '+' : ''}${formatNumber(shift) === '0' ? (shift > 0 ? '< 0.001' : '> -0.001') : formatNumber(shift)} points${f.boundary ? `, backed up to a ${f.boundary === 'sentence' ? 'sentence end' : '"." token'}` : ''})</span>` : nothing}</dd></div>
      <div><dt>Needle token index</dt><dd class="token-index">${typeof f.tokenIndex === 'number' ? formatCount(f.tokenIndex) : '—'}</dd></div>
      <div><dt>Context</dt><dd>${f.contextLength !== undefined ? `${formatCount(f.contextLength)} tokens asked` : ''}${f.contextTokens !== undefined ? `, ${formatCount(f.contextTokens)} kept` : ''}${f.buffer !== undefined ? ` (buffer ${formatCount(f.buffer)})` : ''} · ${formatCount(chars)} chars</dd></div>
      ${scoring ? html`<div><dt>Scoring</dt><dd class="scoring">${scoring}</dd></div>` : nothing}
      <div><dt>Tokenizer</dt><dd class="tokenizer">${tokenizer || 'unknown'}${f.approximateTokenizer ? html` <span class="approximate" title="That model's own tokenizer is not available: lengths and positions are estimates">≈ approximate</span>` : nothing}</dd></div>
      ${f.city || f.number ? html`<div><dt>Arize needle</dt><dd>${f.city ?? ''} ${f.number ?? ''}</dd></div>` : nothing}
    </dl>
    ${f.needles.length > 1 ? html`<table aria-label="Needles">
      <thead><tr><th scope="col">Needle</th><th scope="col">Actual depth</th><th scope="col">Token index</th><th scope="col">Characters</th></tr></thead>
      <tbody>${f.needles.map((n) => html`<tr><td>${n.label}</td><td>${depth(n.actualDepthPercent)}</td><td>${n.tokenIndex !== undefined ? formatCount(n.tokenIndex) : '—'}</td><td>${formatCount(n.start)}–${formatCount(n.end)}</td></tr>`)}</tbody>
    </table>` : nothing}`;
  }

  private renderWindow(text: string, w: TextWindow, facts: NeedleFacts) {
    const spans: MarkSpan[] = w.needles.map((n) => ({ kind: 'needle', start: n.start - w.start, end: n.end - w.start, label: n.label }));
    const first = facts.needles.indexOf(w.needles[0]!);
    return html`<div class="window-head">
        <span class="muted">Characters ${formatCount(w.start)}–${formatCount(w.end)} of ${formatCount(text.length)}</span>
        <button class="link show-in-context" @click=${() => void this.viewer()?.flash(needleId(Math.max(0, first)))}>Show in the whole context</button>
      </div>
      <p class="window">${w.start > 0 ? html`<span class="elided">… </span>` : nothing}${highlighted(text.slice(w.start, w.end), spans)}${w.end < text.length ? html`<span class="elided"> …</span>` : nothing}</p>`;
  }

  private spansOf?: { detail: CaseDetail; evidence: MarkSpan[]; spans: MarkSpan[] };

  /** The needles (with ids) and any evidence, computed once per case: the viewer re-renders on every scroll. */
  private spans(haystack: NonNullable<ReturnType<typeof haystackOf>>): MarkSpan[] {
    const cached = this.spansOf;
    if (cached && cached.detail === this.detail && cached.evidence === this.evidence) return cached.spans;
    const needles = haystack.spans.filter((s) => s.kind === 'needle').sort((a, b) => a.start - b.start);
    const spans: MarkSpan[] = [
      ...needles.map((s, i) => ({ kind: s.kind, start: s.start, end: s.end, id: needleId(i), ...(s.label ? { label: s.label } : {}) })),
      ...haystack.spans.filter((s) => s.kind !== 'needle').map((s) => ({ kind: s.kind, start: s.start, end: s.end, ...(s.label ? { label: s.label } : {}) })),
      ...this.evidence,
    ];
    this.spansOf = { detail: this.detail!, evidence: this.evidence, spans };
    return spans;
  }

  override async updated(changed: Map<string, unknown>): Promise<void> {
    // A case opens with the whole-context viewer already at the (first) needle.
    if (changed.has('detail') && this.detail && needleFacts(this.detail.evalCase).needles.length > 0) {
      const viewer = this.viewer();
      if (viewer) {
        await viewer.updateComplete;
        await viewer.reveal(needleId(0));
      }
    }
  }

  /** Flashes evidence or a needle in the whole context (the case view's evidence links land here). */
  flash(id: string): Promise<boolean> {
    return this.viewer()?.flash(id) ?? Promise.resolve(false);
  }

  private viewer(): LongText | null {
    return this.renderRoot.querySelector('ri-long-text');
  }
}

/** The expected phrases found in the answer, plus what the score marked (Arize's number, each needle of several). */
function answerMarks(detail: CaseDetail, text: string): MarkSpan[] {
  const answers = (detail.evalCase.expected as { answers?: unknown } | null)?.answers;
  const phrases = Array.isArray(answers) ? answers.filter((a): a is string => typeof a === 'string') : [];
  return [...findMatches(text, phrases.map((p) => ({ text: p, kind: 'answer' as const }))), ...responseSpansOf(detail.result.scores)];
}

/** "judge_score (default: the eval file sets judge:)": which scoring applied and why (suites/needle/score.ts). */
function scoringOf(detail: CaseDetail): string | undefined {
  const score = detail.result.scores[0];
  const reason = (score?.details as { scoring?: unknown } | undefined)?.scoring;
  return score && typeof reason === 'string' ? `${score.metric} (${reason})` : undefined;
}

customElements.define('ri-needle-view', NeedleView);

declare global {
  interface HTMLElementTagNameMap { 'ri-needle-view': NeedleView }
}
