// One pass over a run's cases feeding every report writer: each writer takes the cases one at a time and finishes
// once they are all seen, so a set of reports reads the run log once, whatever formats are asked for.
import type { RunData, RunEntry } from './runData.js';
import { Spool } from './spool.js';

/** A report written case by case; what it cannot place yet it keeps in spools (spool.ts), never every case. */
export interface ReportWriter {
  add(entry: RunEntry): Promise<void>;
  /** After the last case: writes what waited for the totals, and frees its spools. */
  finish(): Promise<void>;
  /** Frees its spools when the pass failed before `finish`; idempotent. */
  dispose?(): Promise<void>;
}

/** Where writers put their spools: a file in `dir` once a spool outgrows memory. */
export type SpoolFactory = () => Spool;

export function spoolsIn(dir?: string): SpoolFactory {
  return () => new Spool(dir);
}

/** Reads `run.entries()` once and feeds each entry to every writer, in order; then finishes each. */
export async function writeInOnePass(run: RunData, writers: readonly ReportWriter[]): Promise<void> {
  try {
    for await (const entry of run.entries()) for (const writer of writers) await writer.add(entry);
    for (const writer of writers) await writer.finish();
  } finally {
    for (const writer of writers) await writer.dispose?.();
  }
}
