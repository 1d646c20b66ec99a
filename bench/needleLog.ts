// Benchmark: the run log of a long-context needle grid (35 × 35 cells up to 128k tokens by default) run against the
// fixture server, for this tree and, with --before <dir>, an older checkout: bytes per line type, run time, peak RSS.
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import type { NeedleLogJob, NeedleLogResult } from './lib/needleLogWorker.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { machineLine, mb, numberArg, stringArg, table } from './lib/report.js';

const WORKER = path.join(__dirname, 'lib', 'needleLogWorker.ts');

function runJob(job: NeedleLogJob): NeedleLogResult {
  const child = spawnSync(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(job)], { cwd: job.root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 * 1024 * 1024 });
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.status !== 0 || !line.startsWith('{')) throw new Error(`needle log worker for ${job.root} exited with ${child.status}: ${child.stdout.slice(-2000)}`);
  return JSON.parse(line) as NeedleLogResult;
}

async function main(): Promise<void> {
  const intervals = numberArg('intervals', 35);
  const maxTokens = numberArg('max', 128_000);
  const concurrency = numberArg('concurrency', 8);
  const before = stringArg('before');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  const server = await startFixtureProcess({ latencyMs: 0 });
  try {
    console.log(machineLine());
    console.log(`needle grid ${intervals} × ${intervals}, context lengths 1,000..${maxTokens.toLocaleString('en')} tokens, bundled haystack, fixture server (0 ms), concurrency ${concurrency}, --no-cache`);
    const rows: (string | number)[][] = [];
    for (const [label, root] of trees) {
      const r = runJob({ root, baseUrl: server.openaiBaseUrl, intervals, maxTokens, concurrency });
      const kind = (type: string) => r.lines[type] ?? { count: 0, bytes: 0 };
      rows.push([label, r.cases, r.failed, (r.runMs / 1000).toFixed(1), mb(r.peakRss), mb(r.logBytes), Math.round(kind('case').bytes / Math.max(1, kind('case').count)), `${kind('text').count} / ${mb(kind('text').bytes)}`]);
    }
    console.log(table(['tree', 'cases', 'errors', 'run s', 'peak RSS MB', 'log MB', 'bytes per case line', 'text lines / MB'], rows));
  } finally {
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
