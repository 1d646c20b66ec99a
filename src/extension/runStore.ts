// Every run of the workspace, indexed from `.rag-inspector/runs/*.jsonl` (extended as logs grow) with this window's live runs merged in.
import { errorCausesOf } from '../core/errorCauses.js';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../core/errors.js';
import { listRuns as listRunLogs } from '../core/run/runLog.js';
import type { RunListEntry } from '../core/run/runLog.js';
import { RunLogIndex } from '../core/report/runLogIndex.js';
import type { CaseDetail, CaseListItem, CompareRow, RunDetail, RunListing } from '../protocol.js';
import { flippedItemRows } from '../core/report/caseItems.js';
import { explainedIndexItems } from '../core/report/explainedItems.js';
import { currentResults, newestFirst, overlayRuns, runsOf } from './currentResults.js';
import type { LatestResults } from './currentResults.js';
import { interruptedCheck } from './interruptedListing.js';
import type { InterruptedCheck } from './interruptedListing.js';
import { LiveRunMarkers, liveRunMarkersDir, processAlive, thisHostname } from './liveRuns.js';
import { InspectorDataError } from './sessionRuns.js';
import type { InspectorData, SessionRuns } from './sessionRuns.js';
import { describeKey } from '../core/model.js';
import type { CaseEntry } from '../core/model.js';

/** Where run logs are: `.rag-inspector/runs` of each workspace folder and of every folder that has one (CLI runs). */
export type RunDirs = () => Promise<string[]>;

/**
 * Indexed cases kept in memory over all cached logs (a few hundred bytes each, where a full case line is kilobytes):
 * two 100,000-case runs and their reruns. Past it the least recently used logs are dropped and indexed again when asked for.
 */
const MAX_CACHED_ENTRIES = 250_000;

type ReadIndex = { ok: true; index: RunLogIndex } | { ok: false; problem: string };

/** A result where it was listed from: its list row, and the run whose log (or live memory) holds the full case. */
interface ListedResult {
  item: CaseListItem;
  runId: string;
}

export class RunStore implements InspectorData, vscode.Disposable {
  /** By log file; Map order is the LRU order. */
  private readonly indexes = new Map<string, RunLogIndex>();
  private readonly building = new Map<string, Promise<RunLogIndex>>();
  /** The latest listing by run id, so opening a case does not list every log again. */
  private readonly known = new Map<string, RunListEntry>();
  private readonly changed = new vscode.EventEmitter<{ specFiles?: string[] }>();
  /** Fires when runs were added or changed; `specFiles` undefined means any eval file may be affected. */
  readonly onDidChange = this.changed.event;

