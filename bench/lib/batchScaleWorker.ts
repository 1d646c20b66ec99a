// Child-process entry for bench/batchScale.ts: one run of `cases` RGB cases on `openai:gpt-4o-mini` (the fixture
// server standing in through baseUrl), in batch mode or interactively; prints its figures as one JSON line on stdout.
// A process of its own, so its CPU and peak RSS are the engine's alone (the server runs in another).
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { runEvaluation } from '../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../src/core/engine/events.js';
import { envCredentials } from '../../src/core/providers/registry.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from '../../test/unit/engine/workspace.js';
import { MemoryPeaks } from './memoryPeaks.js';

export interface BatchScaleJob {
  cases: number;
  baseUrl: string;
  batch: boolean;
  /** Finished-case counts at which to force a GC and read the live heap and RSS. */
  checkpoints: number[];
}

export interface BatchScaleResult {
  batch: boolean;
  cases: number;
  failed: number;
  runMs: number;
  /** CPU this process used for the run (user + system). */
  cpuMs: number;
  peakRss: number;
  peakHeap: number;
  checkpoints: { done: number; heapUsed: number; rss: number }[];
  logBytes: number;
  costUsd: number | undefined;
  /** Vendor batches submitted (0 interactively), and each one's size: a wave split by a gap shows as small ones. */
  batches: number;
  batchSizes: number[];
  /** The distinct error messages of failed cases, with their counts (none expected). */
  errors: Record<string, number>;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** The engine tests' RGB eval file, its model made `openai:gpt-4o-mini` (a known price) and given room for a busy machine. */
function evalYaml(baseUrl: string, batch: boolean): string {
  return fixtureEvalYaml(baseUrl)
    .replace('provider: openai-compatible\n    model: fixture-model', `provider: openai\n    model: gpt-4o-mini${batch ? '\n    batch: true' : ''}`)
    .replace('concurrency: 4', 'concurrency: 16')
    .replace('timeoutMs: 5000', 'timeoutMs: 60000');
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const job = JSON.parse(process.argv[2] ?? '{}') as BatchScaleJob;
  const ws = createWorkspace({ rows: rgbRows(job.cases), evalYaml: () => evalYaml(job.baseUrl, job.batch) });
  try {
    const wanted = new Set(job.checkpoints);
    const checkpoints: BatchScaleResult['checkpoints'] = [];
    const batchSizes: number[] = [];
    const errors: Record<string, number> = {};
    gc();
    const peaks = new MemoryPeaks();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const outcome = await runEvaluation(ws.evalFile, {
      signal: new AbortController().signal,
      credentials: envCredentials({ OPENAI_API_KEY: 'sk-bench-batch-scale' }),
      noCache: true,
      onEvent: (event: RunEvent) => {
        if (event.type === 'batch' && event.state === 'submitted') batchSizes.push(event.total);
        if (event.type === 'case-finished' && event.result.error) {
          const message = event.result.error.message.slice(0, 160);
          errors[message] = (errors[message] ?? 0) + 1;
        }
        if (event.type !== 'case-finished' || !wanted.has(event.done)) return;
        peaks.sample();
        gc();
        const m = process.memoryUsage();
        checkpoints.push({ done: event.done, heapUsed: m.heapUsed, rss: m.rss });
      },
    });
    const runMs = performance.now() - started;
    const used = process.cpuUsage(cpu);
    peaks.stop();
    const result: BatchScaleResult = {
      batch: job.batch,
      cases: outcome.totals.cases,
      failed: outcome.totals.error,
      runMs,
      cpuMs: (used.user + used.system) / 1000,
      peakRss: peaks.rss,
      peakHeap: peaks.heapUsed,
      checkpoints,
      logBytes: statSync(outcome.logFile).size,
      costUsd: outcome.totals.costUsd,
      batches: batchSizes.length,
      batchSizes,
      errors,
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`batch scale worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
