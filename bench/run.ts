// Runs the benchmarks, each in its own Node process: every bench/*.ts, or the ones named (`npm run bench -- engineOverhead`).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

const BENCH_DIR = __dirname;

/** Every bench file beside this runner; helpers live in bench/lib and are not benches. */
function benchNames(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((name) => name.endsWith('.ts') && name !== 'run.ts' && !name.endsWith('.d.ts'))
    .map((name) => name.slice(0, -'.ts'.length))
    .sort();
}

function main(): number {
  const args = process.argv.slice(2);
  const firstOption = args.findIndex((arg) => arg.startsWith('--'));
  const names = firstOption < 0 ? args : args.slice(0, firstOption);
  // `npm run bench -- engineOverhead --repeats 1`: everything from the first --option on goes to each bench.
  const passThrough = firstOption < 0 ? [] : args.slice(firstOption);
  const available = benchNames();

  if (passThrough[0] === '--list') {
    process.stdout.write(`${available.join('\n')}\n`);
    return 0;
  }
  const unknown = names.filter((name) => !available.includes(name.replace(/\.ts$/, '')));
  if (unknown.length > 0) {
    process.stderr.write(`unknown bench ${unknown.map((n) => JSON.stringify(n)).join(', ')}; available: ${available.join(', ')}\n`);
    return 2;
  }
  const selected = names.length > 0 ? names.map((name) => name.replace(/\.ts$/, '')) : available;

  let failures = 0;
  for (const name of selected) {
    process.stdout.write(`\n=== ${name} ===\n`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--expose-gc', path.join(BENCH_DIR, `${name}.ts`), ...passThrough], { stdio: 'inherit' });
    if (result.status !== 0) {
      failures++;
      process.stderr.write(`${name} failed (${result.signal ?? `exit code ${result.status}`})\n`);
    }
  }
  return failures > 0 ? 1 : 0;
}

process.exitCode = main();
