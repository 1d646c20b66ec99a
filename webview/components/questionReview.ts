// The review of generated questions: each question with its kind, reference answer, the checks it passed and its
// source chunks (file:lines, opened in the editor), kept (y) / dropped (x) / commented (c) by keyboard or mouse, on the
// focused question or a multi-selection; counts and filters by kind and review state; the rejected ones read-only.
import { LitElement, css, html, nothing } from 'lit';
import { GetQuestionReview, OpenDatasetRow, SetQuestionReview } from '../../src/protocol.js';
import type { QuestionReviewView, ReviewChange } from '../../src/protocol.js';
import { reviewCounts, reviewStateOf } from '../../src/core/corpus/questions/reviewView.js';
import type { ReviewedQuestion, ReviewState } from '../../src/core/corpus/questions/reviewView.js';
import type { InspectorApi } from '../api/inspectorApi.js';
import { describeError } from '../api/inspectorApi.js';
import { baseStyles } from './sharedStyles.js';
import { formatCount } from './format.js';

const STATE_WORDS: Record<ReviewState, string> = { kept: '✓ kept', dropped: '✗ dropped', unreviewed: 'unreviewed', stale: 'stale (question edited)' };

export class QuestionReview extends LitElement {
  static override properties = {
    view: { state: true },
    kind: { state: true },
    state: { state: true },
    cursor: { state: true },
    marked: { state: true },
    commenting: { state: true },
    busy: { state: true },
    error: { state: true },
  };

  api?: InspectorApi;
  view: QuestionReviewView | undefined;
  /** Filters: '' shows all. */
  kind = '';
  state: ReviewState | '' = '';
  /** The focused question's id. */
  cursor: string | undefined;
  /** A multi-selection (Ctrl/⌘-click toggles, Shift-click a range); the keys act on it when it is not empty. */
  marked: string[] = [];
  commenting = false;
  busy = false;
  error: string | undefined;

