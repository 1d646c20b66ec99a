// Benchmark: cases per second at 50 ms model latency and concurrency 16, against the ideal 16 / 0.05 s = 320 cases/s.
import { runEngineJob } from './lib/engineJob.js';
import type { EngineJob, EngineResult } from './lib/engineJob.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const LATENCY_MS = 50;
const CONCURRENCY = 16;
const IDEAL = CONCURRENCY / (LATENCY_MS / 1000);

async function main(): Promise<void> {
  const cases = numberArg('cases', 2000);
  const repeats = numberArg('repeats', 3);
  // The steady-state rate is read between these finished-case counts, leaving out start-up (plan, first connections) and the tail.
  const from = Math.floor(cases * 0.1);
  const to = cases - from;
  const common = { cases, warmupCases: 200, concurrency: CONCURRENCY, server: { latencyMs: LATENCY_MS }, provider: 'openai-compatible' as const, markAt: [from, to] };
  const configs: { label: string; job: EngineJob }[] = [
    { label: 'SDK loop alone (16 at once)', job: { ...common, mode: 'bare-provider' } },
    { label: 'engine --no-cache', job: { ...common, mode: 'engine', noCache: true } },
    { label: 'engine, cache on (default)', job: { ...common, mode: 'engine' } },
  ];

  console.log(machineLine());
  console.log(`${cases} cases through the real OpenAI SDK to the fixture server (child process) at ${LATENCY_MS} ms latency, concurrency ${CONCURRENCY}; ideal ${IDEAL} cases/s; ${repeats} repeats, fresh process each, 200-case warm-up`);
  const runs = new Map<string, EngineResult[]>(configs.map((c) => [c.label, []]));
  for (let r = 1; r <= repeats; r++) {
    for (const config of configs) {
      const result = await runEngineJob(config.job);
      runs.get(config.label)!.push(result);
      console.log(`repeat ${r} ${config.label}: ${(result.cases / (result.wallMs / 1000)).toFixed(1)} cases/s overall, ${steady(result, from, to).toFixed(1)} steady, mean ${result.server?.meanInFlight.toFixed(1)} / peak ${result.server?.peakInFlight} in flight at the server, failed ${result.failed}`);
    }
  }

  const rows = configs.map((c) => {
    const list = runs.get(c.label)!;
    const overall = median(list.map((r) => r.cases / (r.wallMs / 1000)));
    const steadyRate = median(list.map((r) => steady(r, from, to)));
    return [
      c.label,
      median(list.map((r) => r.wallMs / 1000)).toFixed(2),
      overall.toFixed(1),
      `${((overall / IDEAL) * 100).toFixed(1)}%`,
      c.job.mode === 'engine' ? steadyRate.toFixed(1) : '—',
      c.job.mode === 'engine' ? `${((steadyRate / IDEAL) * 100).toFixed(1)}%` : '—',
      median(list.map((r) => r.server?.meanInFlight ?? 0)).toFixed(1),
      `${median(list.map((r) => (CONCURRENCY / (r.cases / (r.wallMs / 1000))) * 1000 - LATENCY_MS)).toFixed(1)}`,
      median(list.map((r) => r.cpuMs / r.cases)).toFixed(3),
      String(Math.max(...list.map((r) => r.failed))),
    ];
  });
  console.log(`\nmedian of ${repeats}:`);
  console.log(table(['config', 'wall s', 'cases/s', 'of ideal', `steady cases/s (${from}→${to})`, 'steady of ideal', 'mean in flight at server', 'client ms per call (16/rate − 50)', 'CPU ms/case', 'failed (max)'], rows));
  console.log(`target: within 10% of the ideal ${IDEAL} cases/s (≥ ${IDEAL * 0.9})`);
}

function steady(result: EngineResult, from: number, to: number): number {
  const start = result.marks[from];
  const end = result.marks[to];
  return start === undefined || end === undefined ? NaN : (to - from) / ((end - start) / 1000);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
