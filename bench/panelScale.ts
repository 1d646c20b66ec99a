// Benchmark: opening a large run in the extension — the run log index (src/core/run/runLogIndex.ts, what RunStore
// uses) against reading the whole log (readRunLog, the path before it), at 10,000 and 100,000 cases. Case lines
// are copies of a real run of examples/rgb (the offline extractive baseline) with unique ids. Each measurement runs
// in its own Node process so its memory is its own. Prints the numbers (BENCHMARKS.md keeps them); asserts nothing.
// Run: npm run bench -- panelScale            (--cases 10000,100000 to choose the sizes)
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { runEvaluation } from '../src/core/engine/runEvaluation.js';
import { caseListItem } from '../src/core/report/caseItems.js';
import { readRunLog, RunLogWriter } from '../src/core/run/runLog.js';
import type { CaseLine } from '../src/core/run/runLog.js';
import { RunLogIndex, digestOf } from '../src/core/report/runLogIndex.js';
import { machineLine, mb, median, table } from './lib/report.js';
import { caseKey } from '../src/core/model.js';

const EXAMPLE = path.resolve(__dirname, '../examples/rgb/rgb-example.eval.yaml');
const LOOKUPS = 200;
/** Case lines appended to a log already indexed, as a live run or a resume does. */
const APPENDED = 1_000;

type Mode = 'index' | 'readRunLog';

interface ChildResult {
  mode: Mode;
  cases: number;
  openMs: number;
  /** After GC, minus the process's own before opening. */
  heapMb: number;
  rssMb: number;
  getRunMs: number;
  getRunJsonMb: number;
  getCaseMedianMs: number;
  getCaseMaxMs: number;
  currentResultsMs: number;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run with --expose-gc (npm run bench does)');
  collect();
  collect();
}

/** In a child process: open one log the given way, then what the panel and diagnostics ask of it. */
async function child(mode: Mode, file: string): Promise<ChildResult> {
  gc();
  const before = process.memoryUsage();
  const started = performance.now();
  const opened = mode === 'index' ? await RunLogIndex.build(file) : await readRunLog(file);
  const openMs = performance.now() - started;
  gc();
  const after = process.memoryUsage();

  // getRun: the list items the webview receives (serialised here as postMessage would).
  let t = performance.now();
  const items = opened instanceof RunLogIndex ? [...opened.entries.values()].map((e) => e.item) : opened.cases.map((l) => caseListItem(l.case, l.result));
  const json = JSON.stringify({ cases: items });
  const getRunMs = performance.now() - t;

  // getCase: first, middle, last, then random keys; each a read of one line by byte range (or a map lookup).
  const keys = opened instanceof RunLogIndex ? [...opened.entries.keys()] : opened.cases.map((l) => caseKey(l.case.id, l.result.modelKey));
  const picks = [0, Math.floor(keys.length / 2), keys.length - 1, ...Array.from({ length: LOOKUPS - 3 }, (_, i) => (i * 7_919) % keys.length)];
  const byKey = opened instanceof RunLogIndex ? undefined : new Map(opened.cases.map((l) => [caseKey(l.case.id, l.result.modelKey), l]));
  const times: number[] = [];
  for (const pick of picks) {
    t = performance.now();
    const found = opened instanceof RunLogIndex ? await opened.readEntry(keys[pick]!) : byKey!.get(keys[pick]!);
    times.push(performance.now() - t);
    if (!found) throw new Error(`case ${keys[pick]} not found`);
  }

  // latestResults: one current result per (case, model), as diagnostics and CodeLens read them.
  t = performance.now();
  const current = opened instanceof RunLogIndex ? [...opened.entries.values()].map(digestOf) : opened.cases.map((l: CaseLine) => ({ evalCase: l.case, result: l.result }));
  const currentResultsMs = performance.now() - t;
  if (current.length !== keys.length) throw new Error('lost a case');

  return {
    mode, cases: keys.length, openMs,
    heapMb: (after.heapUsed - before.heapUsed) / 1024 / 1024,
    rssMb: (after.rss - before.rss) / 1024 / 1024,
    getRunMs, getRunJsonMb: Buffer.byteLength(json) / 1024 / 1024,
    getCaseMedianMs: median(times), getCaseMaxMs: Math.max(...times),
    currentResultsMs,
  };
}

