// Benchmark: the engine's own CPU per case on the extractive path (`model: extractive:bm25`: no HTTP, no server), as a
// whole `rag-inspector run --no-cache --quiet` process over 300, 3,000 (and with --cases, more) RGB rows, the four
// reports written. CPU per case is counted beyond the smallest run, so start-up is left out. With --before <dir>, the
// same runs of another built checkout, interleaved run by run (each tree in a workspace of its own). --cpu-prof
// <dir>: one more run of the largest size per tree writes a V8 CPU profile there, summarized by step
// (lib/cpuProfileSummary.ts).
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { formatSummary, summarizeCpuProfile } from './lib/cpuProfileSummary.js';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';
import { timedProcess } from './lib/timedProcess.js';
import type { Timing } from './lib/timedProcess.js';

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 5);
  const sizes = (stringArg('cases') ?? '300,3000').split(',').map(Number).sort((a, b) => a - b);
  const before = stringArg('before');
  const profileDir = stringArg('cpu-prof');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];

  const workspaces = sizes.map((cases) => {
    const workspace = createWorkspace({ rows: rgbRows(cases), evalYaml: () => rgbNoiseEval({ name: 'extractive cpu', model: 'extractive:bm25', concurrency: 16 }) });
    // One folder per tree, so neither reads the other's runs or state.
    const dirs = trees.map(([label]) => {
      const dir = path.join(workspace.dir, label.replace(/\W/g, '-'));
      mkdirSync(dir);
      for (const file of ['data.jsonl', 'test.eval.yaml']) cpSync(path.join(workspace.dir, file), path.join(dir, file));
      return dir;
    });
    return { cases, workspace, dirs };
  });
  const run = (root: string, dir: string, extra: string[] = []): Timing => {
    rmSync(path.join(dir, '.rag-inspector'), { recursive: true, force: true });
    return timedProcess([process.execPath, ...extra, path.join(root, 'dist', 'cli.js'), 'run', 'test.eval.yaml', '--no-cache', '--quiet'], dir);
  };
  try {
    const cpu = new Map<string, number[]>();
    const peak = new Map<string, number[]>();
    for (const { cases, dirs } of workspaces) {
      // A warm-up of each (the disk cache), then the repeats interleaved tree by tree.
      for (let repeat = -1; repeat < repeats; repeat++) {
        trees.forEach(([label, root], t) => {
          const timing = run(root, dirs[t]!);
          if (repeat < 0) return;
          cpu.set(`${label}/${cases}`, [...(cpu.get(`${label}/${cases}`) ?? []), timing.cpuMs]);
          peak.set(`${label}/${cases}`, [...(peak.get(`${label}/${cases}`) ?? []), timing.peakMiB]);
        });
      }
    }
    const smallest = sizes[0]!;
    const rows = trees.flatMap(([label]) => sizes.map((cases) => {
      const ms = cpu.get(`${label}/${cases}`)!;
      const beyond = cases === smallest ? '' : ((median(ms) - median(cpu.get(`${label}/${smallest}`)!)) / (cases - smallest)).toFixed(3);
      return [label, cases, median(ms).toFixed(0), `${Math.min(...ms).toFixed(0)}–${Math.max(...ms).toFixed(0)}`, (median(ms) / cases).toFixed(3), beyond, median(peak.get(`${label}/${cases}`)!).toFixed(0)];
    }));
    console.log(machineLine());
    console.log(`${repeats} repeats after a warm-up, interleaved; whole process (user + sys CPU of /usr/bin/time); medians`);
    console.log(table(['tree', 'cases', 'cpu ms', 'min–max', 'cpu ms / case', `cpu ms / case beyond ${smallest}`, 'peak RSS MiB'], rows));
    if (before) {
      const ratios = sizes.map((cases) => {
        const a = cpu.get(`this tree/${cases}`)!;
        const b = cpu.get(`before/${cases}`)!;
        const pairs = a.map((value, i) => value / b[i]!);
        return [cases, median(pairs).toFixed(3), `${Math.min(...pairs).toFixed(3)}–${Math.max(...pairs).toFixed(3)}`];
      });
      console.log(table(['cases', 'cpu this tree / before, pair by pair (median)', 'min–max'], ratios));
    }
    if (profileDir) {
      const largest = workspaces.at(-1)!;
      for (const [t, [label, root]] of trees.entries()) {
        const dir = path.resolve(profileDir, label.replace(/\W/g, '-'));
        rmSync(dir, { recursive: true, force: true });
        run(root, largest.dirs[t]!, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
        const [profile] = readdirSync(dir);
        console.log(`\n${label}, ${largest.cases} cases, profiled (the profiler adds its own CPU: read the shares):`);
        console.log(formatSummary(summarizeCpuProfile(path.join(dir, profile!)), 15));
      }
    }
  } finally {
    for (const { workspace } of workspaces) workspace.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
