// Benchmark: where a run's memory goes before its first call, step by step, for N RGB rows (`--cases`, 100,000 by
// default): the bench's own rows, the eval file loaded, the count pass (planSuites), every case pulled and let go, the
// run's clients — each as the live heap after a forced GC. Run at two sizes, a step that holds something per case shows
// as growth between them (the 1M scale run's ~0.6 KB per planned case was the bench's rows, not the plan).
import * as path from 'node:path';
import { expandedCases, planSuites } from '../src/core/engine/plan.js';
import { createRunClients } from '../src/core/engine/clients.js';
import { envCredentials } from '../src/core/providers/registry.js';
import { loadEvalSpec } from '../src/core/spec/load.js';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';
import { machineLine, mb, numberArg, table } from './lib/report.js';

const gc = (globalThis as { gc?: () => void }).gc;

interface Step {
  step: string;
  heapUsed: number;
  rss: number;
}

/** The rows built and written in a function of their own: nothing of them is left in main's frame. */
function rowsInMemory(cases: number, measure: (step: string) => void): ReturnType<typeof createWorkspace> {
  const rows = rgbRows(cases);
  measure('the bench\'s rows in memory (rgbRows)');
  return createWorkspace({ rows, evalYaml: () => rgbNoiseEval({ name: 'plan memory', model: 'extractive:bm25', concurrency: 8 }) });
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc (npm run bench -- planMemory)');
  const cases = numberArg('cases', 100_000);
  const steps: Step[] = [];
  const measure = (step: string) => {
    gc();
    const m = process.memoryUsage();
    steps.push({ step, heapUsed: m.heapUsed, rss: m.rss });
  };
  measure('modules loaded');
  const ws = rowsInMemory(cases, measure);
  measure('dataset written, rows let go');
  try {
    const signal = new AbortController().signal;
    const spec = await loadEvalSpec(ws.evalFile);
    measure('eval file loaded');
    let counted = 0;
    const plan = await planSuites(spec, signal, () => { counted += 1; });
    measure(`count pass (planSuites), ${counted} cases`);
    let pulled = 0;
    for (const suitePlan of plan.suites) for await (const _evalCase of expandedCases(suitePlan, signal)) pulled += 1;
    measure(`every case pulled and let go, ${pulled}`);
    const clients = await createRunClients(spec, envCredentials({}), undefined);
    measure(`run clients created (${clients.models.length} model)`);
  } finally {
    ws.cleanup();
  }
  console.log(machineLine());
  console.log(`${cases} RGB rows (noise 0, one case each), ${path.basename(ws.datasetFile)}; live heap after a forced GC at each step:`);
  console.log(table(['step', 'heap MB', 'RSS MB'], steps.map((s) => [s.step, mb(s.heapUsed), mb(s.rss)])));
}

main().catch((error: unknown) => {
  process.stderr.write(`planMemory: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
