// The runs started in this window, assembled from RunEvents into the shapes the inspector asks for (protocol.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InputProblem, RunEvent } from '../core/engine/events.js';
import type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from '../protocol.js';
import { caseListItem, describeKey, flippedRows } from '../core/report/caseItems.js';
import type { CaseEntry } from '../core/report/caseItems.js';

// The key now lives with the other case helpers; re-exported for modules that import it from here (testExplorer.ts).
export { caseKey } from '../core/report/caseItems.js';

/** A request the inspector made that cannot be answered; travels back as the protocol's {code, message}. */
export class InspectorDataError extends Error {
  constructor(readonly code: 'not-found' | 'bad-request', message: string) {
    super(message);
    this.name = 'InspectorDataError';
  }
}

/** What the panel reads runs from: this window's runs (SessionRuns) or every run log on disk (RunStore). */
export interface InspectorData {
  listRuns(): Promise<RunListing[]>;
  getRun(runId: string): Promise<RunDetail>;
  getCase(runId: string, key: string): Promise<CaseDetail>;
  compare(before: string, after: string): Promise<CompareRow[]>;
}

interface SessionRun {
  listing: RunListing;
  specFile?: string;
  logFile: string;
  detail: Omit<RunDetail, 'listing' | 'cases'>;
  items: Map<string, CaseListItem>;
  cases: Map<string, CaseEntry>;
}

export class SessionRuns implements InspectorData, vscode.Disposable {
  private readonly runs = new Map<string, SessionRun>();
  private readonly recorded = new vscode.EventEmitter<{ event: RunEvent; runId: string }>();
  /** Fires after an event is recorded, so listeners read the updated run. */
  readonly onDidRecord = this.recorded.event;
  /** Problems reported before run-started (the engine plans first); they belong to the next run. */
  private pendingProblems: InputProblem[] = [];
  private currentRunId: string | undefined;

  /** Feeds one engine event in and tells listeners which run it touched; `specFile` names a starting run. */
  record(event: RunEvent, specFile?: string): string | undefined {
    const runId = this.apply(event, specFile);
    if (runId) this.recorded.fire({ event, runId });
    return runId;
  }

  dispose(): void {
    this.recorded.dispose();
  }

  private apply(event: RunEvent, specFile: string | undefined): string | undefined {
    switch (event.type) {
      case 'input-problem':
        if (this.currentRunId) this.runs.get(this.currentRunId)?.detail.problems.push(event.problem);
        else this.pendingProblems.push(event.problem);
        return this.currentRunId;
      case 'run-started': {
        this.currentRunId = event.runId;
        this.runs.set(event.runId, {
          specFile,
          logFile: event.logFile,
          listing: {
            runId: event.runId,
            name: specFile ? path.basename(specFile).replace(/\.eval\.ya?ml$/, '') : event.runId,
            createdAt: new Date().toISOString(),
            status: 'started',
            models: event.models,
          },
          detail: { reports: [], thresholds: [], problems: this.pendingProblems },
          items: new Map(),
          cases: new Map(),
        });
        this.pendingProblems = [];
        return event.runId;
      }
      case 'case-finished': {
        const run = this.currentRunId ? this.runs.get(this.currentRunId) : undefined;
        if (!run) return undefined;
        const item = caseListItem(event.evalCase, event.result);
        run.items.set(item.key, item);
        run.cases.set(item.key, { evalCase: event.evalCase, result: event.result });
        return run.listing.runId;
      }
      case 'run-finished': {
        const run = this.runs.get(event.runId);
        if (!run) return undefined;
        run.listing.status = event.status;
        run.listing.totals = event.totals;
        run.detail.reports = event.reports;
        run.detail.thresholds = event.thresholds;
        if (this.currentRunId === event.runId) this.currentRunId = undefined;
        return event.runId;
      }
    }
  }

  /** The run's list row as it stands now (for RunStarted/CaseFinished notifications). */
  listing(runId: string): RunListing | undefined {
    const run = this.runs.get(runId);
    return run ? { ...run.listing } : undefined;
  }

  item(runId: string, key: string): CaseListItem | undefined {
    return this.runs.get(runId)?.items.get(key);
  }

  has(runId: string): boolean {
    return this.runs.has(runId);
  }

  /** The run still going in this window, if any. */
  get liveRunId(): string | undefined {
    return this.currentRunId;
  }

  /** The eval file and log of a run started in this window. */
  source(runId: string): { specFile?: string; logFile: string } | undefined {
    const run = this.runs.get(runId);
    return run ? { specFile: run.specFile, logFile: run.logFile } : undefined;
  }

  /** Every finished (case, model) of a run, by list key. */
  entries(runId: string): ReadonlyMap<string, CaseEntry> | undefined {
    return this.runs.get(runId)?.cases;
  }

  async listRuns(): Promise<RunListing[]> {
    return [...this.runs.values()].map((r) => ({ ...r.listing })).reverse();
  }

  async getRun(runId: string): Promise<RunDetail> {
    const run = this.require(runId);
    return { listing: { ...run.listing }, ...run.detail, cases: [...run.items.values()] };
  }

  async getCase(runId: string, key: string): Promise<CaseDetail> {
    const found = this.require(runId).cases.get(key);
    if (!found) throw new InspectorDataError('not-found', `run ${runId} has no case ${describeKey(key)}`);
    return { runId, evalCase: found.evalCase, result: found.result };
  }

  /** The cases whose outcome flipped between the two runs (what the compare view lists). */
  async compare(before: string, after: string): Promise<CompareRow[]> {
    return flippedRows(this.require(before).cases, this.require(after).cases.values());
  }

  private require(runId: string): SessionRun {
    const run = this.runs.get(runId);
    if (!run) throw new InspectorDataError('not-found', `no run ${runId} in this window`);
    return run;
  }
}
