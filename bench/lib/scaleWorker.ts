// Child-process entry for bench/scale.ts: one 100,000-case run of the engine in `root` (this tree, or an older commit's
// checkout for the before/after comparison), then its reports; prints figures as one JSON line on stdout.
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createWorkspace, rgbRows } from '../../test/unit/engine/workspace.js';
import type { Workspace } from '../../test/unit/engine/workspace.js';
import { MemoryPeaks } from './memoryPeaks.js';
import { rgbNoiseEval } from './rgbNoiseEval.js';

export interface ScaleJob {
  /** The source tree whose engine runs (its src/ is imported); the current one by default. */
  root: string;
  cases: number;
  concurrency: number;
  /** Finished-case counts at which to force a GC and read the live heap and the run log's size. */
  checkpoints: number[];
  formats: string[];
}

export interface Checkpoint {
  done: number;
  heapUsed: number;
  rss: number;
  logBytes: number;
  /** ms since the run started. */
  atMs: number;
}

export interface ScaleResult {
  root: string;
  cases: number;
  failed: number;
  runMs: number;
  checkpoints: Checkpoint[];
  /** Live heap after a forced GC once the run returned (the outcome still referenced). */
  heapAfterRun: number;
  runPeakRss: number;
  runPeakHeap: number;
  /** Peaks from the start to the last case finished: planning and calls, before the tables. */
  casesPeakRss: number;
  casesPeakHeap: number;
  /** From the last case finished to the run's return: the suites' tables (computed from the log since a664315) and the summary. */
  tables: { ms: number; peakRss: number; peakHeap: number };
  reports: { ms: number; peakRss: number; peakHeap: number; files: Record<string, number>; error?: string };
  logBytes: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

const evalYaml = (concurrency: number) => rgbNoiseEval({ name: 'scale benchmark', model: 'extractive:bm25', concurrency });

/**
 * The dataset written a slice of rows at a time. Built in one piece (and inside the async main, whose suspended frame
 * kept the argument alive for the whole run) the bench's own rows were ~0.6 KB per case of live heap that the run
 * was blamed for: 653 MB at 1,000,000 cases.
 */
function workspaceFor(job: ScaleJob): Workspace {
  const ws = createWorkspace({ rows: [], evalYaml: () => evalYaml(job.concurrency) });
  writeFileSync(ws.datasetFile, '');
  const slice = 10_000;
  for (let from = 0; from < job.cases; from += slice) {
    appendFileSync(ws.datasetFile, rgbRows(Math.min(slice, job.cases - from), from).map((row) => `${JSON.stringify(row)}\n`).join(''));
  }
  return ws;
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const job = JSON.parse(process.argv[2] ?? '{}') as ScaleJob;
  const src = (file: string) => path.join(job.root, 'src', file);
  // The engine and report writers of the tree under test; their APIs differ before and after streaming reports.
  const engine = await import(src('core/engine/runEvaluation.ts')) as { runEvaluation: (file: string, options: object) => Promise<Record<string, unknown> & { logFile: string; totals: { cases: number; error: number } }> };
  const sources = await import(src('core/report/runDataSources.ts')) as { runDataFromLog(file: string): Promise<object>; runDataFromOutcome(outcome: object): object };
  const writers = await import(src('core/report/writeReports.ts')) as { writeReports(run: object, dir: string, formats: string[]): Promise<string[]> };
  const registry = await import(src('core/providers/registry.ts')) as { envCredentials(env: object): object };

  const ws = workspaceFor(job);
  try {
    const wanted = new Set(job.checkpoints);
    const checkpoints: Checkpoint[] = [];
    let logFile = '';
    let tablesStart = 0;
    let tablesPeaks: MemoryPeaks | undefined;
    let casesPeak = { rss: NaN, heapUsed: NaN };
    gc();
    const peaks = new MemoryPeaks();
    const started = performance.now();
    const outcome = await engine.runEvaluation(ws.evalFile, {
      signal: new AbortController().signal,
      credentials: registry.envCredentials({}),
      noCache: true,
      onEvent: (event: { type: string; done?: number; logFile?: string }) => {
        if (event.type === 'run-started') logFile = event.logFile ?? '';
        if (event.type === 'case-finished' && event.done === job.cases) {
          peaks.sample();
          casesPeak = { rss: peaks.rss, heapUsed: peaks.heapUsed };
          tablesStart = performance.now();
          tablesPeaks = new MemoryPeaks();
        }
        if (event.type !== 'case-finished' || !wanted.has(event.done ?? -1)) return;
        peaks.sample();
        gc();
        const m = process.memoryUsage();
        checkpoints.push({ done: event.done!, heapUsed: m.heapUsed, rss: m.rss, logBytes: statSync(logFile).size, atMs: performance.now() - started });
      },
    });
    const runMs = performance.now() - started;
    const tablesMs = tablesStart ? performance.now() - tablesStart : NaN;
    tablesPeaks?.stop();
    peaks.stop();
    gc();
    const heapAfterRun = process.memoryUsage().heapUsed;

    const reportPeaks = new MemoryPeaks();
    const reportStart = performance.now();
    const files: Record<string, number> = {};
    let error: string | undefined;
    try {
      // Before: reports from the outcome held in memory (sync); after: streamed from the run log.
      const run = 'results' in outcome ? sources.runDataFromOutcome(outcome) : await sources.runDataFromLog(outcome.logFile);
      for (const file of await writers.writeReports(run, path.join(ws.dir, 'reports'), job.formats)) files[path.basename(file)] = statSync(file).size;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const reportMs = performance.now() - reportStart;
    reportPeaks.stop();

    const result: ScaleResult = {
      root: job.root,
      cases: outcome.totals.cases,
      failed: outcome.totals.error,
      runMs,
      checkpoints,
      heapAfterRun,
      runPeakRss: peaks.rss,
      runPeakHeap: peaks.heapUsed,
      casesPeakRss: casesPeak.rss,
      casesPeakHeap: casesPeak.heapUsed,
      tables: { ms: tablesMs, peakRss: tablesPeaks?.rss ?? NaN, peakHeap: tablesPeaks?.heapUsed ?? NaN },
      reports: { ms: reportMs, peakRss: reportPeaks.rss, peakHeap: reportPeaks.heapUsed, files, ...(error ? { error } : {}) },
      logBytes: statSync(outcome.logFile).size,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`scale worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