  static override styles = [baseStyles, css`
    :host { display: block; padding: 1em 1.25em; max-width: 90em; color: var(--vscode-foreground); }
    header { display: grid; gap: 0.35em; margin-bottom: 0.75em; }
    .counts { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; }
    .controls { display: flex; flex-wrap: wrap; gap: 0.5em 1.25em; align-items: center; margin: 0.5em 0; }
    label { display: inline-flex; gap: 0.4em; align-items: center; }
    select, input {
      font: inherit; color: var(--vscode-input-foreground); background: var(--vscode-input-background);
      border: 1px solid var(--vscode-input-border, var(--vscode-widget-border, transparent)); padding: 0.15em 0.3em;
    }
    input.comment { flex: 1 1 20em; }
    .bar button {
      font: inherit; cursor: pointer; padding: 0.15em 0.6em; border: 1px solid var(--vscode-button-border, transparent);
      color: var(--vscode-button-secondaryForeground, var(--vscode-button-foreground)); background: var(--vscode-button-secondaryBackground, var(--vscode-button-background));
    }
    .bar button:disabled { opacity: 0.5; cursor: default; }
    .bar { display: flex; flex-wrap: wrap; gap: 0.5em; align-items: center; padding: 0.4em 0; position: sticky; top: 0; background: var(--vscode-editor-background); z-index: 1; }
    ol.questions { list-style: none; margin: 0; padding: 0; }
    li.question { padding: 0.5em 0.6em; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); display: grid; gap: 0.25em; }
    li.question.cursor { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
    li.question.marked { background: var(--vscode-list-inactiveSelectionBackground); }
    .top { display: flex; flex-wrap: wrap; gap: 0.5em 1em; align-items: baseline; }
    .kind { font-weight: 600; color: var(--vscode-descriptionForeground); }
    .text { overflow-wrap: anywhere; white-space: pre-wrap; }
    .q { font-weight: 600; }
    .state.kept { color: var(--vscode-testing-iconPassed, var(--vscode-charts-green)); font-weight: 600; }
    .state.dropped { color: var(--vscode-testing-iconFailed, var(--vscode-errorForeground)); font-weight: 600; }
    .state.stale { color: var(--vscode-editorWarning-foreground); }
    .comment-text { font-style: italic; }
    ul.checks, ul.sources { margin: 0; padding-inline-start: 1.2em; }
    .problems { color: var(--vscode-errorForeground); }
    table { border-collapse: collapse; margin-top: 0.4em; }
    th, td { padding: 0.3em 0.7em; text-align: start; vertical-align: top; border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    th { font-weight: 600; color: var(--vscode-descriptionForeground); }
    section.rejected { margin-top: 1.5em; }
  `];

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('keydown', this.onKey);
    void this.load();
  }

  override disconnectedCallback(): void {
    window.removeEventListener('keydown', this.onKey);
    super.disconnectedCallback();
  }

  private async load(): Promise<void> {
    if (!this.api) return;
    try {
      this.show(await this.api.request(GetQuestionReview, {}));
    } catch (error) {
      this.error = `The questions could not be read: ${describeError(error)}`;
    }
  }

  /** A reviewed question the state filter now hides hands the focus to the one that took its place. */
  private show(view: QuestionReviewView): void {
    const before = Math.max(0, this.visible().findIndex((q) => q.id === this.cursor));
    this.view = view;
    const visible = this.visible();
    if (!visible.some((q) => q.id === this.cursor)) this.cursor = visible[Math.min(before, visible.length - 1)]?.id;
  }

  private visible(): ReviewedQuestion[] {
    return (this.view?.questions ?? []).filter((q) => (this.kind === '' || q.kind === this.kind) && (this.state === '' || reviewStateOf(q) === this.state));
  }

  /** What y / x / c act on: the marked questions, else the focused one; only those the filters show. */
  private targets(): string[] {
    const shown = new Set(this.visible().map((q) => q.id));
    if (this.marked.length > 0) return this.marked.filter((id) => shown.has(id));
    return this.cursor && shown.has(this.cursor) ? [this.cursor] : [];
  }

  /** A filter that hides the focused question moves the focus to the first one shown. */
  override willUpdate(changed: Map<string, unknown>): void {
    if ((changed.has('kind') || changed.has('state')) && this.view) {
      const visible = this.visible();
      if (!visible.some((q) => q.id === this.cursor)) this.cursor = visible[0]?.id;
    }
  }

  private async apply(change: Omit<ReviewChange, 'ids'>): Promise<void> {
    const ids = this.targets();
    if (!this.api || ids.length === 0 || this.busy) return;
    this.busy = true;
    this.error = undefined;
    try {
      this.show(await this.api.request(SetQuestionReview, { change: { ids, ...change } }));
      this.marked = [];
    } catch (error) {
      this.error = `The review was not saved: ${describeError(error)}`;
    } finally {
      this.busy = false;
    }
  }

  private move(step: number): void {
    const visible = this.visible();
    if (visible.length === 0) return;
    const at = visible.findIndex((q) => q.id === this.cursor);
    const next = visible[Math.min(visible.length - 1, Math.max(0, at < 0 ? 0 : at + step))]!;
    this.cursor = next.id;
    void this.updateComplete.then(() => this.renderRoot.querySelector(`li[data-id="${CSS.escape(next.id)}"]`)?.scrollIntoView({ block: 'nearest' }));
  }

  /** On the window: the panel shows nothing else, so the keys work wherever the focus is but in a field. */
  private onKey = (event: KeyboardEvent): void => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.composedPath().some((target) => target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement);
    if (typing) return;
    const actions: Record<string, () => void> = {
      y: () => void this.apply({ decision: 'keep' }),
      x: () => void this.apply({ decision: 'drop' }),
      c: () => this.startComment(),
      j: () => this.move(1),
      k: () => this.move(-1),
      ArrowDown: () => this.move(1),
      ArrowUp: () => this.move(-1),
      Escape: () => { this.marked = []; },
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  private startComment(): void {
    if (this.targets().length === 0) return;
    this.commenting = true;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('input.comment')?.focus());
  }

  private onCommentKey = (event: KeyboardEvent): void => {
    const input = event.target as HTMLInputElement;
    if (event.key === 'Enter' && input.value.trim() !== '') {
      event.preventDefault();
      this.commenting = false;
      void this.apply({ decision: null, comment: input.value.trim() });
      this.focusList();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      this.commenting = false;
      this.focusList();
    }
  };

  private focusList(): void {
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('ol.questions')?.focus());
  }

  private onRowClick(event: MouseEvent, id: string): void {
    if ((event.target as HTMLElement).closest('button')) return;
    if (event.ctrlKey || event.metaKey) {
      this.marked = this.marked.includes(id) ? this.marked.filter((m) => m !== id) : [...this.marked, id];
    } else if (event.shiftKey && this.cursor) {
      const ids = this.visible().map((q) => q.id);
      const [a, b] = [ids.indexOf(this.cursor), ids.indexOf(id)].sort((p, q) => p - q);
      this.marked = ids.slice(Math.max(0, a!), b! + 1);
    }
    this.cursor = id;
  }

  override render() {
    if (!this.view) return html`<p class=${this.error ? 'error-text' : 'muted'} role=${this.error ? 'alert' : 'status'}>${this.error ?? 'Reading the questions…'}</p>`;
    const view = this.view;
    const counts = reviewCounts(view.questions);
    const kinds = [...new Set(view.questions.map((q) => q.kind))].sort();
    const visible = this.visible();
    const targets = this.targets().length;
    return html`
      <header>
        <h2>Review: ${fileName(view.file)}</h2>
        <div class="counts" role="status" aria-label="review counts">
          <span class="count-kept">${formatCount(counts.kept)} kept</span>
          <span class="count-dropped">${formatCount(counts.dropped)} dropped</span>
          <span class="count-unreviewed">${formatCount(counts.unreviewed)} unreviewed</span>
          ${counts.stale > 0 ? html`<span class="count-stale">${formatCount(counts.stale)} stale (question edited since its review)</span>` : nothing}
        </div>
        <span class="muted">Dropped questions are left out of rag and stress runs of this file; unreviewed and stale ones still run. Reviews are kept in ${view.reviewFile}.</span>
        ${view.problems.length > 0 ? html`<ul class="problems" role="alert">${view.problems.map((p) => html`<li>${[p.file, p.line].filter((v) => v !== undefined).join(':')}: ${p.message}${p.hint ? ` — ${p.hint}` : ''}</li>`)}</ul>` : nothing}
      </header>
      <div class="controls">
        <label>Kind <select class="kind-filter" @change=${(e: Event) => { this.kind = (e.target as HTMLSelectElement).value; }}>
          <option value="" ?selected=${this.kind === ''}>all</option>
          ${kinds.map((k) => html`<option value=${k} ?selected=${k === this.kind}>${k}</option>`)}
        </select></label>
        <label>Review <select class="state-filter" @change=${(e: Event) => { this.state = (e.target as HTMLSelectElement).value as ReviewState | ''; }}>
          <option value="" ?selected=${this.state === ''}>all</option>
          ${(Object.keys(STATE_WORDS) as ReviewState[]).map((s) => html`<option value=${s} ?selected=${s === this.state}>${s}</option>`)}
        </select></label>
        <span class="muted">${formatCount(visible.length)} of ${formatCount(view.questions.length)} shown</span>
      </div>
      <div class="bar" role="group" aria-label="Your review">
        <span class="muted">${targets > 1 ? `${targets} selected questions` : 'This question'}:</span>
        <button class="keep" ?disabled=${this.busy || targets === 0} @click=${() => void this.apply({ decision: 'keep' })} title="Keep (y)">Keep <kbd>y</kbd></button>
        <button class="drop" ?disabled=${this.busy || targets === 0} @click=${() => void this.apply({ decision: 'drop' })} title="Drop (x)">Drop <kbd>x</kbd></button>
        <button class="comment-button" ?disabled=${this.busy || targets === 0} @click=${() => this.startComment()} title="Comment (c)">Comment <kbd>c</kbd></button>
        ${this.commenting ? html`<input class="comment" aria-label="Comment (Enter saves, Escape cancels)" placeholder="Comment — Enter saves, Escape cancels" @keydown=${this.onCommentKey}>` : nothing}
        <span class="muted">j/k or ↑/↓ move · Ctrl/⌘-click or Shift-click select several · Escape clears the selection</span>
        ${this.error ? html`<span class="error-text" role="alert">${this.error}</span>` : nothing}
      </div>
      <ol class="questions" tabindex="0" aria-label="Generated questions" aria-activedescendant=${this.cursor ? `question-${this.cursor}` : nothing}>
        ${visible.map((q) => this.renderQuestion(q))}
      </ol>
      ${visible.length === 0 ? html`<p class="muted">No question matches the filters.</p>` : nothing}
      ${this.renderRejected(view)}`;
  }

  private renderQuestion(q: ReviewedQuestion) {
    const state = reviewStateOf(q);
    const classes = `question${q.id === this.cursor ? ' cursor' : ''}${this.marked.includes(q.id) ? ' marked' : ''}`;
    return html`<li class=${classes} id=${`question-${q.id}`} data-id=${q.id} aria-selected=${String(q.id === this.cursor || this.marked.includes(q.id))} @click=${(e: MouseEvent) => this.onRowClick(e, q.id)}>
      <div class="top">
        <span class="kind">${q.kind}</span>
        <span class="state ${state}">${STATE_WORDS[state]}</span>
        ${q.review?.comment ? html`<span class="comment-text">“${q.review.comment}”</span>` : nothing}
        <span class="muted mono">${q.id} · line ${q.line}</span>
      </div>
      <div class="text q">${q.question}</div>
      <div class="text"><span class="muted">Reference: </span>${q.reference}</div>
      ${q.checks.length > 0 ? html`<ul class="checks" aria-label="checks passed">${q.checks.map((c) => html`<li><span class="muted">${c.name}:</span> ${c.outcome}</li>`)}</ul>` : nothing}
      ${q.sources.length > 0 ? html`<ul class="sources" aria-label="source chunks">${q.sources.map((s) => html`<li>${s.open
        ? html`<button class="link source" @click=${() => this.api?.command(OpenDatasetRow, { file: s.open!.file, line: s.open!.line })}>${s.label}</button>`
        : html`<span class="muted">${s.label}</span>`}</li>`)}</ul>` : nothing}
    </li>`;
  }

  private renderRejected(view: QuestionReviewView) {
    if (view.rejected.length === 0) return nothing;
    return html`<section class="rejected" aria-label="rejected questions">
      <h3>Rejected (${formatCount(view.rejected.length)}, read-only)</h3>
      <p class="muted">Generations a check refused, from ${view.rejectedFile}; they never run.</p>
      <table><thead><tr><th scope="col">kind</th><th scope="col">question</th><th scope="col">check</th><th scope="col">reason</th></tr></thead>
      <tbody>${view.rejected.map((r) => html`<tr data-line=${r.line}><td>${r.kind}</td><td class="text">${r.question ?? ''}</td><td>${r.check}</td><td class="text">${r.reason}</td></tr>`)}</tbody></table>
    </section>`;
  }
}

function fileName(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}

customElements.define('ri-question-review', QuestionReview);

declare global {
  interface HTMLElementTagNameMap {
    'ri-question-review': QuestionReview;
  }
}
