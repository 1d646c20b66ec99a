// Every run of the workspace, read from `.rag-inspector/runs/*.jsonl` (cached by file mtime) with this window's live runs merged in.
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { InputProblem } from '../core/engine/events.js';
import { describeError } from '../core/errors.js';
import { listRuns as listRunLogs, readRunLog } from '../core/run/runLog.js';
import type { RunListEntry, RunLogContents } from '../core/run/runLog.js';
import type { CaseDetail, CompareRow, RunDetail, RunListing } from '../protocol.js';
import { caseKey, caseListItem, describeKey, flippedRows } from '../core/report/caseItems.js';
import type { CaseEntry } from '../core/report/caseItems.js';
import { InspectorDataError } from './sessionRuns.js';
import type { InspectorData, SessionRuns } from './sessionRuns.js';

/** A case's latest result and the run it came from. */
export interface LatestEntry extends CaseEntry {
  runId: string;
}

/**
 * The current results of one eval file: its newest run, completed by the earlier runs it builds on. A rerun of
 * failed cases logs only those cases, so "what is failing now" needs the runs before it too. Earlier runs count
 * while the eval file is byte-identical (its hash in the run headers), and an earlier result only while its dataset
 * is too: a changed dataset moves rows, and an old result would point at the wrong line.
 */
export interface LatestResults {
  specFile: string;
  name: string;
  latestRunId: string;
  /** The runs the entries come from, newest first. */
  runIds: string[];
  entries: Map<string, LatestEntry>;
  /** Rows and cases the newest finished run could not build (bad lines, missing variables). */
  problems: InputProblem[];
}

/** Where run logs are: `.rag-inspector/runs` of each workspace folder and of every folder that has one (CLI runs). */
export type RunDirs = () => Promise<string[]>;

/** Earlier runs a current result may come from; older ones are almost always superseded, and each costs a full read. */
const MAX_CHAIN = 20;
/** Whole logs kept in memory; a log of 100,000 cases is a few hundred MB, so only a few. */
const MAX_CACHED_LOGS = 12;

type ReadLog = { ok: true; log: RunLogContents } | { ok: false; problem: string };

export class RunStore implements InspectorData, vscode.Disposable {
  private readonly logs = new Map<string, { mtimeMs: number; size: number; log: RunLogContents }>();
  /** The latest listing by run id, so opening a case does not list every log again. */
  private readonly known = new Map<string, RunListEntry>();
  private readonly changed = new vscode.EventEmitter<{ specFiles?: string[] }>();
  /** Fires when runs were added or changed; `specFiles` undefined means any eval file may be affected. */
  readonly onDidChange = this.changed.event;

  constructor(private readonly sessions: SessionRuns, private readonly runDirs: RunDirs) {}

  dispose(): void {
    this.changed.dispose();
  }

  /** Tells listeners (diagnostics, CodeLens) that an eval file's runs changed; undefined: maybe any. */
  notifyChanged(specFiles?: string[]): void {
    this.changed.fire({ specFiles });
  }

  /** Every run log on disk, newest first; unreadable ones included with their problem. */
  async diskRuns(): Promise<RunListEntry[]> {
    const dirs = [...new Set((await this.runDirs()).map((d) => path.normalize(d)))];
    const lists = await Promise.all(dirs.map((dir) => listRunLogs(dir).catch((): RunListEntry[] => [])));
    // Run ids sort by the second only (two quick reruns share one), so the header's millisecond start time decides.
    const entries = lists.flat().sort((a, b) => (b.header?.createdAt ?? '').localeCompare(a.header?.createdAt ?? '') || b.runId.localeCompare(a.runId));
    this.known.clear();
    for (const entry of entries) this.known.set(entry.runId, entry);
    return entries;
  }

