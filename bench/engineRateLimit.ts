// Benchmark: against a server that answers 429 above N requests per minute, how much of the allowed rate the engine achieves, and whether any case fails.
import { runEngineJob } from './lib/engineJob.js';
import type { EngineJob, EngineResult } from './lib/engineJob.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const LATENCY_MS = 50;
const CONCURRENCY = 16;
const WINDOW_MS = 60_000;

/**
 * The earliest a perfect client could finish: `concurrency` calls of `latencyMs` at once, and the fixture
 * server's sliding window (call k may start once call k−N is a full minute old; it never sends a 429).
 */
export function idealFinishMs(cases: number, perMinute: number, concurrency: number, latencyMs: number): number {
  const slotsFreeAt = new Array<number>(concurrency).fill(0);
  const admittedAt: number[] = [];
  let finish = 0;
  for (let k = 0; k < cases; k++) {
    const slot = slotsFreeAt.indexOf(Math.min(...slotsFreeAt));
    const start = Math.max(slotsFreeAt[slot]!, k >= perMinute ? admittedAt[k - perMinute]! + WINDOW_MS : 0);
    admittedAt.push(start);
    slotsFreeAt[slot] = start + latencyMs;
    finish = Math.max(finish, start + latencyMs);
  }
  return finish;
}

async function main(): Promise<void> {
  const rpm = numberArg('rpm', 600);
  const cases = numberArg('cases', Math.round(rpm * 2.5));
  const repeats = numberArg('repeats', 3);
  const common = { mode: 'engine' as const, provider: 'openai-compatible' as const, cases, warmupCases: 0, concurrency: CONCURRENCY, markAt: [rpm, cases] };
  const configs: { label: string; job: EngineJob }[] = [
    { label: 'server sends exact Retry-After', job: { ...common, server: { latencyMs: LATENCY_MS, rateLimit: { requestsPerMinute: rpm } } } },
    {
      label: 'same + eval file rateLimit at the same rpm',
      job: { ...common, server: { latencyMs: LATENCY_MS, rateLimit: { requestsPerMinute: rpm } }, evalTop: `rateLimit: { requestsPerMinute: ${rpm} }` },
    },
    { label: 'server sends Retry-After: 1 (too short)', job: { ...common, server: { latencyMs: LATENCY_MS, rateLimit: { requestsPerMinute: rpm, retryAfterSeconds: 1 } } } },
  ];
  const ideal = idealFinishMs(cases, rpm, CONCURRENCY, LATENCY_MS);

  console.log(machineLine());
  console.log(`${cases} cases, concurrency ${CONCURRENCY}, fixture server (child process) at ${LATENCY_MS} ms latency allowing ${rpm} requests per sliding minute, 429 above it; engine defaults otherwise (maxRetries 4, base backoff 500 ms); ${repeats} repeats`);
  console.log(`ideal finish (perfect client, no 429): ${(ideal / 1000).toFixed(1)} s, i.e. ${((cases / ideal) * WINDOW_MS).toFixed(0)} cases per minute`);
  const runs = new Map<string, EngineResult[]>(configs.map((c) => [c.label, []]));
  for (let r = 1; r <= repeats; r++) {
    for (const config of configs) {
      const result = await runEngineJob(config.job);
      runs.get(config.label)!.push(result);
      console.log(`repeat ${r} ${config.label}: ${(result.wallMs / 1000).toFixed(1)} s, ${result.failed} failed, ${result.server?.byStatus['429'] ?? 0} × 429, ${result.modelCalls} calls`);
    }
  }

  const rows = configs.map((c) => {
    const list = runs.get(c.label)!;
    const wall = median(list.map((r) => r.wallMs));
    return [
      c.label,
      (wall / 1000).toFixed(1),
      median(list.map((r) => (r.cases / r.wallMs) * WINDOW_MS)).toFixed(0),
      `${((ideal / wall) * 100).toFixed(1)}%`,
      median(list.map((r) => r.failed)).toFixed(0),
      String(Math.max(...list.map((r) => r.failed))),
      median(list.map((r) => r.server?.byStatus['429'] ?? 0)).toFixed(0),
      median(list.map((r) => r.modelCalls)).toFixed(0),
    ];
  });
  console.log(`\nmedian of ${repeats}:`);
  console.log(table(['config', 'wall s', 'cases/min', 'share of achievable (ideal/wall)', 'failed', 'failed (max)', '429s', 'model calls'], rows));
  console.log(`cases/min above ${rpm} is possible: the window starts empty, so the first minute's ${rpm} calls go at once.`);
  console.log('target: zero failed cases and a high share of the allowed rate');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
