// The runs started in this window, assembled from RunEvents into the shapes the inspector asks for (protocol.ts).
import { ErrorCauseTally } from '../core/errorCauses.js';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/events.js';
import type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from '../protocol.js';
import { caseListItem, flippedItemRows } from '../core/report/caseItems.js';
import { describeError } from '../core/errors.js';
import { explainedRunItems } from '../core/report/explainedItems.js';
import { RunLogIndex } from '../core/report/runLogIndex.js';
import type { CaseEntry, InputProblem } from '../core/model.js';
import { describeKey } from '../core/model.js';
import { RequestFailure } from './webviewDispatch.js';

/** A request the inspector made that cannot be answered; the dispatcher sends it back as the protocol's {code, message}. */
export class InspectorDataError extends RequestFailure {
  constructor(code: 'not-found' | 'bad-request', message: string) {
    super(code, message);
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
  /** The run log's index, built when a case no longer in memory is first asked for, then extended as the run appends. */
  log?: Promise<RunLogIndex>;
  /** A resumed run: its earlier sessions' cases, listed from the log's index (settled, never rejected, once listed). */
  earlier?: Promise<void>;
  /** This session's error causes, as they happen (the panel header shows them). */
  causes?: ErrorCauseTally;
}

/**
 * Full cases kept in memory across this window's runs, the most recently finished last: what the live view opens
 * first. Older ones are read from the run log, which holds every finished case before its case-finished event fires.
 */
const RECENT_CASES = 500;

export class SessionRuns implements InspectorData, vscode.Disposable {
  private readonly runs = new Map<string, SessionRun>();
  private readonly recorded = new vscode.EventEmitter<{ event: RunEvent; runId: string }>();
  /** Fires after an event is recorded, so listeners read the updated run. */
  readonly onDidRecord = this.recorded.event;
  /** Problems reported before run-started (the engine plans first); they belong to the next run. */
  private pendingProblems: InputProblem[] = [];
  private currentRunId: string | undefined;
  /** By `${runId}\u0000${key}`; Map order is the age order. */
  private readonly recent = new Map<string, CaseEntry>();

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
        });
        this.pendingProblems = [];
        if (event.resumed > 0) this.listEarlierCases(this.runs.get(event.runId)!);
        return event.runId;
      }
      case 'case-finished': {
        const run = this.currentRunId ? this.runs.get(this.currentRunId) : undefined;
        if (!run) return undefined;
        const item = caseListItem(event.evalCase, event.result);
        run.items.set(item.key, item);
        if (event.result.status === 'error') {
          run.causes ??= new ErrorCauseTally();
          run.causes.add(event.result);
          run.detail.errorCauses = run.causes.list();
        }
        this.remember(run.listing.runId, item.key, { evalCase: event.evalCase, result: event.result });
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

  /** Every finished (case, model) of a run as the inspector lists it, by list key. */
  items(runId: string): ReadonlyMap<string, CaseListItem> | undefined {
    return this.runs.get(runId)?.items;
  }

  /**
   * The full cases of these keys, from memory when recent, else from the run's log (through one open file); keys the
   * run has not finished are left out. Throws InspectorDataError when the log cannot be read.
   */
  async readEntries(runId: string, keys: readonly string[]): Promise<Map<string, CaseEntry>> {
    const run = this.require(runId);
    const out = new Map<string, CaseEntry>();
    const missing: string[] = [];
    for (const key of keys) {
      if (!run.items.has(key)) continue;
      const found = this.recent.get(recentKey(runId, key));
      if (found) out.set(key, found);
      else missing.push(key);
    }
    if (missing.length === 0) return out;
    let log: RunLogIndex;
    try {
      log = await (run.log ??= RunLogIndex.build(run.logFile));
      // The writer appends each case line before case-finished fires, so catching up finds every listed case.
      await log.update();
    } catch (error) {
      run.log = undefined;
      throw new InspectorDataError('not-found', `run ${runId}: its log ${run.logFile} cannot be read: ${describeError(error)}`);
    }
    for (const [key, entry] of await log.readEntries(missing)) out.set(key, entry);
    return out;
  }

  async listRuns(): Promise<RunListing[]> {
    return [...this.runs.values()].map((r) => ({ ...r.listing })).reverse();
  }

  async getRun(runId: string): Promise<RunDetail> {
    const run = this.require(runId);
    await run.earlier;
    const cases = [...run.items.values()];
    if (run.listing.status === 'started') return { listing: { ...run.listing }, ...run.detail, cases };
    // A finished run of this window, once explained, lists Explain's causes and counts its failure split with them.
    const explained = await explainedRunItems(run.logFile, runId, cases, run.detail.reports, (keys) => this.readEntries(runId, keys));
    const problems = explained.problem ? [explained.problem, ...run.detail.problems] : run.detail.problems;
    return { listing: { ...run.listing }, ...run.detail, reports: explained.reports, problems, cases: explained.items };
  }

  async getCase(runId: string, key: string): Promise<CaseDetail> {
    const found = (await this.readEntries(runId, [key])).get(key);
    if (!found) throw new InspectorDataError('not-found', `run ${runId} has no case ${describeKey(key)}`);
    return { runId, evalCase: found.evalCase, result: found.result };
  }

  /** The cases whose outcome flipped between the two runs (what the compare view lists). */
  async compare(before: string, after: string): Promise<CompareRow[]> {
    return flippedItemRows(this.require(before).items, this.require(after).items.values(), (side, keys) => this.readEntries(side === 'before' ? before : after, keys));
  }

  /**
   * A resumed run lists the cases its earlier sessions logged too. They come from the log's index (list items only,
   * whatever the run's size), ahead of the cases this session finishes meanwhile; the index then serves case reads.
   */
  private listEarlierCases(run: SessionRun): void {
    run.log = RunLogIndex.build(run.logFile);
    run.earlier = run.log.then(
      (index) => {
        const listed = new Map<string, CaseListItem>();
        for (const [key, entry] of index.entries) listed.set(key, entry.item);
        for (const [key, item] of run.items) listed.set(key, item);
        run.items = listed;
      },
      (error: unknown) => {
        run.log = undefined;
        run.detail.problems.push({ file: run.logFile, message: `the cases of the run's earlier sessions cannot be listed: ${describeError(error)}` });
      },
    );
  }

  private remember(runId: string, key: string, entry: CaseEntry): void {
    const id = recentKey(runId, key);
    this.recent.delete(id);
    this.recent.set(id, entry);
    while (this.recent.size > RECENT_CASES) this.recent.delete(this.recent.keys().next().value!);
  }

  private require(runId: string): SessionRun {
    const run = this.runs.get(runId);
    if (!run) throw new InspectorDataError('not-found', `no run ${runId} in this window`);
    return run;
  }
}

const recentKey = (runId: string, key: string): string => `${runId}\u0000${key}`;
