// Recognises a distribution table (rows are bins such as "[0, 1)", one column per model, cells are counts) for the histogram.
import type { ReportTable } from '../../src/core/suites/contract.js';

export interface HistogramBin { label: string; low: number; high: number }
export interface HistogramSeries { name: string; counts: number[]; n: number; undetermined: number }
export interface Histogram { bins: HistogramBin[]; series: HistogramSeries[]; maxCount: number }

const BIN = /^\s*[[(]\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*[\])]\s*$/;

/** A histogram when every row label is an interval and every cell a count; otherwise undefined (the table stays a table). */
export function histogramFromTable(table: ReportTable): Histogram | undefined {
  if (table.rows.length < 2 || table.columns.length === 0) return undefined;
  const bins: HistogramBin[] = [];
  for (const row of table.rows) {
    const match = BIN.exec(row.label);
    if (!match) return undefined;
    bins.push({ label: row.label, low: Number(match[1]), high: Number(match[2]) });
  }
  const series: HistogramSeries[] = [];
  for (const [c, name] of table.columns.entries()) {
    const counts: number[] = [];
    let n = 0;
    let undetermined = 0;
    for (const row of table.rows) {
      const cell = row.cells[c];
      const value = cell?.value;
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) return undefined;
      counts.push(value);
      n = typeof cell?.n === 'number' ? cell.n : n;
      undetermined = typeof cell?.undetermined === 'number' ? cell.undetermined : undetermined;
    }
    series.push({ name, counts, n: n || counts.reduce((a, b) => a + b, 0), undetermined });
  }
  return { bins, series, maxCount: Math.max(1, ...series.flatMap((s) => s.counts)) };
}
