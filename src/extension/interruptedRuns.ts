// Which run logs were interrupted (no summary, not running anywhere we can tell) and how to name them; no vscode, so plain node tests it.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import type { RunListEntry } from '../core/run/runLog.js';
import type { LiveRunMarker } from './liveRuns.js';

/**
 * How sure we are that nothing is still writing a 'started' log:
 * - 'interrupted': the process that ran it is gone (its marker names a dead process of this machine);
 * - 'maybe-running': no marker (a CLI run, or a window of another VS Code profile) and the log changed recently.
 * A log whose marker names a live process (another window) is not listed at all.
 */
export type Certainty = 'interrupted' | 'maybe-running';

export interface InterruptedRun {
  runId: string;
  file: string;
  name: string;
  specFile: string;
  createdAt: string;
  /** When the log was last written: roughly when the run stopped. */
  modifiedAt: Date;
  casesDone: number;
  certainty: Certainty;
}

/** A log untouched this long with no marker is taken as interrupted; a slower run would have written a case by then. */
export const QUIET_MS = 2 * 60_000;
/** The activation notice is about a run that just broke, not an old log someone left. */
export const NOTIFY_WITHIN_MS = 24 * 60 * 60_000;

export interface LiveFacts {
  /** Runs this window is running now (their log grows; resuming one would write it twice). */
  liveHere: ReadonlySet<string>;
  /** The marker of a log, if a VS Code window on this machine started it. */
  markerOf(file: string): LiveRunMarker | undefined;
  /** Whether a process of this machine is alive. */
  isAlive(pid: number): boolean;
  hostname: string;
  now: number;
}

/** The 'started' logs of `entries` that may be resumed, newest first; the caller counts their cases (see countCaseLines). */
export function chooseInterrupted(
  entries: readonly RunListEntry[],
  modified: ReadonlyMap<string, Date>,
  facts: LiveFacts,
): Omit<InterruptedRun, 'casesDone'>[] {
  const found: Omit<InterruptedRun, 'casesDone'>[] = [];
  for (const entry of entries) {
    if (entry.status !== 'started' || !entry.header || facts.liveHere.has(entry.runId)) continue;
    const modifiedAt = modified.get(entry.file);
    if (!modifiedAt) continue;
    const certainty = certaintyOf(entry.file, modifiedAt, facts);
    if (!certainty) continue;
    found.push({ runId: entry.runId, file: entry.file, name: entry.header.spec.name, specFile: entry.header.spec.file, createdAt: entry.header.createdAt, modifiedAt, certainty });
  }
  return found.sort((a, b) => b.createdAt.localeCompare(a.createdAt));
}

function certaintyOf(file: string, modifiedAt: Date, facts: LiveFacts): Certainty | undefined {
  const marker = facts.markerOf(file);
  if (marker && marker.hostname === facts.hostname) {
    // Our own process with a run it is not running: the run ended without a summary (an engine bug, a disposal).
    if (marker.pid === process.pid) return 'interrupted';
    return facts.isAlive(marker.pid) ? undefined : 'interrupted';
  }
  return facts.now - modifiedAt.getTime() >= QUIET_MS ? 'interrupted' : 'maybe-running';
}

/** The run the activation notice is about: the newest certainly interrupted one of the last day not dismissed before. */
export function runToAnnounce(runs: readonly InterruptedRun[], dismissed: ReadonlySet<string>, now: number): InterruptedRun | undefined {
  return runs.find((r) => r.certainty === 'interrupted' && !dismissed.has(r.runId) && now - r.modifiedAt.getTime() <= NOTIFY_WITHIN_MS);
}

export function announcement(run: InterruptedRun): string {
  return `RAG Inspector: a run of ${run.name} was interrupted after ${plural(run.casesDone, 'case')}.`;
}

/** The quick pick row of a run. */
export function pickItem(run: InterruptedRun, relative: (file: string) => string, now: number): { label: string; description: string; detail: string } {
  const started = formatTime(new Date(run.createdAt));
  const caution = run.certainty === 'maybe-running' ? ` · written ${ago(now - run.modifiedAt.getTime())} — may still be running (a terminal?)` : '';
  return {
    label: run.name,
    description: `started ${started} · ${plural(run.casesDone, 'case')} done${caution}`,
    detail: `${relative(run.specFile)} · run ${run.runId}`,
  };
}

/** What the user reads when the eval file changed since the run started: the engine would refuse the resume. */
export function specChangedMessage(run: Pick<InterruptedRun, 'runId' | 'specFile'>): string {
  return `RAG Inspector: ${path.basename(run.specFile)} changed since run ${run.runId} started, so that run cannot be resumed (its finished cases were scored against the old file). Start a new run instead.`;
}

export function specMissingMessage(run: Pick<InterruptedRun, 'runId' | 'specFile'>): string {
  return `RAG Inspector: run ${run.runId} cannot be resumed: its eval file ${run.specFile} no longer exists.`;
}

/**
 * Case lines in a log, counted by scanning bytes rather than parsing JSON: the writer starts every case line with
 * `{"type":"case"`, and a pick of a few logs must not parse hundreds of MB. A line cut short by a crash is not counted.
 */
export async function countCaseLines(file: string): Promise<number> {
  const marker = Buffer.from('{"type":"case"');
  let count = 0;
  // The first bytes of the current line, up to the marker's length; a line may span chunks.
  let head = Buffer.alloc(0);
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(0x0a, from);
      const end = newline === -1 ? chunk.length : newline;
      if (head.length < marker.length) head = Buffer.concat([head, chunk.subarray(from, Math.min(end, from + marker.length - head.length))]);
      if (newline === -1) break;
      if (head.equals(marker)) count += 1;
      head = Buffer.alloc(0);
      from = newline + 1;
    }
  }
  return count;
}

/** mtime of each file; a log deleted meanwhile is left out. */
export async function modifiedTimes(files: readonly string[]): Promise<Map<string, Date>> {
  const times = await Promise.all(files.map(async (file) => [file, await stat(file).then((s) => s.mtime, () => undefined)] as const));
  return new Map(times.filter((t): t is readonly [string, Date] => t[1] !== undefined));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function formatTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 120 ? `${s} s ago` : `${Math.round(s / 60)} min ago`;
}
