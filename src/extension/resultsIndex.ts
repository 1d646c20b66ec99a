// The current results of every eval file (currentResults.ts), indexed by dataset line and by template, for diagnostics, CodeLens, hovers, reruns and the Test Explorer.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { caseKey } from '../core/model.js';
import type { LatestEntry, LatestResults } from './currentResults.js';
import type { RunStore } from './runStore.js';
import type { CaseEntry } from '../core/model.js';

export class ResultsIndex implements vscode.Disposable {
  private results = new Map<string, LatestResults>();
  private rows = new Map<string, Map<number, LatestEntry[]>>();
  private templates = new Map<string, Set<string>>();
  private queue: Promise<void> = Promise.resolve();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  constructor(private readonly store: Pick<RunStore, 'latestResults' | 'diskRuns' | 'readEntries'>) {}

  dispose(): void {
    this.changed.dispose();
  }

  /**
   * Reads the current results again for these eval files (all of them when undefined). Refreshes run one after
   * another, so a slow full refresh cannot overwrite a newer one; the returned promise settles when this one is done.
   */
  refresh(specFiles?: readonly string[]): Promise<void> {
    this.queue = this.queue.then(() => this.load(specFiles)).catch(() => undefined);
    return this.queue;
  }

  all(): LatestResults[] {
    return [...this.results.values()];
  }

  resultsOf(specFile: string): LatestResults | undefined {
    return this.results.get(path.normalize(specFile));
  }

  /** Current results by 1-based dataset line. */
  rowsOf(file: string): ReadonlyMap<number, LatestEntry[]> | undefined {
    return this.rows.get(path.normalize(file));
  }

  entriesAt(file: string, line: number): LatestEntry[] {
    return this.rowsOf(file)?.get(line) ?? [];
  }

  /** These entries with their full cases read from their runs' logs; an entry whose log cannot be read comes back without. */
  async withFullCases(entries: readonly LatestEntry[]): Promise<(LatestEntry & { full?: CaseEntry })[]> {
    return Promise.all(entries.map(async (entry) => {
      const key = caseKey(entry.evalCase.id, entry.result.modelKey);
      const full = await this.store.readEntries(entry.runId, [key]).then((found) => found.get(key), () => undefined);
      return full ? { ...entry, full } : entry;
    }));
  }

  /** The eval files whose current results were rendered with this template. */
  resultsForTemplate(file: string): LatestResults[] {
    return [...(this.templates.get(path.normalize(file)) ?? [])].flatMap((spec) => this.results.get(spec) ?? []);
  }

  private async load(specFiles: readonly string[] | undefined): Promise<void> {
    // One listing of the logs for the whole refresh, not one per eval file.
    const listed = await this.store.diskRuns();
    const targets = specFiles?.map((f) => path.normalize(f)) ?? [...new Set(listed.flatMap((e) => (e.header ? [path.normalize(e.header.spec.file)] : [])))];
    const next = new Map(specFiles ? this.results : []);
    for (const spec of targets) {
      const results = await this.store.latestResults(spec, listed);
      if (results) next.set(spec, results);
      else next.delete(spec);
    }
    this.results = next;
    this.rebuild();
    this.changed.fire();
  }

  private rebuild(): void {
    const rows = new Map<string, Map<number, LatestEntry[]>>();
    const templates = new Map<string, Set<string>>();
    for (const results of this.results.values()) {
      for (const entry of results.entries.values()) {
        const file = path.normalize(entry.evalCase.row.file);
        let lines = rows.get(file);
        if (!lines) rows.set(file, (lines = new Map()));
        const at = lines.get(entry.evalCase.row.line);
        if (at) at.push(entry);
        else lines.set(entry.evalCase.row.line, [entry]);
        if (entry.evalCase.template) {
          const template = path.normalize(entry.evalCase.template);
          let users = templates.get(template);
          if (!users) templates.set(template, (users = new Set()));
          users.add(results.specFile);
        }
      }
    }
    // Logs keep completion order, which concurrency makes arbitrary; case id order is what a reader expects.
    for (const lines of rows.values()) {
      for (const entries of lines.values()) entries.sort((a, b) => a.evalCase.id.localeCompare(b.evalCase.id) || a.result.modelKey.localeCompare(b.result.modelKey));
    }
    this.rows = rows;
    this.templates = templates;
  }
}

export function activateResultsIndex(context: vscode.ExtensionContext, store: RunStore): ResultsIndex {
  const index = new ResultsIndex(store);
  context.subscriptions.push(index, store.onDidChange(({ specFiles }) => void index.refresh(specFiles)));
  // The last runs of each eval file, so a reopened window shows its failures before anything is run.
  void index.refresh();
  return index;
}
