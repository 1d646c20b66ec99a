// Benchmark: what a large run spends after its last case — the tables, the summary and the four reports — as a user
// meets it: `rag-inspector run` of N RGB cases (extractive:bm25, no network, --no-cache) as a whole process, timed from
// the start to its "progress: N/N" line (the last case) and from there to its exit. With --before <dir>, another built
// checkout, interleaved run by run. --cpu-prof <dir>: each run also writes a V8 CPU profile there.
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';

interface PhaseTiming {
  runMs: number;
  afterMs: number;
  cpuMs: number;
}

/** One run of `cli` in `dir`: the time to its last case's progress line, then to its exit; CPU from /usr/bin/time. */
function timeRun(cli: string, evalFile: string, out: string, cases: number, profileDir: string | undefined): Promise<PhaseTiming> {
  const node = [process.execPath, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), cli];
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-f', 'cpu %U %S', ...node, 'run', evalFile, '--no-cache', '--out', out], { cwd: path.dirname(evalFile), stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, CI: '1' } });
    let lastCase = NaN;
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      if (Number.isNaN(lastCase) && stderr.includes(`progress: ${cases}/${cases} `)) lastCase = performance.now();
      if (stderr.length > 100_000) stderr = stderr.slice(-50_000);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const ended = performance.now();
      const cpu = /cpu ([\d.]+) ([\d.]+)/.exec(stderr);
      if (code !== 0 || !cpu || Number.isNaN(lastCase)) return reject(new Error(`run exited with ${code}: ${stderr.slice(-2000)}`));
      resolve({ runMs: lastCase - started, afterMs: ended - lastCase, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000 });
    });
  });
}

async function main(): Promise<void> {
  const cases = numberArg('cases', 100_000);
  const repeats = numberArg('repeats', 1);
  const before = stringArg('before');
  const profiles = stringArg('cpu-prof');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  for (const [, root] of trees) if (!existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error(`${root}/dist/cli.js is missing: run "node esbuild.mjs" there`);
  const ws = createWorkspace({ rows: [], evalYaml: () => rgbNoiseEval({ name: 'report phase benchmark', model: 'extractive:bm25', concurrency: 8 }) });
  writeFileSync(ws.datasetFile, '');
  for (let from = 0; from < cases; from += 10_000) appendFileSync(ws.datasetFile, rgbRows(Math.min(10_000, cases - from), from).map((row) => `${JSON.stringify(row)}\n`).join(''));
  try {
    const results = new Map<string, PhaseTiming[]>();
    for (let repeat = 0; repeat < repeats; repeat++) {
      for (const [label, root] of trees) {
        const profileDir = profiles ? path.resolve(profiles, `${label.replace(/\W+/g, '-')}-${repeat}`) : undefined;
        if (profileDir) mkdirSync(profileDir, { recursive: true });
        const out = path.join(ws.dir, `reports-${repeat}`);
        const timing = await timeRun(path.join(root, 'dist', 'cli.js'), ws.evalFile, out, cases, profileDir);
        rmSync(out, { recursive: true, force: true });
        rmSync(path.join(ws.dir, '.rag-inspector'), { recursive: true, force: true });
        results.set(label, [...(results.get(label) ?? []), timing]);
        console.log(`${label}: run ${(timing.runMs / 1000).toFixed(1)} s, after the last case ${(timing.afterMs / 1000).toFixed(1)} s, CPU ${(timing.cpuMs / 1000).toFixed(1)} s`);
      }
    }
    console.log(machineLine());
    console.log(`${cases} RGB cases, extractive:bm25, --no-cache, concurrency 8, reports json,csv,junit,html; ${repeats} repeat(s), medians`);
    console.log(table(['tree', 'to the last case s', 'after it s', 'after / to the last case', 'whole process s', 'CPU s'], [...results].map(([label, t]) => {
      const run = median(t.map((x) => x.runMs));
      const after = median(t.map((x) => x.afterMs));
      return [label, (run / 1000).toFixed(1), (after / 1000).toFixed(1), `${((after / run) * 100).toFixed(0)}%`, (median(t.map((x) => x.runMs + x.afterMs)) / 1000).toFixed(1), (median(t.map((x) => x.cpuMs)) / 1000).toFixed(1)];
    })));
  } finally {
    ws.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
