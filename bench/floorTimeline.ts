// Benchmark: where a 300-case latency-bound run's fixed cost goes, on a timeline (`floor` gives the totals). Each run
// of `rag-inspector run` (RGB at 100 ms a call, 16 in flight, against the fixture server in its own process, the cache
// on and emptied before each run) has a preloaded script note the first HTTP request and the end of the last answer
// (lib/timelinePreload.cjs): the time to the first request (start-up, the eval file, the count pass, the first call
// built), the time from there to the last answer (the calls, and whatever the run does between them), and the time
// after it (the last cases' feeding, the tables, the summary, the reports' end, exit), each with the CPU spent. With
// --before <dir>, the same runs of another built checkout, interleaved run by run. The bare node:http client of
// `floor` (lib/bareClient.ts) is timed the same way, as what this machine needs at the least.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';
import { BARE_CLIENT, HTTP_POST } from './lib/bareClient.js';
import { timedProcess } from './lib/timedProcess.js';

const LATENCY_MS = 100;
const IN_FLIGHT = 16;
const PRELOAD = path.join(__dirname, 'lib', 'timelinePreload.cjs');

interface Marks {
  firstRequestMs: number;
  firstRequestCpuMs: number;
  lastAnswerMs: number;
  lastAnswerCpuMs: number;
  exitMs: number;
  exitCpuMs: number;
}

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 5);
  const cases = numberArg('cases', 300);
  const before = stringArg('before');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  for (const [, root] of trees) if (!existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error(`${root}/dist/cli.js is missing: run "npm run build" there`);

  const server = await startFixtureProcess({ latencyMs: LATENCY_MS });
  const workspace = createWorkspace({ rows: rgbRows(cases), evalYaml: () => rgbNoiseEval({ name: 'floor timeline', model: `{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`, concurrency: IN_FLIGHT, maxRetries: 0 }) });
  const marksFile = path.join(workspace.dir, 'timeline.jsonl');
  const bareClient = path.join(workspace.dir, 'bare-http.js');
  writeFileSync(bareClient, BARE_CLIENT(HTTP_POST));
  const commands: [string, string[]][] = [
    ['bare node:http client', [bareClient, server.openaiBaseUrl, String(cases), String(IN_FLIGHT)]],
    ...trees.map(([label, root]): [string, string[]] => [label, [path.join(root, 'dist', 'cli.js'), 'run', workspace.evalFile, '--quiet']]),
  ];
  try {
    const runs = new Map<string, (Marks & { wallMs: number })[]>();
    for (let repeat = -1; repeat < repeats; repeat++) {
      for (const [label, argv] of commands) {
        rmSync(path.join(workspace.dir, '.rag-inspector', 'cache'), { recursive: true, force: true });
        rmSync(marksFile, { force: true });
        const timing = timedProcess([process.execPath, '--require', PRELOAD, ...argv], workspace.dir, [0], { TIMELINE_OUT: marksFile });
        const marks = JSON.parse(readFileSync(marksFile, 'utf8')) as Marks;
        if (repeat >= 0) runs.set(label, [...(runs.get(label) ?? []), { ...marks, wallMs: timing.wallMs }]);
      }
    }
    const rows = [...runs].map(([label, all]) => {
      const at = (pick: (m: Marks & { wallMs: number }) => number) => {
        const values = all.map(pick);
        return `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
      };
      return [
        label,
        at((m) => m.wallMs),
        at((m) => m.firstRequestMs),
        at((m) => m.lastAnswerMs - m.firstRequestMs),
        at((m) => m.exitMs - m.lastAnswerMs),
        at((m) => m.firstRequestCpuMs),
        at((m) => m.lastAnswerCpuMs - m.firstRequestCpuMs),
        at((m) => m.exitCpuMs - m.lastAnswerCpuMs),
      ];
    });
    console.log(machineLine());
    console.log(`${cases} cases, ${LATENCY_MS} ms per call, ${IN_FLIGHT} in flight, the cache on; ${repeats} runs after a warm-up, interleaved; medians (min–max), ms`);
    console.log(table(['tree', 'wall', 'to first request', 'first request → last answer', 'after last answer', 'CPU to first request', 'CPU between', 'CPU after'], rows));
  } finally {
    workspace.cleanup();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
