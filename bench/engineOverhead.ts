// Benchmark: the engine's own CPU and memory per case on 10,000 cases, against the fixture server at 0 ms latency and the offline extractive reader.
import { runEngineJob } from './lib/engineJob.js';
import type { EngineJob, EngineResult } from './lib/engineJob.js';
import { machineLine, mb, median, numberArg, table } from './lib/report.js';

interface Config {
  label: string;
  job: EngineJob;
  /** The bare-provider config this one is compared with, for "engine overhead". */
  baseline?: string;
}

async function main(): Promise<void> {
  const cases = numberArg('cases', 10_000);
  const repeats = numberArg('repeats', 3);
  const early = Math.min(2000, cases);
  const common = { cases, warmupCases: 500, concurrency: 16, heapAt: [early, cases], server: { latencyMs: 0 } };
  const configs: Config[] = [
    { label: 'extractive: reader alone', job: { ...common, mode: 'bare-provider', provider: 'extractive' } },
    { label: 'extractive: engine --no-cache', job: { ...common, mode: 'engine', provider: 'extractive', noCache: true }, baseline: 'extractive: reader alone' },
    { label: 'extractive: engine, cache on', job: { ...common, mode: 'engine', provider: 'extractive' }, baseline: 'extractive: reader alone' },
    { label: 'openai SDK: SDK loop alone', job: { ...common, mode: 'bare-provider', provider: 'openai-compatible' } },
    { label: 'openai SDK: engine --no-cache', job: { ...common, mode: 'engine', provider: 'openai-compatible', noCache: true }, baseline: 'openai SDK: SDK loop alone' },
    { label: 'openai SDK: engine, cache on', job: { ...common, mode: 'engine', provider: 'openai-compatible' }, baseline: 'openai SDK: SDK loop alone' },
  ];

  console.log(machineLine());
  console.log(`${cases} cases (RGB noise robustness, 1 model), concurrency 16, fixture server at 0 ms in a child process, ${repeats} repeats, each run in a fresh process after a 500-case warm-up`);
  const runs = new Map<string, EngineResult[]>(configs.map((c) => [c.label, []]));
  // Interleaved, so a burst of load from other work on the machine hits every config alike.
  for (let r = 1; r <= repeats; r++) {
    for (const config of configs) {
      const result = await runEngineJob(config.job);
      runs.get(config.label)!.push(result);
      console.log(`repeat ${r} ${config.label}: ${fmt(result.cpuMs / result.cases, 3)} ms CPU/case, ${fmt(result.wallMs / 1000, 2)} s wall, failed ${result.failed}`);
    }
  }

  const med = (label: string, of: (r: EngineResult) => number) => median(runs.get(label)!.map(of));
  const perCase = (r: EngineResult) => r.cpuMs / r.cases;
  const rows = configs.map((c) => {
    const overhead = c.baseline ? med(c.label, perCase) - med(c.baseline, perCase) : undefined;
    const heapEarly = med(c.label, (r) => r.heapAt[early] ?? NaN);
    const heapLate = med(c.label, (r) => r.heapAt[cases] ?? NaN);
    return [
      c.label,
      fmt(med(c.label, perCase), 3),
      fmt(med(c.label, (r) => r.systemCpuMs / r.cases), 3),
      overhead === undefined ? '—' : fmt(overhead, 3),
      fmt(med(c.label, (r) => r.wallMs / 1000), 2),
      fmt(med(c.label, (r) => r.cases / (r.wallMs / 1000)), 0),
      c.job.mode === 'engine' ? mb(heapEarly) : '—',
      c.job.mode === 'engine' ? mb(heapLate) : '—',
      c.job.mode === 'engine' ? fmt((heapLate - heapEarly) / (cases - early) / 1024, 2) : '—',
      mb(med(c.label, (r) => r.peakHeapUsed)),
      mb(med(c.label, (r) => r.peakRss)),
      String(Math.max(...runs.get(c.label)!.map((r) => r.failed))),
    ];
  });
  console.log(`\nmedian of ${repeats}:`);
  console.log(table(['config', 'CPU ms/case', 'of which sys', 'engine overhead ms/case', 'wall s', 'cases/s', `heap@${early} MB`, `heap@${cases} MB`, 'heap growth KB/case', 'peak heap MB', 'peak RSS MB', 'failed (max)'], rows));
  const sdkServer = med('openai SDK: engine --no-cache', (r) => (r.server?.cpuMsDuringRun ?? NaN) / r.cases);
  console.log(`fixture server CPU (not counted above): ${fmt(sdkServer, 3)} ms/request`);
  console.log('engine overhead = the engine run\'s CPU/case minus the same provider called alone on the same prompts (medians); heap is live heap after a forced GC (GC CPU excluded).');
  console.log('target: engine overhead under 0.5 ms CPU per case; heap flat from 2k to 10k cases');
}

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
