// Finds a numeric series in a report table (e.g. accuracy by noise ratio, one row per model) for the line chart.
import type { ReportTable } from '../../src/core/suites/contract.js';

export interface ChartPoint { x: number; y: number; low?: number; high?: number }
export interface ChartSeries { name: string; points: ChartPoint[] }
export interface ChartData {
  xLabel: string;
  series: ChartSeries[];
  /** The y axis title and range, when a chart spec gives them (otherwise 0–1 for shares, else the data's range). */
  yLabel?: string;
  yMin?: number;
  yMax?: number;
  /** Draw intervals as shaded bands along each line instead of whiskers at each point. */
  bands?: boolean;
}

/**
 * A label counts as an x value only when it is a number, optionally after one word and "=" / ":" / space, with a
 * "%" or "k" suffix and a note in parentheses ("0.4", "noise=0.4", "40%", "8k", "1 (first)"). Stricter than
 * "contains a digit", so model names such as "gpt-4o" never become an axis.
 */
const NUMERIC_LABEL = /^\s*(?:([\p{L}_][\p{L}\p{N}_ .-]*?)\s*[=: ]\s*)?(-?\d+(?:\.\d+)?)\s*(%|k|K)?\s*(?:\([^()]*\))?\s*$/u;

export function parseAxisLabel(label: string): { word?: string; value: number } | undefined {
  const match = NUMERIC_LABEL.exec(label);
  if (!match) return undefined;
  let value = Number(match[2]);
  if (match[3] === '%') value /= 100;
  if (match[3] === 'k' || match[3] === 'K') value *= 1000;
  return match[1] ? { word: match[1], value } : { value };
}

/** Columns as x (series per row) when at least two column labels are numeric; otherwise rows as x. */
export function chartFromTable(table: ReportTable): ChartData | undefined {
  const byColumns = fromColumns(table);
  if (byColumns) return byColumns;
  return fromRows(table);
}

function fromColumns(table: ReportTable): ChartData | undefined {
  const axis = table.columns.map((c, i) => ({ index: i, parsed: parseAxisLabel(c) })).filter((c) => c.parsed);
  if (axis.length < 2) return undefined;
  const series: ChartSeries[] = [];
  for (const row of table.rows) {
    const points = axis.flatMap(({ index, parsed }) => chartPoint(parsed!.value, row.cells[index]));
    if (points.length >= 2) series.push({ name: row.label, points });
  }
  if (series.length === 0) return undefined;
  return { xLabel: axis[0]!.parsed!.word ?? '', series };
}

function fromRows(table: ReportTable): ChartData | undefined {
  const axis = table.rows.map((r) => ({ row: r, parsed: parseAxisLabel(r.label) })).filter((r) => r.parsed);
  if (axis.length < 2) return undefined;
  const series: ChartSeries[] = [];
  table.columns.forEach((column, index) => {
    const points = axis.flatMap(({ row, parsed }) => chartPoint(parsed!.value, row.cells[index]));
    if (points.length >= 2) series.push({ name: column, points });
  });
  if (series.length === 0) return undefined;
  return { xLabel: axis[0]!.parsed!.word ?? '', series };
}

/** A cell as a point, with its interval when it has one; nothing for a cell without a number. */
export function chartPoint(x: number, cell: ReportTable['rows'][number]['cells'][number] | undefined): ChartPoint[] {
  if (!cell || typeof cell.value !== 'number' || !Number.isFinite(cell.value)) return [];
  const p: ChartPoint = { x, y: cell.value };
  if (typeof cell.low === 'number' && typeof cell.high === 'number') { p.low = cell.low; p.high = cell.high; }
  return [p];
}
