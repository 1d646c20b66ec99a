// The line and bar charts a suite report asks for (SuiteReport.charts), read from their tables: the chart kind decides
// how a table is drawn, whichever method wrote it. A spec whose table is missing, or has nothing to draw, is skipped.
import type { BarChartSpec, LineChartSpec, ReportTable, SuiteReport } from '../../src/core/suites/contract.js';
import type { FailureCause } from '../../src/core/retrieval/contract.js';
import type { ChartData, ChartSeries } from './chartSeries.js';
import { chartPoint, parseAxisLabel } from './chartSeries.js';
import { isFailureCause } from './retrieval.js';

export interface LineChartModel { kind: 'line'; suiteId: string; spec: LineChartSpec; data: ChartData }

export interface Bar {
  label: string;
  value: number | null;
  low?: number;
  high?: number;
  n?: number;
  /** With a cause filter: the cause this bar opens (its row label), when the label is one. */
  cause?: FailureCause;
}

export interface BarChartModel { kind: 'bar'; suiteId: string; spec: BarChartSpec; column: string; bars: Bar[]; max: number }

export type ReportChartModel = LineChartModel | BarChartModel;

/** Every line and bar chart of the reports, in report order. */
export function reportChartsOf(report: SuiteReport): ReportChartModel[] {
  return (report.charts ?? []).flatMap((spec): ReportChartModel[] => {
    if (spec.kind !== 'line' && spec.kind !== 'bar') return [];
    const table = report.tables.find((t) => t.id === spec.tableId);
    if (!table) return [];
    const model = spec.kind === 'line' ? lineModel(report.suiteId, spec, table) : barModel(report.suiteId, spec, table);
    return model ? [model] : [];
  });
}

/** Series are the table's rows, x values its columns (numeric labels: "1", "k=5", "10"); a non-numeric column is left out. */
export function lineModel(suiteId: string, spec: LineChartSpec, table: ReportTable): LineChartModel | undefined {
  const axis = table.columns.flatMap((label, index) => {
    const parsed = parseAxisLabel(label);
    return parsed ? [{ index, x: parsed.value }] : [];
  });
  const series: ChartSeries[] = table.rows.flatMap((row) => {
    const points = axis.flatMap(({ index, x }) => chartPoint(x, row.cells[index]));
    return points.length ? [{ name: row.label, points }] : [];
  });
  if (series.length === 0) return undefined;
  const data: ChartData = { xLabel: spec.xTitle, yLabel: spec.yTitle, series, bands: true };
  if (spec.min !== undefined) data.yMin = spec.min;
  if (spec.max !== undefined) data.yMax = spec.max;
  return { kind: 'line', suiteId, spec, data };
}

/** One bar per row, its value in the spec's column; the axis reaches 1 for shares, else the largest value or whisker. */
export function barModel(suiteId: string, spec: BarChartSpec, table: ReportTable): BarChartModel | undefined {
  const index = spec.column ?? 0;
  const column = table.columns[index];
  if (column === undefined || table.rows.length === 0) return undefined;
  const bars = table.rows.map((row): Bar => {
    const cell = row.cells[index];
    const value = numeric(cell?.value);
    const bar: Bar = { label: row.label, value };
    if (value !== null && numeric(cell?.low) !== null && numeric(cell?.high) !== null) { bar.low = cell!.low!; bar.high = cell!.high!; }
    if (numeric(cell?.n) !== null) bar.n = cell!.n!;
    if (spec.filter?.field === 'cause' && isFailureCause(row.label)) bar.cause = row.label;
    return bar;
  });
  const tops = bars.flatMap((b) => [b.value ?? 0, b.high ?? 0]);
  const max = tops.every((v) => v <= 1) ? 1 : Math.max(...tops);
  return { kind: 'bar', suiteId, spec, column, bars, max };
}

function numeric(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}
