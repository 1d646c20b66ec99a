// The rules for "the current results of an eval file", in one place: diagnostics, CodeLens, hovers, reruns and the Test Explorer all read them (through RunStore and ResultsIndex). No vscode, so plain node tests them.
import * as path from 'node:path';
import type { InputProblem } from '../core/model.js';
import type { RunListEntry } from '../core/run/runLog.js';
import { digestOf } from '../core/report/runLogIndex.js';
import type { IndexedCase, RunLogIndex } from '../core/report/runLogIndex.js';
import type { CaseDigest } from '../core/report/caseItems.js';

/**
 * A case's current result (its digest: row, template, verdict), the run it came from and the eval file it is current
 * for (a dataset may serve several); getCase reads the rest from that run's log.
 */
export interface LatestEntry extends CaseDigest {
  runId: string;
  specFile: string;
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

/** What the rules read of a run log: its index (RunLogIndex), without the byte ranges' file access. */
export type IndexedRun = Pick<RunLogIndex, 'header' | 'summary' | 'entries'>;

/** A run log's index, or undefined when it cannot be read (it is skipped). */
export type ReadRun = (logFile: string) => Promise<IndexedRun | undefined>;

/** Earlier runs a current result may come from; older ones are almost always superseded, and each costs an index. */
export const MAX_CHAIN = 20;

/** Which run is newer: run ids sort by the second only (two quick reruns share one), so the header's millisecond start time decides. */
export function newestFirst(entries: readonly RunListEntry[]): RunListEntry[] {
  return [...entries].sort((a, b) => (b.header?.createdAt ?? '').localeCompare(a.header?.createdAt ?? '') || b.runId.localeCompare(a.runId));
}

/**
 * The current results of `specFile` (see LatestResults), from `listed`: run logs in newestFirst order, as
 * RunStore.diskRuns lists them. Undefined when the eval file has no run there.
 */
export async function currentResults(specFile: string, listed: readonly RunListEntry[], read: ReadRun): Promise<LatestResults | undefined> {
  const target = path.normalize(specFile);
  const runs = runsOf(target, listed);
  const newest = runs[0];
  if (!newest?.header) return undefined;
  const entries = new Map<string, LatestEntry>();
  const { runIds, problems } = await overlayRuns(runs, read, (key, indexed, runId) => entries.set(key, { ...digestOf(indexed), runId, specFile: target }));
  return { specFile: target, name: newest.header.spec.name, latestRunId: newest.runId, runIds, entries, problems };
}

/** The runs of one eval file among `listed`, in their order. */
export function runsOf(specFile: string, listed: readonly RunListEntry[]): RunListEntry[] {
  const target = path.normalize(specFile);
  return listed.filter((e) => e.header && path.normalize(e.header.spec.file) === target);
}

/**
 * Newest-first runs of one eval file folded into one result per (case, model); see LatestResults. `take` is
 * called once per key, for the newest result that counts.
 */
export async function overlayRuns(
  runs: readonly RunListEntry[],
  read: ReadRun,
  take: (key: string, indexed: IndexedCase, runId: string) => void,
): Promise<{ runIds: string[]; problems: InputProblem[] }> {
  const seen = new Set<string>();
  const runIds: string[] = [];
  let newest: { specHash: string; datasets: Map<string, string> } | undefined;
  let problems: InputProblem[] | undefined;
  for (const run of runs.slice(0, MAX_CHAIN)) {
    const index = await read(run.file);
    if (!index) continue;
    const datasets = datasetHashes(index);
    newest ??= { specHash: index.header.spec.hash, datasets };
    if (index.header.spec.hash !== newest.specHash) break;
    runIds.push(index.header.runId);
    if (!problems && index.summary) problems = index.summary.problems;
    // A row's dataset is usually the same file for thousands of cases: compare its hash once per file.
    const sameDataset = new Map<string, boolean>();
    for (const [key, indexed] of index.entries) {
      if (seen.has(key)) continue;
      let same = sameDataset.get(indexed.row.file);
      if (same === undefined) {
        const file = path.normalize(indexed.row.file);
        same = datasets.get(file) === newest.datasets.get(file);
        sameDataset.set(indexed.row.file, same);
      }
      if (!same) continue;
      seen.add(key);
      take(key, indexed, index.header.runId);
    }
  }
  return { runIds, problems: problems ?? [] };
}

/** The hash of each dataset a run read, as its header recorded it at the start. */
function datasetHashes(index: IndexedRun): Map<string, string> {
  return new Map(index.header.inputs.filter((i) => i.kind === 'dataset').map((i) => [path.normalize(i.file), i.hash]));
}
