// Benchmark: explaining one case — model calls and wall time per variant kind at 5, 10 and 20 documents, and the CPU
// an explanation spends beyond its model calls (target: under 1 ms per variant). The fixture server runs in its own
// process, so its CPU is not counted; a bare OpenAI SDK loop over the same number of calls is the floor subtracted.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runEvaluation } from '../src/core/engine/runEvaluation.js';
import { explainRun } from '../src/core/explain/explainRun.js';
import type { VariantKind } from '../src/core/explain/model.js';
import { createProvider, envCredentials } from '../src/core/providers/registry.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import type { FixtureProcess } from './lib/fixtureProcess.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const credentials = envCredentials({});
const KINDS: VariantKind[] = ['loo', 'subsets', 'position', 'instruction'];
const SIZES = [5, 10, 20];

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** A workspace with one RGB case of `n` documents (one answer-bearing), run once so the original is in the cache. */
async function explainedRun(server: FixtureProcess, n: number, seed: number): Promise<{ dir: string; logFile: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-explain-'));
  const row = {
    id: 0, query: `Where was the game played (seed ${seed})?`, answer: 'Tampa, Florida',
    positive: ['Super Bowl LV was played in Tampa, Florida, in February 2021.'],
    negative: Array.from({ length: n - 1 }, (_, i) => `Noise passage ${i}: tickets for a later game went on sale in another city, and fans travelled far to see it.`),
  };
  writeFileSync(path.join(dir, 'data.jsonl'), `${JSON.stringify(row)}\n`);
  const evalFile = path.join(dir, 'bench.eval.yaml');
  writeFileSync(evalFile, `version: 1\nname: explain bench\nmodels:\n  - { provider: openai-compatible, model: bench, baseUrl: ${server.openaiBaseUrl} }\nconcurrency: 8\nseed: ${seed}\nsuites:\n  - { id: s, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [${(n - 1) / n}], passageNum: ${n} } }\n`);
  const run = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials });
  return { dir, logFile: run.logFile };
}

interface Measure { calls: number; variants: number; wallMs: number; cpuMs: number }

async function explainOnce(server: FixtureProcess, n: number, kind: VariantKind, seed: number): Promise<Measure> {
  const { dir, logFile } = await explainedRun(server, n, seed);
  try {
    const before = (await server.stats()).requests;
    const cpu = cpuMs();
    const started = performance.now();
    const outcome = await explainRun(logFile, { signal: new AbortController().signal, credentials, caseIds: ['s/0/noise=' + String((n - 1) / n)], variants: [kind] });
    const wallMs = performance.now() - started;
    const used = cpuMs() - cpu;
    const calls = (await server.stats()).requests - before;
    return { calls, variants: outcome.plan.variants, wallMs, cpuMs: used };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** CPU per call of the OpenAI SDK alone against the same server, 8 in flight: what a model call costs with no engine. */
async function bareCallCpuMs(server: FixtureProcess, calls: number): Promise<number> {
  const provider = await createProvider({ provider: 'openai-compatible', model: 'bench', baseUrl: server.openaiBaseUrl, parameters: {} }, credentials);
  const prompt = `Document:\n${'Noise passage: tickets for a later game went on sale in another city.\n'.repeat(10)}\nQuestion:\nWhere was the game played?`;
  let next = 0;
  const cpu = cpuMs();
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < calls) {
      next += 1;
      await provider.complete({ model: 'bench', messages: [{ role: 'user', content: `${prompt} ${next}` }] }, { signal: new AbortController().signal });
    }
  }));
  return (cpuMs() - cpu) / calls;
}

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 3);
  const latencyMs = numberArg('latency', 0);
  const server = await startFixtureProcess({ latencyMs });
  try {
    console.log(machineLine());
    console.log(`one RGB case per explanation, fixture server at ${latencyMs} ms in its own process, concurrency 8, ${repeats} repeats (median), a fresh workspace each time (the original comes from the run's cache)`);
    await explainOnce(server, 5, 'subsets', 999); // warm-up: JIT, connections
    const bare = await bareCallCpuMs(server, 400);
    const rows: (string | number)[][] = [];
    /** (variants, CPU beyond the calls) of every explanation, for fixed + per-variant cost by least squares. */
    const points: [number, number][] = [];
    for (const n of SIZES) {
      for (const kind of KINDS) {
        const measures: Measure[] = [];
        for (let r = 0; r < repeats; r++) measures.push(await explainOnce(server, n, kind, 1000 * n + r));
        for (const x of measures) points.push([x.variants, x.cpuMs - x.calls * bare]);
        const m = (of: (x: Measure) => number) => median(measures.map(of));
        const overhead = m((x) => (x.cpuMs - x.calls * bare) / x.variants);
        rows.push([n, kind, m((x) => x.variants), m((x) => x.calls), m((x) => x.wallMs).toFixed(0), m((x) => x.cpuMs / x.variants).toFixed(2), overhead.toFixed(2)]);
      }
    }
    console.log(`bare OpenAI SDK call: ${bare.toFixed(2)} ms CPU`);
    console.log(table(['docs', 'variants', 'planned', 'model calls', 'wall ms', 'CPU ms/variant', 'overhead ms/variant'], rows));
    const { fixed, perVariant } = leastSquares(points);
    console.log(`CPU beyond the model calls = ${fixed.toFixed(1)} ms per explanation (open the run, plan, write) + ${perVariant.toFixed(2)} ms per variant (least squares over ${points.length} explanations)`);
  } finally {
    await server.close();
  }
}

function leastSquares(points: readonly [number, number][]): { fixed: number; perVariant: number } {
  const n = points.length;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  const sxy = points.reduce((s, [x, y]) => s + (x - mx) * (y - my), 0);
  const sxx = points.reduce((s, [x]) => s + (x - mx) ** 2, 0);
  const perVariant = sxx === 0 ? 0 : sxy / sxx;
  return { fixed: my - perVariant * mx, perVariant };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
