// `rag-inspector compare <run-a> <run-b>`: whether the change between two runs of the same cases helped, with the
// paired verdict per suite, model and metric (core/report/pairedComparison.ts), and `run --baseline` for a CI gate.
import { parseArgs } from 'node:util';
import { comparePaired, OUTCOME_METRIC } from '../core/report/pairedComparison.js';
import type { PairedComparison, PairedRow } from '../core/report/pairedComparison.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import type { ReportTable } from '../core/suites/contract.js';
import { levelOf, UsageError } from './args.js';
import { commandHelp } from './commandHelp.js';
import { formatTable } from './summaryText.js';
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

function changeText(row: PairedRow): string {
  if (row.difference === null) return '—';
  const scale = row.kind === 'verdict' ? 100 : 1;
  const digits = row.kind === 'verdict' ? 1 : 3;
  const number = (x: number) => `${x * scale >= 0 ? '+' : ''}${(x * scale).toFixed(digits)}`;
  const interval = row.low !== null && row.high !== null ? ` [${number(row.low)}, ${number(row.high)}]` : '';
  return `${number(row.difference)}${row.kind === 'verdict' ? ' pts' : ''}${interval}`;
}

/** The comparison as aligned text: one table per suite and model, then the unpaired cases. */
export function formatComparison(comparison: PairedComparison): string {
  const groups = new Map<string, PairedRow[]>();
  for (const row of comparison.rows) {
    const key = `${row.suiteId} — ${row.modelKey}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  const confidence = `${Math.round((1 - comparison.level) * 100)}%`;
  const parts = [...groups].map(([title, rows]) => {
    const table: ReportTable = {
      id: title,
      title,
      columns: ['n', 'fixed', 'broken', 'same', `change [${confidence}]`, 'p', 'verdict'],
      rows: rows.map((row) => ({
        label: row.metric + (row.lowerIsBetter ? ' (lower is better)' : ''),
        cells: [
          String(row.n) + (row.undetermined ? ` (+${row.undetermined} undetermined)` : ''),
          String(row.fixed),
          String(row.broken),
          String(row.unchanged),
          changeText(row),
          row.pValue === undefined ? '—' : row.pValue < 0.001 ? '<0.001' : row.pValue.toFixed(3),
          row.sentence,
        ].map((value) => ({ value })),
      })),
    };
    return formatTable(table);
  });
  const notes = [
    `Verdicts are paired: the exact McNemar test on the cases that changed, the exact interval for the change in pass rate that agrees with it; continuous scores: a paired bootstrap interval of the mean change. p-values are per metric (not corrected for the ${comparison.rows.length} rows); level ${comparison.level}.`,
  ];
  const unpaired = (label: string, keys: string[]) => (keys.length ? [`${keys.length} case run(s) only in ${label}, not paired: ${keys.slice(0, 10).join(', ')}${keys.length > 10 ? ', …' : ''}`] : []);
  return [...parts, ...notes, ...unpaired('the earlier run', comparison.onlyBefore), ...unpaired('the later run', comparison.onlyAfter)].join('\n\n');
}
