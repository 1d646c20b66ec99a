// The case list's state: the shown run's rows (live results merged in at most once per frame), the cases marked for a
// verdict on several at once, and the failed / error counts the Cases tab shows.
import { CaseFinished, RunFinished } from '../../src/protocol.js';
import type { CaseListItem } from '../../src/protocol.js';
import { outcomeOf } from '../../src/core/model.js';
import type { MarkCasesDetail } from '../components/caseList.js';
import type { AppContext } from './appContext.js';

export class CaseListState {
  /** The run's case rows; replaced (never mutated) when live results arrive so the list notices. */
  items: CaseListItem[] = [];
  /** Cases marked (Ctrl/⌘- or Shift-click) for a verdict on several at once. */
  marked: ReadonlySet<string> = new Set();
  private pending: CaseListItem[] = [];
  private flushFrame = 0;
  private countedItems: CaseListItem[] | undefined;
  private counts = { failed: 0, errors: 0 };

  constructor(private readonly app: AppContext) {}

  listen(): (() => void)[] {
    const { api } = this.app;
    return [
      api.on(CaseFinished, ({ runId, item }) => {
        if (this.app.shownRun() !== runId) return;
        this.pending.push(item);
        // Results can arrive hundreds per second; the list is rebuilt at most once per frame.
        if (!this.flushFrame) this.flushFrame = requestAnimationFrame(() => this.flush());
      }),
      api.on(RunFinished, ({ runId, detail }) => {
        if (this.app.shownRun() !== runId) return;
        this.pending = [];
        this.show(detail.cases);
      }),
    ];
  }

  /** The rows of a run just loaded (or reloaded). */
  show(items: CaseListItem[]): void {
    this.items = items;
    this.app.changed();
  }

  unmark(): void {
    if (this.marked.size === 0) return;
    this.marked = new Set();
    this.app.changed();
  }

  mark({ keys, toggle }: MarkCasesDetail): void {
    const next = new Set(this.marked);
    const open = this.app.shownCase();
    // The open case joins the marks on the first Ctrl/⌘-click, so "open one, Ctrl-click another" marks both.
    if (next.size === 0 && open && toggle && keys[0] !== open) next.add(open);
    for (const key of keys) {
      if (toggle && next.has(key)) next.delete(key);
      else next.add(key);
    }
    this.marked = next;
    this.app.changed();
  }

  /** The cases a verdict applies to: the marked ones, else the open case. */
  verdictTargets(): string[] {
    if (this.marked.size > 0) return [...this.marked];
    const open = this.app.shownCase();
    return open ? [open] : [];
  }

  /** Failed verdicts and errors apart, as the run's totals count them: a case that never got an answer did not fail. */
  failureCounts(): { failed: number; errors: number } {
    if (this.countedItems !== this.items) {
      this.countedItems = this.items;
      this.counts = { failed: 0, errors: 0 };
      for (const item of this.items) {
        const outcome = outcomeOf(item);
        if (outcome === 'fail') this.counts.failed++;
        if (outcome === 'error') this.counts.errors++;
      }
    }
    return this.counts;
  }

  private flush(): void {
    this.flushFrame = 0;
    if (this.pending.length === 0) return;
    const incoming = new Map(this.pending.map((item) => [item.key, item]));
    this.pending = [];
    // A rerun replaces its row in place; a new case is appended.
    const merged = this.items.map((item) => {
      const replacement = incoming.get(item.key);
      if (replacement) incoming.delete(item.key);
      return replacement ?? item;
    });
    this.show([...merged, ...incoming.values()]);
  }
}
