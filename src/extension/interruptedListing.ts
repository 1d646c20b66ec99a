// Which listed runs the inspector shows as interrupted: the rules of interruptedRuns.ts, applied to a run listing; no vscode, so plain node tests it.
import type { RunListEntry } from '../core/run/runLog.js';
import { chooseInterrupted, modifiedTimes } from './interruptedRuns.js';
import type { LiveRunMarker } from './liveRuns.js';

/** The run ids among `entries` that are certainly interrupted (never one that may still be running). */
export type InterruptedCheck = (entries: readonly RunListEntry[]) => Promise<ReadonlySet<string>>;

export interface InterruptedCheckDeps {
  /** The marker of a log; asked once per 'started' log of a listing, never for a finished one. */
  markerOf(file: string): LiveRunMarker | undefined;
  /** Runs this window holds (running or run here): listed from memory, never as interrupted. */
  isHere(runId: string): boolean;
  isAlive(pid: number): boolean;
  hostname: string;
  now(): number;
}

/**
 * A listing costs one stat per 'started' log and one marker read per such log: finished logs (nearly all of them)
 * cost nothing, so a workspace of thousands of runs lists as fast as before.
 */
export function interruptedCheck(deps: InterruptedCheckDeps): InterruptedCheck {
  return async (entries) => {
    const started = entries.filter((e) => e.status === 'started' && e.header && !deps.isHere(e.runId));
    if (started.length === 0) return new Set();
    const modified = await modifiedTimes(started.map((e) => e.file));
    const chosen = chooseInterrupted(started, modified, {
      liveHere: new Set(),
      markerOf: (file) => deps.markerOf(file),
      isAlive: deps.isAlive,
      hostname: deps.hostname,
      now: deps.now(),
    });
    // 'maybe-running' (a recent log with no marker: a terminal?) stays 'started', with its Cancel as before.
    return new Set(chosen.filter((run) => run.certainty === 'interrupted').map((run) => run.runId));
  };
}
