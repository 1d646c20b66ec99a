// Child-process entry for bench/planMemory.ts: where a run's memory goes before its first call, step by step for
// N RGB rows — the bench's own rows, the eval file loaded, the count pass (planSuites), every case pulled and let go,
// the run's clients — as the live heap after a forced GC; prints one JSON line.
import * as path from 'node:path';
import { createWorkspace, rgbRows } from '../../test/unit/engine/workspace.js';

export interface PlanMemoryJob {
  cases: number;
}

export interface PlanMemoryStep {
  step: string;
  heapUsed: number;
  rss: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

const EVAL = `version: 1
name: plan memory
models:
  - extractive:bm25
concurrency: 8
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;

async function main(): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc');
  const job = JSON.parse(process.argv[2] ?? '{}') as PlanMemoryJob;
  const root = path.resolve(__dirname, '../..');
  const { loadEvalSpec } = await import(path.join(root, 'src/core/spec/load.ts'));
  const { planSuites, expandedCases } = await import(path.join(root, 'src/core/engine/plan.ts'));
  const { createRunClients } = await import(path.join(root, 'src/core/engine/clients.ts'));
  const { envCredentials } = await import(path.join(root, 'src/core/providers/registry.ts'));
  const steps: PlanMemoryStep[] = [];
  const measure = (step: string) => {
    gc();
    const m = process.memoryUsage();
    steps.push({ step, heapUsed: m.heapUsed, rss: m.rss });
  };
  measure('modules loaded');
  let rows: ReturnType<typeof rgbRows> | undefined = rgbRows(job.cases);
  measure('the bench\'s rows in memory (rgbRows)');
  const ws = createWorkspace({ rows, evalYaml: () => EVAL });
  rows = undefined;
  measure('dataset written, rows let go');
  try {
    const signal = new AbortController().signal;
    const spec = await loadEvalSpec(ws.evalFile);
    measure('eval file loaded');
    let counted = 0;
    const plan = await planSuites(spec, signal, () => { counted += 1; });
    measure(`count pass (planSuites): ${counted} cases`);
    let pulled = 0;
    for (const suitePlan of plan.suites) for await (const _evalCase of expandedCases(suitePlan, signal)) pulled += 1;
    measure(`every case pulled and let go: ${pulled}`);
    const clients = await createRunClients(spec, envCredentials({}), undefined);
    measure('run clients created');
    process.stdout.write(`${JSON.stringify({ cases: job.cases, steps, keep: [plan, clients].length })}\n`);
  } finally {
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`plan memory worker: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
