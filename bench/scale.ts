// Benchmark: 100,000 cases in one run — live heap and run log size as cases finish, then the reports — for this tree
// and, with --before <dir>, an older checkout of the engine (git worktree of the commit before streaming).
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { ScaleJob, ScaleResult } from './lib/scaleWorker.js';
import { machineLine, mb, numberArg, stringArg, table } from './lib/report.js';

const WORKER = path.join(__dirname, 'lib', 'scaleWorker.ts');

/** One run in a fresh process (its own heap, nothing left from the other tree's run). */
function runJob(job: ScaleJob): ScaleResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', WORKER, JSON.stringify(job)], { cwd: job.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`scale worker for ${job.root} exited with ${child.status}: ${child.stdout.slice(-2000)}`);
  return JSON.parse(line) as ScaleResult;
}

function main(): void {
  const cases = numberArg('cases', 100_000);
  const concurrency = numberArg('concurrency', 8);
  const before = stringArg('before');
  const checkpoints = [0.1, 0.25, 0.5, 0.75, 1].map((f) => Math.round(cases * f));
  const formats = (stringArg('formats') ?? 'json,csv,junit,html').split(',');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];

  console.log(machineLine());
  console.log(`${cases} cases (RGB noise robustness, extractive:bm25, --no-cache), concurrency ${concurrency}, reports: ${formats.join(', ')}; each tree in a fresh process`);
  const results: [string, ScaleResult][] = [];
  for (const [label, root] of trees) {
    const result = runJob({ root, cases, concurrency, checkpoints, formats });
    results.push([label, result]);
    console.log(`${label} (${root}): ${result.cases} cases in ${(result.runMs / 1000).toFixed(1)} s, ${result.failed} failed`);
  }

  console.log('\nLive heap after a forced GC, and the run log\'s size, as cases finish:');
  console.log(table(['tree', ...checkpoints.map((c) => `heap@${c} MB`), `growth ${checkpoints[0]}→${cases} B/case`, ...checkpoints.map((c) => `log@${c} MB`)], results.map(([label, r]) => {
    const first = r.checkpoints[0];
    const last = r.checkpoints[r.checkpoints.length - 1];
    const growth = first && last ? (last.heapUsed - first.heapUsed) / (last.done - first.done) : NaN;
    return [label, ...checkpoints.map((c) => mb(r.checkpoints.find((p) => p.done === c)?.heapUsed ?? NaN)), growth.toFixed(0), ...checkpoints.map((c) => mb(r.checkpoints.find((p) => p.done === c)?.logBytes ?? NaN))];
  })));

  console.log('\nThe run and the reports:');
  console.log(table(['tree', 'run s', 'cases/s', 'peak RSS MB (to last case)', 'peak heap MB (run)', 'peak RSS MB (run)', 'tables s', 'peak heap MB (tables)', 'peak RSS MB (tables)', 'heap after run MB', 'reports s', 'peak heap MB (reports)', 'peak RSS MB (reports)', 'log MB', 'report files MB'], results.map(([label, r]) => [
    label,
    (r.runMs / 1000).toFixed(1),
    (r.cases / (r.runMs / 1000)).toFixed(0),
    mb(r.casesPeakRss),
    mb(r.runPeakHeap),
    mb(r.runPeakRss),
    (r.tables.ms / 1000).toFixed(1),
    mb(r.tables.peakHeap),
    mb(r.tables.peakRss),
    mb(r.heapAfterRun),
    r.reports.error ? `failed: ${r.reports.error.slice(0, 80)}` : (r.reports.ms / 1000).toFixed(1),
    mb(r.reports.peakHeap),
    mb(r.reports.peakRss),
    mb(r.logBytes),
    Object.entries(r.reports.files).map(([name, bytes]) => `${name} ${mb(bytes)}`).join(', '),
  ])));
  console.log('"flat": the live heap at the last checkpoint within a few MB of the first; peaks include garbage between GCs.');
}

main();
