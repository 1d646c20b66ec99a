// A paired comparison (pairedComparison.ts) as aligned plain text: one table per suite and model with the fixed and
// broken counts, the change with its interval, the p-value and the verdict, then the unpaired cases. The terminal's
// `rag-inspector compare` and an agent's compare_runs print the same text.
import type { ReportTable } from '../suites/contract.js';
import type { PairedComparison, PairedRow } from './pairedComparison.js';
import { formatTable } from './summaryText.js';

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
