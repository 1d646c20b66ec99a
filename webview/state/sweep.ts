// The sweep page's state, pure: the embedded sweep checked, the heatmap of one measure over two chosen settings (the
// other settings held at chosen values), and a cell's per-question ranks.
import type { HeatmapChartSpec } from '../../src/core/reportTable.js';
import type { SweepAxis } from '../../src/core/corpus/sweep/grid.js';
import type { SweepCellResult, SweepReport } from '../../src/core/corpus/sweep/runSweep.js';
import { SWEEP_METRIC_WORDS, SWEEP_METRICS } from '../../src/core/retrieval/indexSpec.js';
import type { SweepMetric } from '../../src/core/retrieval/indexSpec.js';
import type { HeatCell, HeatmapModel } from './heatmap.js';
import { colourAt } from './heatmap.js';

export { SWEEP_METRIC_WORDS, SWEEP_METRICS };
export type { SweepAxis, SweepCellResult, SweepMetric, SweepReport };

/** The needle heatmap's palette (red → amber → green). */
const COLORS = ['#F0496E', '#EBB839', '#0CD79F'];

type Value = number | boolean | string;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The embedded data's sweep, or what is wrong with it (in words; the page says so instead of drawing half). */
export function readSweep(json: string): SweepReport | string {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (error) {
    return `the embedded sweep is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (!isObject(data) || data.version !== 1) return `the embedded sweep is version ${isObject(data) ? String(data.version) : '?'}; this viewer reads version 1`;
  const sweep = data.sweep;
  if (!isObject(sweep)) return 'the embedded data has no sweep';
  if (!Array.isArray(sweep.cells) || !Array.isArray(sweep.axes) || !Array.isArray(sweep.questions)) return 'the embedded sweep has no cells, axes or questions';
  if (!(SWEEP_METRICS as readonly unknown[]).includes(sweep.metric)) return `the embedded sweep's metric ${String(sweep.metric)} is not one of ${SWEEP_METRICS.join(', ')}`;
  for (const [i, cell] of (sweep.cells as unknown[]).entries()) {
    if (!isObject(cell) || typeof cell.key !== 'string' || !isObject(cell.settings) || !isObject(cell.metrics) || !Array.isArray(cell.ranks)) return `cell ${i} of the embedded sweep is malformed`;
  }
  return sweep as unknown as SweepReport;
}

/** The axes the sweep varies, with their values, in the grid's order. */
export function sweepAxes(report: SweepReport): { axis: SweepAxis; values: Value[] }[] {
  return report.axes.map(({ axis, values }) => ({ axis, values }));
}

/** The axes a heatmap starts with: k across when it is swept, else the axis with the most values; down, the next largest. */
export function defaultAxes(report: SweepReport): { x: SweepAxis; y: SweepAxis | undefined } {
  const bySize = [...sweepAxes(report)].sort((a, b) => b.values.length - a.values.length).map((a) => a.axis);
  const x = bySize.includes('k') ? 'k' : bySize[0] ?? 'k';
  return { x, y: bySize.find((axis) => axis !== x) };
}

/** Where the other axes are held: the best cell's values, so the heatmap starts on the slice that holds it. */
export function defaultFixed(report: SweepReport): Partial<Record<SweepAxis, Value>> {
  const best = report.cells.find((cell) => cell.best) ?? report.cells[0];
  const fixed: Partial<Record<SweepAxis, Value>> = {};
  for (const { axis } of report.axes) if (best?.settings[axis] !== undefined) fixed[axis] = best.settings[axis] as Value;
  return fixed;
}

/** The grid cell at the given values (cells added for the current setting outside the grid are never on a heatmap). */
function cellAt(report: SweepReport, values: Partial<Record<SweepAxis, Value>>): SweepCellResult | undefined {
  const axes = report.axes.map((a) => a.axis);
  return report.cells.find((cell) => axes.every((axis) => cell.settings[axis] === values[axis]));
}

/**
 * The colour scale: from the lowest to the highest mean of `metric` over every cell of the sweep (not only the slice
 * shown, so the colours of two slices compare), since a sweep's cells often differ by a few hundredths; 0 to 1 when
 * they are all equal.
 */
export function colourRange(report: SweepReport, metric: SweepMetric): { min: number; max: number } {
  const values = report.cells.map((cell) => cell.metrics[metric].value).filter((v): v is number => typeof v === 'number');
  const min = Math.min(...values);
  const max = Math.max(...values);
  return values.length > 0 && max > min ? { min, max } : { min: 0, max: 1 };
}

/** The heatmap of `metric` over `y` (rows) × `x` (columns), the other axes at `fixed`; one row when there is no y. */
export function sweepHeatmap(report: SweepReport, x: SweepAxis, y: SweepAxis | undefined, metric: SweepMetric, fixed: Partial<Record<SweepAxis, Value>>): HeatmapModel {
  const xValues = report.axes.find((a) => a.axis === x)?.values ?? [];
  const yValues = y ? report.axes.find((a) => a.axis === y)?.values ?? [] : [''];
  const { min, max } = colourRange(report, metric);
  const spec: HeatmapChartSpec = {
    kind: 'heatmap', tableId: 'sweep', title: `${SWEEP_METRIC_WORDS[metric]} by ${y ? `${y} × ` : ''}${x}`,
    xTitle: x, yTitle: y ?? '', colors: COLORS, min, max,
  };
  let noData = 0;
  const cells = yValues.map((yValue, row) => xValues.map((xValue, col): HeatCell => {
    const cell = cellAt(report, { ...fixed, [x]: xValue, ...(y ? { [y]: yValue } : {}) });
    const measured = cell?.metrics[metric];
    const value = typeof measured?.value === 'number' ? measured.value : null;
    if (value === null) noData++;
    return {
      row, col, rowLabel: String(yValue), colLabel: String(xValue), value, n: measured?.n ?? 0, undetermined: 0,
      ...(typeof measured?.low === 'number' && typeof measured.high === 'number' ? { low: measured.low, high: measured.high } : {}),
      fill: value === null ? undefined : colourAt(value, min, max, COLORS),
      keys: cell ? [cell.key] : [],
    };
  }));
  return { id: `sweep\u0000${x}\u0000${y ?? ''}\u0000${metric}`, spec, suiteId: report.suite, modelKey: undefined, rows: yValues.map(String), columns: xValues.map(String), cells, noData, undetermined: 0 };
}

/** A cell's questions with their first relevant rank within its k (null: none in the top k) and the measure's value. */
export function cellQuestions(report: SweepReport, cell: SweepCellResult): { id: string; question: string; rank: number | null; value: number | null }[] {
  return report.questions.map((q, i) => ({ id: q.id, question: q.question, rank: cell.ranks[i] ?? null, value: cell.values[i] ?? null }));
}
