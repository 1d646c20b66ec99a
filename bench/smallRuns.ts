// Benchmark: the fixed cost of a small run, as a user meets it — whole `rag-inspector run` processes of the built CLI
// (dist/cli.js): Node alone, the CLI loading (--help), a one-case run (extractive, no network), and 300 cases against
// the fixture server at 100 ms latency with 16 in flight (floor: 300 / 16 × 100 ms = 1.875 s). With --before <dir>, the
// same commands of another built checkout, interleaved run by run so both see the same machine load.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { createWorkspace, rgbRows } from '../test/unit/engine/workspace.js';
import { startFixtureProcess } from './lib/fixtureProcess.js';
import { timedProcess } from './lib/timedProcess.js';
import type { Timing } from './lib/timedProcess.js';
import { machineLine, median, numberArg, stringArg, table } from './lib/report.js';
import { rgbNoiseEval } from './lib/rgbNoiseEval.js';

/** A run may exit 1 (failed cases): still a finished run. */
const timed = (command: string[], cwd: string): Timing => timedProcess(command, cwd, [0, 1]);

const evalYaml = (model: string, concurrency: number) => rgbNoiseEval({ name: 'small run benchmark', model, concurrency, maxRetries: 0 });

async function main(): Promise<void> {
  const repeats = numberArg('repeats', 5);
  const before = stringArg('before');
  const trees: [string, string][] = [...(before ? [['before', path.resolve(before)] as [string, string]] : []), ['this tree', path.resolve(__dirname, '..')]];
  for (const [, root] of trees) if (!existsSync(path.join(root, 'dist', 'cli.js'))) throw new Error(`${root}/dist/cli.js is missing: run "npm run build" there`);

  const server = await startFixtureProcess({ latencyMs: 100 });
  const one = createWorkspace({ rows: rgbRows(1), evalYaml: () => evalYaml('extractive:bm25', 1) });
  const many = createWorkspace({ rows: rgbRows(300), evalYaml: () => evalYaml(`{ provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }`, 16) });
  try {
    const commands: [string, (root: string) => [string[], string]][] = [
      ['node -e 0', () => [[process.execPath, '-e', '0'], one.dir]],
      ['cli --help', (root) => [[process.execPath, path.join(root, 'dist', 'cli.js'), '--help'], one.dir]],
      ['1 case (extractive)', (root) => [[process.execPath, path.join(root, 'dist', 'cli.js'), 'run', one.evalFile, '--no-cache', '--quiet'], one.dir]],
      ['300 cases, 100 ms, 16 in flight', (root) => [[process.execPath, path.join(root, 'dist', 'cli.js'), 'run', many.evalFile, '--no-cache', '--quiet'], many.dir]],
    ];
    const results = new Map<string, Timing[]>();
    // A warm-up of each (disk cache, server connections), then repeats interleaved tree by tree.
    for (let repeat = -1; repeat < repeats; repeat++) {
      for (const [name, command] of commands) {
        for (const [label, root] of trees) {
          const [argv, cwd] = command(root);
          const timing = timed(argv, cwd);
          if (repeat < 0) continue;
          const key = `${name}\u0000${label}`;
          results.set(key, [...(results.get(key) ?? []), timing]);
        }
      }
    }
    console.log(machineLine());
    console.log(`${repeats} repeats after a warm-up, trees interleaved; medians (min–max)`);
    const range = (values: number[]) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
    console.log(table(['command', 'tree', 'wall ms', 'cpu ms'], [...results].map(([key, timings]) => {
      const [name, label] = key.split('\u0000');
      return [name ?? '', label ?? '', range(timings.map((t) => t.wallMs)), range(timings.map((t) => t.cpuMs))];
    })));
  } finally {
    one.cleanup();
    many.cleanup();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
