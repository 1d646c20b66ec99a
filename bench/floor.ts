// Benchmark: how close a latency-bound run comes to the physical floor. For 300 and 3,000 RGB cases against the fixture
// server in its own process (100 ms per call, 16 in flight): our whole `rag-inspector run` process, the floor
// (cases × latency ÷ in flight), and a bare HTTP client — a Node process that only POSTs the same number of chat
// completions with 16 in flight through fetch — as the practical floor on this machine, so the gap that is ours shows.
// With --before <dir>, the same run of another built checkout, interleaved run by run. --cpu-prof <dir>: each of our
// runs also writes a V8 CPU profile there (the profiler adds its own CPU: read the profiles, not the table, then).
// --cache: our runs with the response cache on, as a user runs by default; the cache is removed before each run
// (outside its timing), so every call is a first-time call that is sent and stored.
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { timedProcess } from './lib/timedProcess.js';
import type { Timing } from './lib/timedProcess.js';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';
import { BARE_CLIENT, FETCH_POST, HTTP_POST } from './lib/bareClient.js';

const LATENCY_MS = 100;
const IN_FLIGHT = 16;

const timed = (command: string[], cwd: string): Timing => timedProcess(command, cwd);

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 3);
  const sizes = (stringArg('cases') ?? '300,3000').split(',').map(Number);
  const before = stringArg('before');
  const profileDir = stringArg('cpu-prof');
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const cacheOn = process.argv.includes('--cache');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  for (const [, root] of trees) if (!existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error(`${root}/dist/cli.js is missing: run "npm run build" there`);

  const server = await startFixtureProcess({ latencyMs: LATENCY_MS });
  const workspaces = sizes.map((cases) => ({
    cases,
    workspace: createWorkspace({ rows: rgbRows(cases), evalYaml: () => rgbNoiseEval({ name: 'floor benchmark', model: `{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`, concurrency: IN_FLIGHT, maxRetries: 0 }) }),
  }));
  const bareFetch = path.join(workspaces[0]!.workspace.dir, 'bare-fetch.js');
  const bareHttp = path.join(workspaces[0]!.workspace.dir, 'bare-http.js');
  writeFileSync(bareFetch, BARE_CLIENT(FETCH_POST));
  writeFileSync(bareHttp, BARE_CLIENT(HTTP_POST));
  try {
    const rows: (string | number)[][] = [];
    for (const { cases, workspace } of workspaces) {
      const floorMs = (cases / IN_FLIGHT) * LATENCY_MS;
      const results = new Map<string, Timing[]>();
      const commands: [string, string[]][] = [
        ['bare client (fetch)', [process.execPath, bareFetch, server.openaiBaseUrl, String(cases), String(IN_FLIGHT)]],
        ['bare client (node:http)', [process.execPath, bareHttp, server.openaiBaseUrl, String(cases), String(IN_FLIGHT)]],
        ...trees.map(([label, root]): [string, string[]] => [`rag-inspector (${label})`, [process.execPath, ...profile, path.join(root, 'dist', 'cli.js'), 'run', workspace.evalFile, ...(cacheOn ? [] : ['--no-cache']), '--quiet']]),
      ];
      // A warm-up of each (disk cache, the server's JIT), then the repeats interleaved command by command.
      for (let repeat = -1; repeat < repeats; repeat++) {
        for (const [name, argv] of commands) {
          if (cacheOn) rmSync(path.join(workspace.dir, '.rag-inspector', 'cache'), { recursive: true, force: true });
          const timing = timed(argv, workspace.dir);
          if (repeat >= 0) results.set(name, [...(results.get(name) ?? []), timing]);
        }
      }
      for (const [name, timings] of results) {
        const wall = median(timings.map((t) => t.wallMs));
        const cpu = median(timings.map((t) => t.cpuMs));
        rows.push([cases, name, wall.toFixed(0), `${Math.min(...timings.map((t) => t.wallMs)).toFixed(0)}–${Math.max(...timings.map((t) => t.wallMs)).toFixed(0)}`, floorMs.toFixed(0), `${((floorMs / wall) * 100).toFixed(0)}%`, cpu.toFixed(0), (cpu / cases).toFixed(2)]);
      }
    }
    console.log(machineLine());
    console.log(`${repeats} repeats after a warm-up; ${LATENCY_MS} ms per call, ${IN_FLIGHT} in flight; the cache ${cacheOn ? 'on (emptied before each run)' : 'off'}; medians`);
    console.log(table(['cases', 'process', 'wall ms', 'min–max', 'floor ms', 'of floor', 'cpu ms', 'cpu ms / case'], rows));
  } finally {
    for (const { workspace } of workspaces) workspace.cleanup();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
