// One measured engine run in a fresh Node process: the job a bench file asks for, the figures it gets back, and how to run it.
import { fork } from 'node:child_process';
import * as path from 'node:path';
import type { FixtureOptions } from '../../test/fixtures/llmServer.js';
import type { ServerStats } from './fixtureProcess.js';

export interface EngineJob {
  /**
   * 'engine': runEvaluation end to end. 'bare-provider': the same cases' prompts sent straight to the provider
   * (no scheduler, cache, scoring, run log), as many at once as `concurrency` — the floor the engine adds to.
   */
  mode: 'engine' | 'bare-provider';
  /** 'openai-compatible' goes through the real OpenAI SDK to a fixture server in its own process; 'extractive' makes no call. */
  provider: 'openai-compatible' | 'extractive';
  cases: number;
  /** A run of this many cases first, in the same process, so the measured run sees warmed JIT and open connections. */
  warmupCases: number;
  concurrency: number;
  /** Fixture server options (latency, rate limit); only with 'openai-compatible'. */
  server?: FixtureOptions;
  /** Extra top-level eval-file YAML (rateLimit, maxRetries…). */
  evalTop?: string;
  noCache?: boolean;
  /** Force a GC and read the heap after this many finished cases (the GC's own CPU is left out of the CPU figure). */
  heapAt?: number[];
  /** Timestamps of these finished-case counts, for a steady-state rate that leaves out start-up and the tail. */
  markAt?: number[];
}

export interface EngineResult {
  wallMs: number;
  /** User + system CPU of the engine process over the run, minus the forced GCs. */
  cpuMs: number;
  /** The system-time part of cpuMs (file writes, sockets). */
  systemCpuMs: number;
  cases: number;
  failed: number;
  modelCalls: number;
  /** Live heap (after a forced GC) at each `heapAt` count. */
  heapAt: Record<string, number>;
  peakRss: number;
  peakHeapUsed: number;
  /** Heap after a forced GC just before the run. */
  heapBefore: number;
  /** ms since the run started at which the `markAt` counts were reached. */
  marks: Record<string, number>;
  /** Bytes of the run log. */
  logBytes: number;
  server?: ServerStats & { cpuMsDuringRun: number };
}

const WORKER = path.join(__dirname, 'engineWorker.ts');

/** Runs the job in a child process (fresh heap, nothing left over from earlier repeats) and returns its figures. */
export function runEngineJob(job: EngineJob): Promise<EngineResult> {
  return new Promise((resolve, reject) => {
    const child = fork(WORKER, [JSON.stringify(job)], { execArgv: ['--import', 'tsx', '--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: EngineResult | undefined;
    child.on('message', (message: EngineResult) => {
      result = message;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`engine worker exited with code ${code}${result ? '' : ' without a result'}`));
    });
  });
}
