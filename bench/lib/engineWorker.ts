// Child-process entry: runs the real engine (runEvaluation) on a temp workspace and reports CPU, memory and timing to the parent.
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildPlan } from '../../src/core/engine/plan.js';
import { runEvaluation } from '../../src/core/engine/runEvaluation.js';
import type { ChatMessage } from '../../src/core/model.js';
import { createProvider, envCredentials } from '../../src/core/providers/registry.js';
import { loadEvalSpec } from '../../src/core/spec/load.js';
import { createWorkspace, rgbRows } from '../../test/unit/engine/workspace.js';
import type { Workspace } from '../../test/unit/engine/workspace.js';
import type { EngineJob, EngineResult } from './engineJob.js';
import { startFixtureProcess } from './fixtureProcess.js';
import { MemoryPeaks } from './memoryPeaks.js';
import type { FixtureProcess } from './fixtureProcess.js';

const gc = (globalThis as { gc?: () => void }).gc;

function cpuNow(): { total: number; system: number } {
  const { user, system } = process.cpuUsage();
  return { total: (user + system) / 1000, system: system / 1000 };
}

function evalYaml(job: EngineJob, baseUrl: string | undefined): string {
  const model = job.provider === 'extractive'
    ? '  - extractive:baseline'
    : `  - provider: openai-compatible\n    model: fixture-model\n    baseUrl: ${baseUrl}`;
  return `version: 1
name: engine benchmark
models:
${model}
concurrency: ${job.concurrency}
${job.evalTop ?? ''}
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;
}

function workspaceFor(job: EngineJob, cases: number, baseUrl: string | undefined): Workspace {
  return createWorkspace({ rows: rgbRows(cases), evalYaml: () => evalYaml(job, baseUrl) });
}

const options = () => ({ signal: new AbortController().signal, credentials: envCredentials({}) });

/**
 * The span one measured run covers, opened after a forced GC: wall time, this process's CPU (minus the `gcCpuMs` the
 * run's own forced GCs took), memory peaks, and the fixture server's CPU over the same span.
 */
async function openWindow(server: FixtureProcess | undefined) {
  gc!();
  const heapBefore = process.memoryUsage().heapUsed;
  const serverCpuBefore = server ? (await server.stats()).cpuMs : 0;
  const memory = new MemoryPeaks();
  const cpuStart = cpuNow();
  const started = performance.now();
  return {
    memory,
    started,
    async close(gcCpuMs: number): Promise<Pick<EngineResult, 'wallMs' | 'cpuMs' | 'systemCpuMs' | 'peakRss' | 'peakHeapUsed' | 'heapBefore' | 'server'>> {
      const wallMs = performance.now() - started;
      const cpuEnd = cpuNow();
      memory.stop();
      const serverStats = server ? await server.stats() : undefined;
      return {
        wallMs,
        cpuMs: cpuEnd.total - cpuStart.total - gcCpuMs,
        systemCpuMs: cpuEnd.system - cpuStart.system,
        peakRss: memory.rss,
        peakHeapUsed: memory.heapUsed,
        heapBefore,
        ...(serverStats ? { server: { ...serverStats, cpuMsDuringRun: serverStats.cpuMs - serverCpuBefore } } : {}),
      };
    },
  };
}

async function measureEngine(job: EngineJob, ws: Workspace, server: FixtureProcess | undefined): Promise<EngineResult> {
  const heapAtWanted = new Set(job.heapAt ?? []);
  const markAtWanted = new Set(job.markAt ?? []);
  const heapAt: Record<string, number> = {};
  const marks: Record<string, number> = {};
  let gcCpuMs = 0;

  const window = await openWindow(server);
  const { memory, started } = window;
  const outcome = await runEvaluation(ws.evalFile, {
    ...options(),
    noCache: job.noCache,
    onEvent: (event) => {
      if (event.type !== 'case-finished') return;
      if (markAtWanted.has(event.done)) marks[event.done] = performance.now() - started;
      if (heapAtWanted.has(event.done)) {
        memory.sample();
        const before = cpuNow().total;
        gc!();
        heapAt[event.done] = process.memoryUsage().heapUsed;
        gcCpuMs += cpuNow().total - before;
      }
    },
  });
  return {
    ...(await window.close(gcCpuMs)),
    cases: outcome.totals.cases,
    failed: outcome.totals.error,
    modelCalls: outcome.totals.modelCalls,
    heapAt,
    marks,
    logBytes: statSync(outcome.logFile).size,
  };
}

/** The provider alone on the same prompts: what a hand-written loop over the SDK (or the reader) costs. */
async function measureBareProvider(job: EngineJob, ws: Workspace, server: FixtureProcess | undefined): Promise<EngineResult> {
  const { credentials } = options();
  const spec = await loadEvalSpec(ws.evalFile);
  const plan = await buildPlan(spec, new AbortController().signal);
  const modelSpec = spec.models[0]!;
  const provider = await createProvider(modelSpec, credentials);
  const prompts: ChatMessage[][] = plan.suites.flatMap((s) => s.cases.map((c) => c.messages));
  const callAll = async (list: ChatMessage[][]) => {
    let next = 0;
    let failed = 0;
    const lane = async () => {
      while (next < list.length) {
        const messages = list[next++]!;
        // A signal per call, as the engine's scheduler gives each attempt its own.
        await provider.complete({ model: modelSpec.model, messages }, { signal: new AbortController().signal }).catch(() => failed++);
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, lane));
    return failed;
  };
  if (job.warmupCases > 0) {
    await callAll(prompts.slice(0, job.warmupCases));
    await server?.reset();
  }

  const window = await openWindow(server);
  const failed = await callAll(prompts);
  return {
    ...(await window.close(0)),
    cases: prompts.length,
    failed,
    modelCalls: prompts.length,
    heapAt: {},
    marks: {},
    logBytes: 0,
  };
}

async function warmUpEngine(job: EngineJob, baseUrl: string | undefined, server: FixtureProcess | undefined): Promise<void> {
  const warm = workspaceFor(job, job.warmupCases, baseUrl);
  try {
    const outcome = await runEvaluation(warm.evalFile, { ...options(), noCache: job.noCache });
    if (outcome.totals.cases !== job.warmupCases) throw new Error(`warm-up ran ${outcome.totals.cases} cases, expected ${job.warmupCases}`);
  } finally {
    warm.cleanup();
  }
  await server?.reset();
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const job = JSON.parse(process.argv[2] ?? '{}') as EngineJob;
  const server = job.provider === 'openai-compatible' ? await startFixtureProcess(job.server ?? {}) : undefined;
  const baseUrl = server?.openaiBaseUrl;
  try {
    const ws = workspaceFor(job, job.cases, baseUrl);
    try {
      let result: EngineResult;
      if (job.mode === 'bare-provider') {
        result = await measureBareProvider(job, ws, server);
      } else {
        if (job.warmupCases > 0) await warmUpEngine(job, baseUrl, server);
        result = await measureEngine(job, ws, server);
      }
      process.send?.(result);
    } finally {
      ws.cleanup();
    }
  } finally {
    await server?.close();
  }
}

main().then(
  () => process.disconnect?.(),
  (error: unknown) => {
    process.stderr.write(`engine worker: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