  /** `interrupted`: which 'started' logs nothing writes any more (see interruptedListing.ts); without it none is flagged. */
  constructor(private readonly sessions: SessionRuns, private readonly runDirs: RunDirs, private readonly interrupted?: InterruptedCheck) {}

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
    const entries = newestFirst(lists.flat());
    this.known.clear();
    for (const entry of entries) this.known.set(entry.runId, entry);
    return entries;
  }

  async listRuns(): Promise<RunListing[]> {
    const byId = new Map<string, RunListing>();
    const entries = await this.diskRuns();
    const interrupted = await this.interruptedAmong(entries);
    for (const entry of entries) byId.set(entry.runId, await diskListing(entry, interrupted.has(entry.runId)));
    // A run of this window answers from memory: the same data, and its progress is ahead of the log's last line.
    for (const listing of await this.sessions.listRuns()) byId.set(listing.runId, listing);
    return [...byId.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  }

  async getRun(runId: string): Promise<RunDetail> {
    if (this.sessions.has(runId)) return this.sessions.getRun(runId);
    const entry = await this.entryOf(runId);
    const read = await this.index(entry.file);
    if (!read.ok) {
      return { listing: await diskListing({ ...entry, status: 'unreadable', problem: read.problem }), reports: [], thresholds: [], problems: [{ file: entry.file, message: read.problem }], cases: [] };
    }
    const { index } = read;
    // An explained run lists Explain's causes and counts its failure split with them.
    const explained = await explainedIndexItems(index, runId);
    const cases: CaseListItem[] = explained.items;
    const errored = cases.filter((item) => item.status === 'error').map((item) => item.key);
    // Only the errored lines are read in full, for the causes the header shows.
    const errorCauses = errorCausesOf([...(await this.readEntries(runId, errored)).values()].map((entry) => entry.result));
    // The index's status is fresher than the listing's (a resume elsewhere may have finished the log since).
    const interrupted = index.status === 'started' && (await this.interruptedAmong([{ ...entry, status: 'started' }])).has(runId);
    return {
      listing: listingOf(index, interrupted),
      reports: explained.reports,
      thresholds: index.summary?.thresholds ?? [],
      problems: [
        ...(explained.problem ? [explained.problem] : []),
        ...(index.summary?.problems ?? []),
        ...index.problems.map((p) => ({ file: index.file, line: p.line, message: `run log: ${p.message}` })),
      ],
      cases,
      errorCauses,
    };
  }

  /** One case in full: from this window's memory, else its line read from the log by the byte range the index holds. */
  async getCase(runId: string, key: string): Promise<CaseDetail> {
    if (this.sessions.has(runId)) return this.sessions.getCase(runId, key);
    const found = (await this.readEntries(runId, [key])).get(key);
    if (!found) throw new InspectorDataError('not-found', `run ${runId} has no case ${describeKey(key)}`);
    return { runId, evalCase: found.evalCase, result: found.result };
  }

  /**
   * The cases whose outcome differs from `before` to `after`. `after` is that run's own cases; `before` is what was
   * current when it finished (the run plus the runs it builds on), so a rerun of three failed cases compares with
   * their previous results even when the run just before it was another partial rerun. Only flipped cases are read in full.
   */
  async compare(before: string, after: string): Promise<CompareRow[]> {
    const afterItems = await this.runItems(after);
    const beforeResults = await this.resultsAsOf(before);
    const beforeItems = new Map<string, CaseListItem>();
    for (const [key, listed] of beforeResults) beforeItems.set(key, listed.item);
    return flippedItemRows(beforeItems, afterItems.values(), async (side, keys) => {
      if (side === 'after') return this.readEntries(after, keys);
      // Earlier results may come from several runs: one read per run.
      const byRun = new Map<string, string[]>();
      for (const key of keys) {
        const runId = beforeResults.get(key)?.runId;
        if (runId) byRun.set(runId, [...(byRun.get(runId) ?? []), key]);
      }
      const out = new Map<string, CaseEntry>();
      for (const [runId, runKeys] of byRun) for (const [key, entry] of await this.readEntries(runId, runKeys)) out.set(key, entry);
      return out;
    });
  }

  /** The eval file a run ran, from this window's memory or the log's header. */
  async specFileOf(runId: string): Promise<string | undefined> {
    const source = this.sessions.source(runId);
    if (source?.specFile) return source.specFile;
    const entry = await this.entryOf(runId).catch(() => undefined);
    return entry?.header?.spec.file;
  }

  /** The run log of a run: this window's or one on disk (what Explain reads). */
  async logFileOf(runId: string): Promise<string> {
    return this.sessions.source(runId)?.logFile ?? (await this.entryOf(runId)).file;
  }

  /** Eval files with at least one readable run on disk. */
  async evalFiles(): Promise<string[]> {
    return [...new Set((await this.diskRuns()).flatMap((e) => (e.header ? [path.normalize(e.header.spec.file)] : [])))];
  }

  /** See LatestResults (currentResults.ts); undefined when the eval file has no readable run. `listed`: a diskRuns() the caller already has. */
  async latestResults(specFile: string, listed?: RunListEntry[]): Promise<LatestResults | undefined> {
    return currentResults(specFile, listed ?? (await this.diskRuns()), (file) => this.readIndex(file));
  }

  /** The full cases of these keys of one run (this window's or a log's); keys the run lacks are left out. */
  async readEntries(runId: string, keys: readonly string[]): Promise<Map<string, CaseEntry>> {
    if (this.sessions.has(runId)) return this.sessions.readEntries(runId, keys);
    const entry = await this.entryOf(runId);
    const read = await this.index(entry.file);
    if (!read.ok) throw new InspectorDataError('not-found', `run ${runId} cannot be read: ${read.problem}`);
    try {
      return await read.index.readEntries(keys);
    } catch (error) {
      throw new InspectorDataError('not-found', `run ${runId}: ${describeError(error)}`);
    }
  }

  /** The results current when `runId` finished: that run and the runs of the same eval file before it. */
  private async resultsAsOf(runId: string): Promise<Map<string, ListedResult>> {
    const merged = new Map<string, ListedResult>();
    for (const [key, item] of await this.runItems(runId)) merged.set(key, { item, runId });
    const specFile = await this.specFileOf(runId);
    if (!specFile) return merged;
    const runs = runsOf(specFile, await this.diskRuns());
    const at = runs.findIndex((e) => e.runId === runId);
    if (at < 0) return merged;
    await overlayRuns(runs.slice(at), (file) => this.readIndex(file), (key, indexed, from) => {
      if (!merged.has(key)) merged.set(key, { item: indexed.item, runId: from });
    });
    return merged;
  }

  /** A log's index for the current-results rules; an unreadable log is left out. */
  private async readIndex(file: string): Promise<RunLogIndex | undefined> {
    const read = await this.index(file);
    return read.ok ? read.index : undefined;
  }

  /** A run's own results as list items: this window's from memory, others from the log's index. */
  private async runItems(runId: string): Promise<ReadonlyMap<string, CaseListItem>> {
    const live = this.sessions.items(runId);
    if (live) return live;
    const entry = await this.entryOf(runId);
    const read = await this.index(entry.file);
    if (!read.ok) throw new InspectorDataError('not-found', `run ${runId} cannot be read: ${read.problem}`);
    const items = new Map<string, CaseListItem>();
    for (const [key, indexed] of read.index.entries) items.set(key, indexed.item);
    return items;
  }

  /** Which of these disk runs are interrupted; a failed check (a marker folder gone) flags none rather than failing the listing. */
  private async interruptedAmong(entries: readonly RunListEntry[]): Promise<ReadonlySet<string>> {
    if (!this.interrupted) return new Set();
    return this.interrupted(entries).catch(() => new Set<string>());
  }

  private async entryOf(runId: string): Promise<RunListEntry> {
    const entry = this.known.get(runId) ?? (await this.diskRuns()).find((e) => e.runId === runId);
    if (!entry) throw new InspectorDataError('not-found', `no run ${runId} in this workspace's .rag-inspector/runs folders`);
    return entry;
  }

  /**
   * A log's index, extended when the log grew (a live run appends, a resume appends) and built again when it was
   * replaced; see RunLogIndex.update. The least recently used indexes are dropped past MAX_CACHED_ENTRIES.
   */
  private async index(file: string): Promise<ReadIndex> {
    try {
      let index = this.indexes.get(file);
      if (index) {
        await index.update();
      } else {
        // Diagnostics and the panel often ask for the same new log at once: one build serves both.
        let building = this.building.get(file);
        if (!building) {
          building = RunLogIndex.build(file).finally(() => this.building.delete(file));
          this.building.set(file, building);
        }
        index = await building;
      }
      // Map order is the LRU order: touch it.
      this.indexes.delete(file);
      this.indexes.set(file, index);
      this.evict(index);
      return { ok: true, index };
    } catch (error) {
      this.indexes.delete(file);
      return { ok: false, problem: describeError(error) };
    }
  }

  /** Drops the least recently used indexes past the entry budget; the one just used stays even when it alone exceeds it. */
  private evict(keep: RunLogIndex): void {
    let total = 0;
    for (const index of this.indexes.values()) total += index.entries.size;
    for (const [file, index] of this.indexes) {
      if (total <= MAX_CACHED_ENTRIES) break;
      if (index === keep) continue;
      this.indexes.delete(file);
      total -= index.entries.size;
    }
  }
}

function listingOf(index: RunLogIndex, interrupted: boolean): RunListing {
  return {
    runId: index.header.runId,
    name: index.header.spec.name,
    createdAt: index.header.createdAt,
    status: index.status,
    models: index.header.models,
    ...(index.summary ? { totals: index.summary.totals } : {}),
    ...(interrupted ? { interrupted: true as const } : {}),
  };
}

async function diskListing(entry: RunListEntry, interrupted = false): Promise<RunListing> {
  if (entry.header && entry.status !== 'unreadable') {
    return {
      runId: entry.runId,
      name: entry.header.spec.name,
      createdAt: entry.header.createdAt,
      status: entry.status,
      models: entry.header.models,
      ...(entry.summary ? { totals: entry.summary.totals } : {}),
      ...(interrupted && entry.status === 'started' ? { interrupted: true as const } : {}),
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
  const markers = new LiveRunMarkers(liveRunMarkersDir(context.globalStorageUri.fsPath));
  const interrupted = interruptedCheck({
    markerOf: (file) => markers.get(file),
    isHere: (runId) => sessions.has(runId),
    isAlive: processAlive,
    hostname: thisHostname(),
    now: Date.now,
  });
  const store = new RunStore(sessions, () => dirs(), interrupted);
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
