// Two runs side by side: the cases whose outcome flipped, with a word-level diff of the two responses.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-single-select/index.js';
import '@vscode-elements/elements/dist/vscode-option/index.js';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { CompareRow, RunListing } from '../../src/protocol.js';
import { outcomeOf } from '../../src/core/model.js';
import type { Outcome } from '../../src/core/model.js';
import type { PairedVerdict, PairedVerdicts } from '../../src/core/report/pairedRows.js';
import { diffWords, sideParts } from '../text/diff.js';
import type { DiffPart } from '../text/diff.js';
import { baseStyles, outcomeStyles } from './sharedStyles.js';

export interface CompareSelection { before: string; after: string }

/** Diffs are computed as rows are shown; a few hundred at a time keeps a run with thousands of flips responsive. */
const PAGE = 100;

const VERDICT_MARK: Record<PairedVerdict, string> = { better: '▲', worse: '▼', 'no-change': '=' };

const OUTCOME_LABEL: Record<Outcome, string> = { pass: '✓ passed', fail: '✗ failed', error: '⚠ error', none: '– no verdict' };

export class CompareView extends LitElement {
  static override properties = {
    runs: { attribute: false },
    selection: { attribute: false },
    rows: { attribute: false },
    paired: { attribute: false },
    loading: { type: Boolean },
    error: { type: String },
    shown: { state: true },
  };

  runs: RunListing[] = [];
  selection: CompareSelection | undefined;
  rows: CompareRow[] | undefined;
  /** The paired verdict per suite and model (McNemar on every paired case), shown above the flipped cases. */
  paired: PairedVerdicts | undefined;
  loading = false;
  error = '';
  shown = PAGE;

  private diffs = new WeakMap<CompareRow, DiffPart[]>();

  static override styles = [baseStyles, outcomeStyles, css`
    :host { display: block; padding: 0.75em 1.25em 3em; height: 100%; overflow: auto; }
    .pickers { display: flex; flex-wrap: wrap; gap: 0.75em; align-items: center; margin-bottom: 1em; }
    vscode-single-select { min-width: 16em; }
    .summary { margin-bottom: 1em; }
    article {
      margin-bottom: 1em; border: 1px solid var(--vscode-widget-border, transparent); border-radius: 3px;
    }
    article > header {
      display: flex; flex-wrap: wrap; gap: 0.75em; align-items: baseline; padding: 0.35em 0.75em;
      border-bottom: 1px solid var(--vscode-widget-border, transparent);
    }
    .sides { display: grid; grid-template-columns: 1fr 1fr; }
    .side { padding: 0.5em 0.75em; min-width: 0; }
    .side + .side { border-inline-start: 1px solid var(--vscode-widget-border, transparent); }
    .side h4 { margin-bottom: 0.3em; color: var(--vscode-descriptionForeground); }
    .text { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: plaintext; line-height: 1.5; max-height: 20em; overflow: auto; }
    del {
      background: var(--vscode-diffEditor-removedTextBackground); text-decoration: line-through;
      outline: var(--ri-hc-border) dashed var(--vscode-diffEditor-removedTextBorder, transparent);
    }
    ins {
      background: var(--vscode-diffEditor-insertedTextBackground); text-decoration: underline;
      outline: var(--ri-hc-border) solid var(--vscode-diffEditor-insertedTextBorder, transparent);
    }
    .arrow { color: var(--vscode-descriptionForeground); }
    table.paired { border-collapse: collapse; margin-bottom: 0.5em; }
    table.paired th, table.paired td { text-align: start; padding: 0.25em 0.75em 0.25em 0; vertical-align: baseline; }
    table.paired thead th { border-bottom: 1px solid var(--vscode-widget-border, var(--vscode-panel-border)); }
    .verdict { font-weight: 600; }
    .verdict.better { color: var(--vscode-testing-iconPassed); }
    .verdict.worse { color: var(--vscode-testing-iconFailed); }
    .note { margin-bottom: 1em; }
  `];

  override render() {
    return html`
      <div class="pickers">
        ${this.picker('before', 'Before')}
        <span class="arrow" aria-hidden="true">→</span>
        ${this.picker('after', 'After')}
      </div>
      ${this.runs.length < 2 ? html`<p class="muted">Comparing needs two runs; this view has ${this.runs.length}.</p>` : nothing}
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      ${this.loading ? html`<p class="muted">Comparing…</p>` : nothing}
      ${this.paired && !this.loading ? this.renderPaired(this.paired) : nothing}
      ${this.rows && !this.loading ? this.renderRows(this.rows) : nothing}
    `;
  }

  private picker(side: 'before' | 'after', label: string) {
    const value = this.selection?.[side] ?? '';
    return html`<label class="muted">${label}</label>
      <vscode-single-select aria-label=${`${label} run`} data-side=${side} .value=${value}
        @change=${(e: Event) => this.choose(side, (e.target as HTMLSelectElement).value)}>
        ${this.runs.map((run) => html`<vscode-option value=${run.runId} ?selected=${run.runId === value}>${run.name} · ${new Date(run.createdAt).toLocaleString()}</vscode-option>`)}
      </vscode-single-select>`;
  }

