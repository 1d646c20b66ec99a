// Benchmark: building stress cases for 10,000 user rows × 5 noise ratios (and the position testbed): CPU per case,
// and heap sampled as rows go by, which should stay flat (cases are let go as the engine lets them go).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DatasetRow } from '../src/core/model.js';
import { stressSuite } from '../src/core/suites/stress/suite.js';

const ROWS = 10_000;
const SAMPLE_EVERY = 1_000;
const dir = mkdtempSync(path.join(os.tmpdir(), 'stress-bench-'));
const file = path.join(dir, 'qa.jsonl');

/** A row like a retriever's: one passage with the answer, three without, all distinct across rows. */
function rowData(i: number): Record<string, unknown> {
  const answer = `answer-${i}`;
  return {
    id: i,
    user_input: `Question number ${i}: which token names record ${i}?`,
    reference: answer,
    retrieved_contexts: [
      `Record ${i} is named ${answer}, as the registry of record ${i} states in its first entry.`,
      `Record ${i} was filed in year ${1900 + (i % 120)} by clerk ${i % 37}.`,
      `The registry keeps ${i % 50} boxes on shelf ${i % 13} in room ${i % 7}.`,
      `Clerk ${i % 37} also filed records in room ${(i + 3) % 7}.`,
    ],
  };
}

const lines: string[] = [];
for (let i = 0; i < ROWS; i++) lines.push(JSON.stringify(rowData(i)));
writeFileSync(file, `${lines.join('\n')}\n`);

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return Number((process.memoryUsage().heapUsed / 1e6).toFixed(1));
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function measure(testbed: string, extra: Record<string, unknown> = {}) {
  const params = stressSuite.parseParams({ testbed, ...extra }, { file: path.join(dir, 'x.eval.yaml') });
  const context = { suiteId: 'bench', seed: 2333, models: [] };
  const row = (i: number): DatasetRow => ({ ref: { file, line: i + 1, index: i }, data: rowData(i) });
  // The first row reads the whole file into the distractor pool: timed apart, it is paid once per file.
  const poolStart = process.cpuUsage();
  let cases = stressSuite.expandRow(row(0), params, context).length;
  const poolMs = cpuMs(poolStart);
  const heap: number[] = [heapMb()];
  const start = process.cpuUsage();
  const wall = performance.now();
  for (let i = 1; i < ROWS; i++) {
    cases += stressSuite.expandRow(row(i), params, context).length;
    if (i % SAMPLE_EVERY === 0) heap.push(heapMb());
  }
  const ms = cpuMs(start);
  return {
    testbed,
    rows: ROWS,
    cases,
    firstRowWithPoolMs: Math.round(poolMs),
    cpuMs: Math.round(ms),
    wallMs: Math.round(performance.now() - wall),
    cpuUsPerCase: Number(((ms * 1000) / (cases - cases / ROWS)).toFixed(1)),
    heapMbEvery1000Rows: heap,
    heapGrowthMb: Number(((heap[heap.length - 1] as number) - (heap[1] as number)).toFixed(1)),
  };
}

try {
  const noise = measure('noise_robustness');
  const position = measure('position', { k: 4 });
  console.log(JSON.stringify({ bench: 'stressBuild', node: process.version, load: os.loadavg().map((l) => Number(l.toFixed(1))), noise, position }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
