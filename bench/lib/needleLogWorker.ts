// Child-process entry for bench/needleLog.ts: one needle grid run by the engine of `root` (this tree or an older
// checkout) against the fixture server; prints the run log's size and the run's figures as one JSON line.
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MemoryPeaks } from './memoryPeaks.js';

export interface NeedleLogJob {
  root: string;
  baseUrl: string;
  intervals: number;
  maxTokens: number;
  concurrency: number;
}

export interface NeedleLogResult {
  cases: number;
  failed: number;
  runMs: number;
  peakRss: number;
  logBytes: number;
  /** Lines of the log by type, and the bytes they take. */
  lines: Record<string, { count: number; bytes: number }>;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as NeedleLogJob;
  const engine = await import(path.join(job.root, 'src/core/engine/runEvaluation.ts')) as { runEvaluation: (file: string, options: object) => Promise<{ logFile: string; totals: { cases: number; error: number } }> };
  const registry = await import(path.join(job.root, 'src/core/providers/registry.ts')) as { envCredentials(env: object): object };
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-needle-log-'));
  try {
    const file = path.join(dir, 'needle.eval.yaml');
    writeFileSync(file, `version: 1
name: needle log size
models:
  - { provider: openai-compatible, model: fixture-model, baseUrl: ${job.baseUrl} }
concurrency: ${job.concurrency}
maxRetries: 0
suites:
  - id: grid
    method: needle
    params:
      haystack: ${path.join(job.root, 'examples/needle/haystack')}
      contextLengths: { min: 1000, max: ${job.maxTokens}, intervals: ${job.intervals} }
      depths: { intervals: ${job.intervals}, distribution: linear }
`);
    const peaks = new MemoryPeaks();
    const started = performance.now();
    const outcome = await engine.runEvaluation(file, { signal: new AbortController().signal, credentials: registry.envCredentials({ OPENAI_API_KEY: 'sk-fixture-0000000000000000000000' }), noCache: true, workspaceDir: dir });
    const runMs = performance.now() - started;
    peaks.stop();
    const lines: NeedleLogResult['lines'] = {};
    // Streamed: the log of the format that repeats every context is over a gigabyte.
    for await (const line of createInterface({ input: createReadStream(outcome.logFile), crlfDelay: Infinity })) {
      if (line === '') continue;
      const type = /^\{"type":"(\w+)"/.exec(line)?.[1] ?? 'other';
      const entry = (lines[type] ??= { count: 0, bytes: 0 });
      entry.count++;
      entry.bytes += Buffer.byteLength(line) + 1;
    }
    const result: NeedleLogResult = { cases: outcome.totals.cases, failed: outcome.totals.error, runMs, peakRss: peaks.rss, logBytes: statSync(outcome.logFile).size, lines };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`needle log worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