  /** Per suite and model: the verdict in words, the counts, and the change with its interval. */
  private renderPaired(paired: PairedVerdicts) {
    if (paired.rows.length === 0) return html`<p class="muted">No case is in both runs: nothing to pair.</p>`;
    const points = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);
    const unpaired = paired.onlyBefore + paired.onlyAfter;
    return html`<table class="paired" aria-label="Paired verdict per suite and model">
      <thead><tr><th scope="col">Suite</th><th scope="col">Model</th><th scope="col">Verdict</th><th scope="col">Fixed</th><th scope="col">Broken</th><th scope="col">Same</th><th scope="col">Change (points, 95%)</th><th scope="col">p</th></tr></thead>
      <tbody>${paired.rows.map((row) => html`<tr data-suite=${row.suiteId} data-model=${row.modelKey} data-verdict=${row.verdict}>
        <td>${row.suiteId}</td><td class="mono">${row.modelKey}</td>
        <td><span class="verdict ${row.verdict}"><span aria-hidden="true">${VERDICT_MARK[row.verdict]}</span> ${row.sentence}</span></td>
        <td>${row.fixed}</td><td>${row.broken}</td><td>${row.unchanged}${row.undetermined ? html` <span class="muted">(+${row.undetermined} undetermined)</span>` : nothing}</td>
        <td>${points(row.difference)} [${points(row.low)}, ${points(row.high)}]</td>
        <td>${row.pValue === undefined ? '—' : row.pValue < 0.001 ? '< 0.001' : row.pValue.toFixed(3)}</td>
      </tr>`)}</tbody>
    </table>
    <p class="muted note">Paired: the exact McNemar test on the cases that changed, the exact interval for the change in pass rate that agrees with it; one test per suite and model.${unpaired ? ` ${unpaired} case run(s) are in only one of the runs and are not paired.` : ''}</p>`;
  }

  private renderRows(rows: CompareRow[]) {
    const fixed = rows.filter((r) => outcomeOf(r.after) === 'pass').length;
    const broke = rows.filter((r) => outcomeOf(r.before) === 'pass').length;
    return html`
      <p class="summary" role="status"><strong>${rows.length}</strong> case${rows.length === 1 ? '' : 's'} changed outcome:
        ${fixed} now pass, ${broke} no longer pass, ${rows.length - fixed - broke} other changes.</p>
      ${rows.slice(0, this.shown).map((row) => this.renderRow(row))}
      ${rows.length > this.shown ? html`<vscode-button secondary @click=${() => { this.shown += PAGE; }}>Show ${Math.min(PAGE, rows.length - this.shown)} more</vscode-button>` : nothing}
    `;
  }

  private renderRow(row: CompareRow) {
    let parts = this.diffs.get(row);
    if (!parts) { parts = diffWords(row.beforeText, row.afterText).parts; this.diffs.set(row, parts); }
    const before = outcomeOf(row.before);
    const after = outcomeOf(row.after);
    return html`<article data-key=${row.after.key} data-case=${row.caseId} data-model=${row.after.modelKey}>
      <header>
        <button class="link mono" title="Open this case in the later run"
          @click=${() => this.dispatchEvent(new CustomEvent('ri-compare-open', { detail: { key: row.after.key }, bubbles: true, composed: true }))}>${row.caseId}</button>
        <span class="badge">${row.after.modelKey}</span>
        <span class="outcome ${before}">${OUTCOME_LABEL[before]}</span><span class="arrow" aria-label="became">→</span><span class="outcome ${after}">${OUTCOME_LABEL[after]}</span>
        <span class="muted">${row.after.summary}</span>
      </header>
      <div class="sides">
        <div class="side"><h4>Before</h4><p class="text before">${renderParts(sideParts(parts, 'before'))}</p></div>
        <div class="side"><h4>After</h4><p class="text after">${renderParts(sideParts(parts, 'after'))}</p></div>
      </div>
    </article>`;
  }

  private choose(side: 'before' | 'after', runId: string): void {
    const current = this.selection ?? { before: '', after: '' };
    const selection = { ...current, [side]: runId };
    this.shown = PAGE;
    this.dispatchEvent(new CustomEvent<CompareSelection>('ri-compare-select', { detail: selection, bubbles: true, composed: true }));
  }
}

function renderParts(parts: readonly DiffPart[]) {
  return parts.map((p) => p.op === 'equal' ? p.text : p.op === 'delete' ? html`<del>${p.text}</del>` : html`<ins>${p.text}</ins>`);
}

customElements.define('ri-compare-view', CompareView);

declare global {
  interface HTMLElementTagNameMap { 'ri-compare-view': CompareView }
}
