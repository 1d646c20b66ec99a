// Writes a run log of N RGB noise-robustness cases (extractive model, no cache) into a folder that is kept, for benches
// that time what reads a large log (`rag-inspector report`, `rag-inspector log`) as a whole process.
// Usage: node --import tsx bench/lib/bigRunLog.ts <folder> [cases]; prints the log's path.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { rgbRows } from '../../test/unit/engine/workspace.js';
import { runEvaluation } from '../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../src/core/providers/registry.js';
import { rgbNoiseEval } from './rgbNoiseEval.js';

async function main(): Promise<void> {
  const folder = path.resolve(process.argv[2] ?? 'big-run');
  const cases = Number(process.argv[3] ?? 100_000);
  mkdirSync(folder, { recursive: true });
  const dataset = path.join(folder, 'data.jsonl');
  writeFileSync(dataset, '');
  // A slice at a time, so the rows are not all in memory at once.
  for (let from = 0; from < cases; from += 10_000) appendFileSync(dataset, rgbRows(Math.min(10_000, cases - from), from).map((row) => `${JSON.stringify(row)}\n`).join(''));
  const evalFile = path.join(folder, 'big.eval.yaml');
  writeFileSync(evalFile, rgbNoiseEval({ name: 'big run log', model: 'extractive:bm25', concurrency: 8 }));
  const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
  process.stdout.write(`${outcome.logFile}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
