// The shapes of a report's numbers (tables, cells, named metrics, charts): plain JSON shared by the methods, the
// retrieval metrics (a layer below the methods) and every report writer, so they live at the base.

/** One table of a report, shaped like the paper's (rows × columns), each cell with an optional interval. */
export interface ReportCell {
  value: number | string | null;
  /** 95% interval for proportions/means, when meaningful. */
  low?: number;
  high?: number;
  /** Denominator for proportions ("3/20"). */
  n?: number;
  /** Cases that could not be scored (NaN kept apart from 0). */
  undetermined?: number;
  /**
   * Judge answers that matched neither verdict of the prompt: counted in the value as the reference counts them
   * (its rule is one substring), and shown beside it so a weak judge's garbage is not a silent 0.
   */
  unmatched?: number;
}

export interface ReportTable {
  id: string;
  title: string;
  columns: string[];
  rows: { label: string; cells: ReportCell[] }[];
  notes?: string[];
}

/** A named number per model, which eval-file thresholds test ("accuracy", "rej_star"…). */
export interface ReportMetric {
  suiteId: string;
  modelKey: string;
  name: string;
  value: number | null;
  n: number;
  /** Results left out of `n` as undetermined (judge errors, NaN); filled in for a metric named as a score is (samplesReport.ts). */
  undetermined?: number;
}

/**
 * A chart the UI may draw from one of the report's tables; the table stays the source of the numbers, so a reader
 * that ignores charts loses nothing.
 */
export type ChartSpec = HeatmapChartSpec | LineChartSpec | BarChartSpec;

/** Heatmap: rows are the y axis, columns the x axis, each cell's value its colour. */
export interface HeatmapChartSpec {
  kind: 'heatmap';
  /** ReportTable.id of the table holding the data. */
  tableId: string;
  title: string;
  xTitle: string;
  yTitle: string;
  /** Colour stops from `min` to `max` (the method's reference palette). */
  colors: string[];
  min: number;
  max: number;
}

/**
 * Lines: each row of the table is a series (its label the legend), each column an x value (the column names, e.g.
 * "1", "3", "10" for retrieval metrics by k); a cell's interval is drawn as a band when it has one.
 */
export interface LineChartSpec {
  kind: 'line';
  tableId: string;
  title: string;
  xTitle: string;
  yTitle: string;
  min?: number;
  max?: number;
}

/**
 * Bars: each row of the table is a bar (its label on the axis), its value in column `column` (default 0) with the
 * cell's interval as a whisker. With `filter`, a bar opens the run's cases whose list item has that value in that
 * field (the failure split: `cause`, each row label a cause).
 */
export interface BarChartSpec {
  kind: 'bar';
  tableId: string;
  title: string;
  xTitle: string;
  column?: number;
  filter?: { field: 'cause' };
}