  async listRuns(): Promise<RunListing[]> {
    const byId = new Map<string, RunListing>();
    for (const entry of await this.diskRuns()) byId.set(entry.runId, await diskListing(entry));
    // A run of this window answers from memory: the same data, and its progress is ahead of the log's last line.
    for (const listing of await this.sessions.listRuns()) byId.set(listing.runId, listing);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async getRun(runId: string): Promise<RunDetail> {
    if (this.sessions.has(runId)) return this.sessions.getRun(runId);
    const entry = await this.entryOf(runId);
    const read = await this.read(entry.file);
    if (!read.ok) {
      return { listing: await diskListing({ ...entry, status: 'unreadable', problem: read.problem }), reports: [], thresholds: [], problems: [{ file: entry.file, message: read.problem }], cases: [] };
    }
    const { log } = read;
    return {
      listing: listingOf(log),
      reports: log.summary?.reports ?? [],
      thresholds: log.summary?.thresholds ?? [],
      problems: [
        ...(log.summary?.problems ?? []),
        ...log.problems.map((p) => ({ file: log.file, line: p.line, message: `run log: ${p.message}` })),
      ],
      cases: log.cases.map((line) => caseListItem(line.case, line.result)),
    };
  }

  async getCase(runId: string, key: string): Promise<CaseDetail> {
    if (this.sessions.has(runId)) return this.sessions.getCase(runId, key);
    const found = (await this.runEntries(runId)).get(key);
    if (!found) throw new InspectorDataError('not-found', `run ${runId} has no case ${describeKey(key)}`);
    return { runId, evalCase: found.evalCase, result: found.result };
  }

  /**
   * The cases whose outcome differs from `before` to `after`. `after` is that run's own cases; `before` is what was
   * current when it finished (the run plus the runs it builds on), so a rerun of three failed cases compares with
   * their previous results even when the run just before it was another partial rerun.
   */
  async compare(before: string, after: string): Promise<CompareRow[]> {
    const afterEntries = await this.runEntries(after);
    const beforeEntries = await this.resultsAsOf(before);
    return flippedRows(beforeEntries, afterEntries.values());
  }

  /** The eval file a run ran, from this window's memory or the log's header. */
  async specFileOf(runId: string): Promise<string | undefined> {
    const source = this.sessions.source(runId);
    if (source?.specFile) return source.specFile;
    const entry = await this.entryOf(runId).catch(() => undefined);
    return entry?.header?.spec.file;
  }

  /** Eval files with at least one readable run on disk. */
  async evalFiles(): Promise<string[]> {
    return [...new Set((await this.diskRuns()).flatMap((e) => (e.header ? [path.normalize(e.header.spec.file)] : [])))];
  }

  /** See LatestResults; undefined when the eval file has no readable run. `listed`: a diskRuns() the caller already has. */
  async latestResults(specFile: string, listed?: RunListEntry[]): Promise<LatestResults | undefined> {
    const target = path.normalize(specFile);
    const runs = (listed ?? (await this.diskRuns())).filter((e) => e.header && path.normalize(e.header.spec.file) === target);
    const newest = runs[0];
    if (!newest?.header) return undefined;
    const { entries, runIds, problems } = await this.overlay(runs);
    return { specFile: target, name: newest.header.spec.name, latestRunId: newest.runId, runIds, entries, problems };
  }

  /** The results current when `runId` finished: that run and the runs of the same eval file before it. */
  private async resultsAsOf(runId: string): Promise<Map<string, CaseEntry>> {
    const own = await this.runEntries(runId);
    const specFile = await this.specFileOf(runId);
    if (!specFile) return new Map(own);
    const target = path.normalize(specFile);
    const runs = (await this.diskRuns()).filter((e) => e.header && path.normalize(e.header.spec.file) === target);
    const at = runs.findIndex((e) => e.runId === runId);
    const merged = new Map<string, CaseEntry>(own);
    if (at < 0) return merged;
    for (const [key, entry] of (await this.overlay(runs.slice(at))).entries) if (!merged.has(key)) merged.set(key, entry);
    return merged;
  }

  /** Newest-first runs of one eval file folded into one result per (case, model); see LatestResults. */
  private async overlay(runs: RunListEntry[]): Promise<{ entries: Map<string, LatestEntry>; runIds: string[]; problems: InputProblem[] }> {
    const entries = new Map<string, LatestEntry>();
    const runIds: string[] = [];
    let newest: { specHash: string; datasets: Map<string, string> } | undefined;
    let problems: InputProblem[] | undefined;
    for (const run of runs.slice(0, MAX_CHAIN)) {
      const read = await this.read(run.file);
      if (!read.ok) continue;
      const { log } = read;
      const datasets = datasetHashes(log);
      newest ??= { specHash: log.header.spec.hash, datasets };
      if (log.header.spec.hash !== newest.specHash) break;
      runIds.push(log.header.runId);
      if (!problems && log.summary) problems = log.summary.problems;
      for (const line of log.cases) {
        const key = caseKey(line.case.id, line.result.modelKey);
        if (entries.has(key)) continue;
        const file = path.normalize(line.case.row.file);
        if (datasets.get(file) !== newest.datasets.get(file)) continue;
        entries.set(key, { evalCase: line.case, result: line.result, runId: log.header.runId });
      }
    }
    return { entries, runIds, problems: problems ?? [] };
  }

  private async runEntries(runId: string): Promise<ReadonlyMap<string, CaseEntry>> {
    const live = this.sessions.entries(runId);
    if (live) return live;
    const entry = await this.entryOf(runId);
    const read = await this.read(entry.file);
    if (!read.ok) throw new InspectorDataError('not-found', `run ${runId} cannot be read: ${read.problem}`);
    return new Map(read.log.cases.map((line) => [caseKey(line.case.id, line.result.modelKey), { evalCase: line.case, result: line.result }]));
  }

  private async entryOf(runId: string): Promise<RunListEntry> {
    const entry = this.known.get(runId) ?? (await this.diskRuns()).find((e) => e.runId === runId);
    if (!entry) throw new InspectorDataError('not-found', `no run ${runId} in this workspace's .rag-inspector/runs folders`);
    return entry;
  }

  /** A whole log, read again only when its size or mtime changed (a live run appends, a resume appends). */
  private async read(file: string): Promise<ReadLog> {
    try {
      const info = await stat(file);
      const cached = this.logs.get(file);
      if (cached && cached.mtimeMs === info.mtimeMs && cached.size === info.size) {
        // Map order is the LRU order: touch it.
        this.logs.delete(file);
        this.logs.set(file, cached);
        return { ok: true, log: cached.log };
      }
      const log = await readRunLog(file);
      this.logs.set(file, { mtimeMs: info.mtimeMs, size: info.size, log });
      while (this.logs.size > MAX_CACHED_LOGS) this.logs.delete(this.logs.keys().next().value!);
      return { ok: true, log };
    } catch (error) {
      this.logs.delete(file);
      return { ok: false, problem: describeError(error) };
    }
  }
}

/** The hash of each dataset a run read, as its header recorded it at the start. */
function datasetHashes(log: RunLogContents): Map<string, string> {
  return new Map(log.header.inputs.filter((i) => i.kind === 'dataset').map((i) => [path.normalize(i.file), i.hash]));
}

function listingOf(log: RunLogContents): RunListing {
  return {
    runId: log.header.runId,
    name: log.header.spec.name,
    createdAt: log.header.createdAt,
    status: log.status,
    models: log.header.models,
    ...(log.summary ? { totals: log.summary.totals } : {}),
  };
}

async function diskListing(entry: RunListEntry): Promise<RunListing> {
  if (entry.header && entry.status !== 'unreadable') {
    return {
      runId: entry.runId,
      name: entry.header.spec.name,
      createdAt: entry.header.createdAt,
      status: entry.status,
      models: entry.header.models,
      ...(entry.summary ? { totals: entry.summary.totals } : {}),
    };
  }
  // The protocol has no "unreadable" status: the name says it, and getRun carries the problem.
  const mtime = await stat(entry.file).then((s) => s.mtime.toISOString(), () => new Date(0).toISOString());
  return { runId: entry.runId, name: `${entry.runId} — unreadable: ${entry.problem ?? 'unknown problem'}`, createdAt: mtime, status: 'error', models: [] };
}

/** The run-log folders: each workspace folder's, plus any other `.rag-inspector/runs` the workspace holds (CLI runs beside eval files). */
export function workspaceRunDirs(): RunDirs {
  let found: Promise<string[]> | undefined;
  const search = async () => {
    const logs = await vscode.workspace.findFiles('**/.rag-inspector/runs/*.jsonl', '**/node_modules/**');
    return logs.map((uri) => path.dirname(uri.fsPath));
  };
  return async () => {
    // One search per window; a watcher below resets it when a log appears somewhere new.
    found ??= search().catch(() => []);
    const roots = (vscode.workspace.workspaceFolders ?? []).map((f) => path.join(f.uri.fsPath, '.rag-inspector', 'runs'));
    return [...roots, ...(await found)];
  };
}

/** The store, refreshed when this window finishes a run or a run log changes on disk (a CLI run in a terminal). */
export function activateRunStore(context: vscode.ExtensionContext, sessions: SessionRuns): RunStore {
  let dirs = workspaceRunDirs();
  const store = new RunStore(sessions, () => dirs());
  const watcher = vscode.workspace.createFileSystemWatcher('**/.rag-inspector/runs/*.jsonl');
  let timer: NodeJS.Timeout | undefined;
  const onDisk = (uri: vscode.Uri, created: boolean) => {
    if (created) dirs = workspaceRunDirs();
    // This window's run reports itself at run-finished; logs it is appending to need no refresh per case.
    if (sessions.liveRunId && sessions.source(sessions.liveRunId)?.logFile === uri.fsPath) return;
    clearTimeout(timer);
    timer = setTimeout(() => store.notifyChanged(), 500);
  };
  context.subscriptions.push(
    store,
    watcher,
    watcher.onDidCreate((uri) => onDisk(uri, true)),
    watcher.onDidChange((uri) => onDisk(uri, false)),
    watcher.onDidDelete((uri) => onDisk(uri, false)),
    sessions.onDidRecord(({ event, runId }) => {
      if (event.type !== 'run-finished') return;
      const specFile = sessions.source(runId)?.specFile;
      store.notifyChanged(specFile ? [path.normalize(specFile)] : undefined);
    }),
    { dispose: () => clearTimeout(timer) },
  );
  return store;
}
