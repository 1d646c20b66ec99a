// The runs started in this window, assembled from RunEvents into the shapes the inspector asks for (protocol.ts).
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InputProblem, RunEvent } from '../core/engine/events.js';
import type { CaseResult, EvalCase } from '../core/model.js';
import { failureMessage } from '../core/report/runData.js';
import type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from '../protocol.js';

/** A request the inspector made that cannot be answered; travels back as the protocol's {code, message}. */
export class InspectorDataError extends Error {
  constructor(readonly code: 'not-found' | 'bad-request', message: string) {
    super(message);
    this.name = 'InspectorDataError';
  }
}

/** What the panel reads runs from; run logs on disk will be a second implementation. */
export interface InspectorData {
  listRuns(): Promise<RunListing[]>;
  getRun(runId: string): Promise<RunDetail>;
  getCase(runId: string, key: string): Promise<CaseDetail>;
  compare(before: string, after: string): Promise<CompareRow[]>;
}

interface SessionRun {
  listing: RunListing;
  detail: Omit<RunDetail, 'listing' | 'cases'>;
  items: Map<string, CaseListItem>;
  cases: Map<string, { evalCase: EvalCase; result: CaseResult }>;
}

const KEY_SEPARATOR = '\u0000';
export const caseKey = (caseId: string, modelKey: string): string => `${caseId}${KEY_SEPARATOR}${modelKey}`;

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
        const item = listItem(event.evalCase, event.result);
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

  async listRuns(): Promise<RunListing[]> {
    return [...this.runs.values()].map((r) => ({ ...r.listing })).reverse();
  }

  async getRun(runId: string): Promise<RunDetail> {
    const run = this.require(runId);
    return { listing: { ...run.listing }, ...run.detail, cases: [...run.items.values()] };
  }

  async getCase(runId: string, key: string): Promise<CaseDetail> {
    const found = this.require(runId).cases.get(key);
    if (!found) throw new InspectorDataError('not-found', `run ${runId} has no case ${key.split(KEY_SEPARATOR).join(' on ')}`);
    return { runId, evalCase: found.evalCase, result: found.result };
  }

  async compare(before: string, after: string): Promise<CompareRow[]> {
    const a = this.require(before);
    const b = this.require(after);
    const rows: CompareRow[] = [];
    for (const [key, afterItem] of b.items) {
      const beforeItem = a.items.get(key);
      if (!beforeItem) continue;
      rows.push({
        caseId: afterItem.caseId,
        before: beforeItem,
        after: afterItem,
        beforeText: a.cases.get(key)?.result.response?.text ?? '',
        afterText: b.cases.get(key)?.result.response?.text ?? '',
      });
    }
    return rows;
  }

  private require(runId: string): SessionRun {
    const run = this.runs.get(runId);
    if (!run) throw new InspectorDataError('not-found', `no run ${runId} in this window`);
    return run;
  }
}

function listItem(evalCase: EvalCase, result: CaseResult): CaseListItem {
  const primary = result.scores[0];
  return {
    key: caseKey(evalCase.id, result.modelKey),
    caseId: evalCase.id,
    suiteId: evalCase.suiteId,
    testbed: evalCase.testbed,
    modelKey: result.modelKey,
    status: result.status,
    pass: result.pass,
    summary: failureMessage(result),
    question: evalCase.question,
    roles: [...new Set(evalCase.documents.map((d) => d.role))],
    score: primary ? primary.value : undefined,
  };
}
