// Benchmark: 100,000 RGB cases in batch mode against the fixture server's OpenAI Batch API (in its own process,
// batches answered at their first poll) — engine CPU per case, peak RSS and live heap as cases finish (flat?), run
// log size, batches sent, and the reported cost against the same run made interactively (half, for `openai`).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import type { BatchScaleJob, BatchScaleResult } from './lib/batchScaleWorker.js';
import { machineLine, mb, numberArg, table } from './lib/report.js';

const WORKER = path.join(__dirname, 'lib', 'batchScaleWorker.ts');

/** One run in a fresh process: its CPU and memory are the engine's alone. */
function runJob(job: BatchScaleJob): BatchScaleResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', WORKER, JSON.stringify(job)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`batch scale worker exited with ${child.status}: ${child.stdout.slice(-2000)}`);
  return JSON.parse(line) as BatchScaleResult;
}

async function main(): Promise<void> {
  const cases = numberArg('cases', 100_000);
  const args = process.argv.slice(2);
  // The interactive run sends every case as its own HTTP call: --no-interactive measures batch mode alone.
  const modes = args.includes('--no-interactive') ? [true] : [true, false];
  const checkpoints = [0.1, 0.25, 0.5, 0.75, 1].map((f) => Math.round(cases * f));
  // The server keeps every batch's files (the run's whole input and output) but only a few recorded requests.
  const server = await startFixtureProcess({ batchProcessingMs: 0, keepRequests: 100 });
  try {
    console.log(machineLine());
    console.log(`${cases} cases (RGB noise robustness) on openai:gpt-4o-mini via baseUrl, --no-cache; the fixture server in its own process, batches answered at the first poll; each run in a fresh process`);
    const results: BatchScaleResult[] = [];
    for (const batch of modes) {
      const result = runJob({ cases, baseUrl: server.openaiBaseUrl, batch, checkpoints });
      results.push(result);
      console.log(`${batch ? 'batch' : 'interactive'}: ${result.cases} cases in ${(result.runMs / 1000).toFixed(1)} s, ${result.failed} failed${batch ? `, ${result.batches} batches of ${result.batchSizes.join(', ')} requests` : ''}`);
      for (const [message, count] of Object.entries(result.errors)) console.log(`  ${count} × ${message}`);
    }
    const label = (r: BatchScaleResult) => (r.batch ? 'batch' : 'interactive');
    console.log('\nLive heap / RSS after a forced GC as cases finish:');
    console.log(table(['mode', ...checkpoints.map((c) => `heap@${c} MB`), ...checkpoints.map((c) => `rss@${c} MB`)], results.map((r) => [
      label(r),
      ...checkpoints.map((c) => mb(r.checkpoints.find((p) => p.done === c)?.heapUsed ?? NaN)),
      ...checkpoints.map((c) => mb(r.checkpoints.find((p) => p.done === c)?.rss ?? NaN)),
    ])));
    console.log('\nThe run:');
    console.log(table(['mode', 'run s', 'engine CPU s', 'CPU ms/case', 'peak heap MB', 'peak RSS MB', 'log MB', 'batches', 'cost USD'], results.map((r) => [
      label(r),
      (r.runMs / 1000).toFixed(1),
      (r.cpuMs / 1000).toFixed(1),
      (r.cpuMs / r.cases).toFixed(3),
      mb(r.peakHeap),
      mb(r.peakRss),
      mb(r.logBytes),
      r.batches,
      r.costUsd?.toFixed(4) ?? 'unknown',
    ])));
    const [batched, interactive] = results;
    if (batched?.costUsd !== undefined && interactive?.costUsd !== undefined) console.log(`\nbatch cost / interactive cost: ${(batched.costUsd / interactive.costUsd).toFixed(3)}`);
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