/** A log of `cases` lines, each a copy of one of the example's real case lines with the id made unique. */
async function writeLog(dir: string, templates: CaseLine[], cases: number, header: Parameters<typeof RunLogWriter.create>[1]): Promise<string> {
  const writer = await RunLogWriter.create(dir, { ...header, runId: `bench-${cases}` });
  for (let i = 0; i < cases; i += 1) {
    const template = templates[i % templates.length]!;
    const id = `${template.case.id}#${Math.floor(i / templates.length)}`;
    writer.appendCase({ case: { ...template.case, id }, result: { ...template.result, caseId: id } });
  }
  writer.close();
  return writer.file;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    process.stdout.write(JSON.stringify(await child(args[1] as Mode, args[2]!)));
    return;
  }
  const sizesArg = args[args.indexOf('--cases') + 1];
  const sizes = args.includes('--cases') && sizesArg ? sizesArg.split(',').map(Number) : [10_000, 100_000];
  const root = await mkdtemp(path.join(tmpdir(), 'rag-panel-scale-'));
  try {
    const run = await runEvaluation(EXAMPLE, { signal: new AbortController().signal, credentials: { apiKey: async () => undefined }, workspaceDir: root, noCache: true });
    const example = await readRunLog(run.logFile);
    const { type: _type, format: _format, status: _status, ...header } = example.header;
    console.log(machineLine());
    console.log(`case lines: copies of the ${example.cases.length} cases of a run of examples/rgb (${run.status})`);
    const rows: (string | number)[][] = [];
    const extensions: (string | number)[][] = [];
    for (const cases of sizes) {
      const file = await writeLog(path.join(root, 'runs'), example.cases, cases, header);
      const size = (await stat(file)).size;
      console.log(`\n${cases.toLocaleString('en')} cases: ${mb(size)} MB log (${Math.round(size / cases)} bytes per case line)`);
      for (const mode of ['readRunLog', 'index'] as const) {
        const out = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', '--max-old-space-size=8192', __filename, '--child', mode, file], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
        if (out.status !== 0) throw new Error(`${mode} at ${cases} cases failed: ${out.stderr}`);
        const r = JSON.parse(out.stdout) as ChildResult;
        rows.push([
          cases.toLocaleString('en'), mode === 'index' ? 'RunLogIndex (now)' : 'readRunLog (before)',
          Math.round(r.openMs), r.heapMb.toFixed(1), r.rssMb.toFixed(1), Math.round(r.getRunMs), r.getRunJsonMb.toFixed(1),
          r.getCaseMedianMs.toFixed(3), r.getCaseMaxMs.toFixed(2), Math.round(r.currentResultsMs),
        ]);
      }
      // A live run or a resume appends: the index reads only the new lines.
      const index = await RunLogIndex.build(file);
      const resumed = await RunLogWriter.reopen(file);
      for (let i = 0; i < APPENDED; i += 1) {
        const template = example.cases[i % example.cases.length]!;
        const id = `${template.case.id}#appended-${i}`;
        resumed.appendCase({ case: { ...template.case, id }, result: { ...template.result, caseId: id } });
      }
      resumed.close();
      const t = performance.now();
      await index.update();
      extensions.push([cases.toLocaleString('en'), APPENDED.toLocaleString('en'), Math.round(performance.now() - t), index.entries.size.toLocaleString('en')]);
      await rm(file, { force: true });
    }
    console.log(`\n${table(['cases', 'path', 'open ms', 'heap MB', 'RSS MB', 'getRun ms', 'getRun MB', 'getCase median ms', 'getCase max ms', 'current results ms'], rows)}`);
    console.log(`\n${table(['cases', 'lines appended', 'update ms', 'cases indexed after'], extensions)}`);
    console.log(`\nopen: one pass over the log; heap/RSS: growth after GC with the log open; getRun: list items + JSON as posted; getCase: ${LOOKUPS} lookups; current results: one digest (or full entry) per case`);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
