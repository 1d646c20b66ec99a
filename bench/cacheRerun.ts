// Benchmark: the response cache on both sides of an edit-and-rerun loop: a first run with the cache on (every call a
// miss that writes an entry) and the same run again (every call a hit), CPU and wall time per case.
import { runEvaluation } from '../src/core/engine/runEvaluation.js';
import { envCredentials } from '../src/core/providers/registry.js';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { machineLine, median, numberArg, table } from './lib/report.js';

const EVAL_YAML = `version: 1
name: cache rerun
models:
  - extractive:baseline
concurrency: 16
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;

interface Measured {
  cpuMsPerCase: number;
  wallS: number;
  cacheHits: number;
}

async function measureRun(evalFile: string): Promise<Measured> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  const used = process.cpuUsage(cpu);
  return { cpuMsPerCase: (used.user + used.system) / 1000 / outcome.totals.cases, wallS: (performance.now() - started) / 1000, cacheHits: outcome.totals.cacheHits };
}

async function main(): Promise<void> {
  const cases = numberArg('cases', 5000);
  const repeats = numberArg('repeats', 3);
  console.log(machineLine());
  console.log(`${cases} RGB cases on the offline reader (no network: the cache is most of what differs), concurrency 16, ${repeats} repeats, each in a fresh workspace`);
  const first: Measured[] = [];
  const rerun: Measured[] = [];
  for (let r = 0; r < repeats; r++) {
    const workspace = createWorkspace({ rows: rgbRows(cases), evalYaml: () => EVAL_YAML });
    try {
      first.push(await measureRun(workspace.evalFile));
      rerun.push(await measureRun(workspace.evalFile));
    } finally {
      workspace.cleanup();
    }
  }
  const row = (label: string, runs: Measured[]) => [
    label,
    median(runs.map((m) => m.cpuMsPerCase)).toFixed(3),
    median(runs.map((m) => m.wallS)).toFixed(2),
    String(Math.min(...runs.map((m) => m.cacheHits))),
  ];
  console.log(table(['run', 'CPU ms/case (median)', 'wall s', 'cache hits (min)'], [row('first run: every call a miss', first), row('rerun: every call a hit', rerun)]));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
