// `rag-inspector compare <run-a> <run-b>`: whether the change between two runs of the same cases helped, with the
// paired verdict per suite, model and metric (core/report/pairedComparison.ts), and `run --baseline` for a CI gate.
import { parseArgs } from 'node:util';
import { comparePaired, OUTCOME_METRIC } from '../core/report/pairedComparison.js';
import type { PairedComparison } from '../core/report/pairedComparison.js';
import { formatComparison } from '../core/report/comparisonText.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import { levelOf, UsageError } from './args.js';
import { commandHelp } from './commandHelp.js';
import { print } from './terminal.js';

/** Runs `compare`; `resolveRun` turns a run argument into a log file as --resume does. Returns the exit code. */
export async function runCompare(argv: string[], resolveRun: (value: string) => Promise<string>): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options: { level: { type: 'string' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } });
  } catch (error) {
    print(process.stderr, `rag-inspector compare: ${(error as Error).message}\n(rag-inspector compare --help shows the options)\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    print(process.stdout, `${commandHelp('compare')}\n`);
    return 0;
  }
  const [first, second, ...rest] = positionals;
  if (!first || !second || rest.length > 0) {
    print(process.stderr, 'rag-inspector compare: needs two runs, the earlier first: rag-inspector compare <run-a> <run-b>\n(rag-inspector compare --help shows the options)\n');
    return 2;
  }
  let level: number;
  try {
    level = levelOf(values.level);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    print(process.stderr, `rag-inspector compare: ${error.message}\n`);
    return 2;
  }
  const [beforeLog, afterLog] = [await resolveRun(first), await resolveRun(second)];
  const comparison = await comparePaired(await runDataFromLog(beforeLog), await runDataFromLog(afterLog), { level });
  print(process.stdout, values.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${formatComparison(comparison)}\n`);
  return 0;
}

/** True when a case verdict got significantly worse for some suite and model: what `--fail-on regression` gates on. */
export function hasRegression(comparison: PairedComparison): boolean {
  return comparison.rows.some((row) => row.metric === OUTCOME_METRIC && row.verdict === 'worse');
}

