// The contract every method (rgb, needle, ifrag, ragas, llm-eval) implements; see CONTRACT.md beside this file.
import type { DatasetRow, EvalCase, Score } from '../model.js';
import type { ReportCase, ReportResult } from './reportView.js';
import type { Judge } from './judging.js';
import type { Retriever } from '../retrieval/contract.js';

/** Embeddings through the run's scheduler and cache (answer relevancy needs them). */
export interface EmbeddingClient {
  /** "provider:model". */
  readonly key: string;
  embed(texts: string[], signal: AbortSignal): Promise<number[][]>;
}

export interface ScoreContext {
  /** The judge model from the eval file, when one is configured: every judge call goes through its `ask`. */
  judge?: Judge;
  /** The embeddings model from the eval file, when one is configured. */
  embeddings?: EmbeddingClient;
  signal: AbortSignal;
}

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

export interface SuiteReport {
  suiteId: string;
  method: string;
  tables: ReportTable[];
  metrics: ReportMetric[];
  notes: string[];
  /**
   * How this suite's cases were scored, in a few words, shown beside the suite's name (report and panel header), so
   * a default chosen for the reader (the needle's judge when the eval file has judge:) is never silent.
   */
  scoring?: string;
  /** Optional: charts drawn from `tables` (Needle in a Haystack's depth × length heatmap). */
  charts?: ChartSpec[];
}

/** Where a suite's params come from: the eval file, and whether it configures a judge. */
export interface ParamsWhere {
  file: string;
  judge?: boolean;
}

/**
 * A suite's report built one finished case at a time. `addCase` sees each case of the suite once (with or without
 * results); `add` each result with its case, or with undefined when its case is unknown (counted as left out).
 * The order is the log's (a case before or after its results, as the array `report` would see them).
 */
export interface SuiteAggregator {
  addCase(evalCase: ReportCase): void;
  add(evalCase: ReportCase | undefined, result: ReportResult): void;
  finish(): SuiteReport;
}

export interface SuiteBuildContext {
  suiteId: string;
  /** The run's seed; suites derive per-case seeds from it and the case id. */
  seed: number;
  /** The models under test ("provider:model"), e.g. to pick a tokenizer. */
  models: string[];
}

/**
 * What a method's row preparation may use (Suite.prepareRow): the run's judge, whose calls go through the judge step,
 * the run's scheduler and response cache (a rerun asks nothing again), and the run's signal.
 */
export interface PrepareContext extends SuiteBuildContext {
  /**
   * The run's judge. Undefined when the plan is only counted or priced (the count pass, the cost estimate, an
   * explanation's plan): nothing may be spent then, so the method returns what counting should assume.
   */
  judge?: Judge;
  /**
   * The run's retriever (rag), through the run's cache. Like `judge`, undefined when the plan is only counted or
   * priced: the method then builds what counting should assume and asks nothing.
   */
  retriever?: Retriever;
  signal: AbortSignal;
}

export interface Suite<Params = Record<string, unknown>, Prepared = unknown> {
  /** The method id used in eval files: "rgb". */
  readonly method: string;
  /**
   * Validate and default the suite's `params` from the eval file; throw InputError naming the key. `judge` says
   * whether the eval file sets judge: (undefined: not known), for a parameter that cannot work without one.
   */
  parseParams(raw: unknown, where: ParamsWhere): Params;
  /**
   * Expand one dataset row into its cases (e.g. one per noise ratio). Messages are left empty: the engine
   * renders them from the template with `variables`. Throw InputError for a row the method cannot use;
   * the engine reports it with the row's file:line and goes on with the other rows.
   */
  expandRow(row: DatasetRow, params: Params, context: SuiteBuildContext, prepared?: Prepared): EvalCase[];
  /**
   * Optional: model work a row needs before its cases can be built (stress's judge deciding which passages bear the
   * answer), run by the engine just before `expandRow`, which gets the result as `prepared`; building stays a pure
   * function of (row, prepared, params, seed). Case ids must not depend on `prepared`. Throw InputError for a row
   * that cannot be prepared (reported at its line); cancellation is rethrown, as by the judge step.
   */
  prepareRow?(row: DatasetRow, params: Params, context: PrepareContext): Promise<Prepared>;
  /**
   * For methods that build their cases from parameters rather than dataset rows (Needle in a Haystack builds
   * a grid from a haystack folder). Used when the suite entry names no dataset of its own (a top-level default
   * dataset is for the row-based suites). May throw InputError.
   */
  generateCases?(params: Params, context: SuiteBuildContext & { specFile: string }): Promise<EvalCase[]>;
  /** Score one response. Judge failures become scores with `judgeError`, never thrown away silently. */
  score(evalCase: EvalCase, responseText: string, params: Params, context: ScoreContext): Promise<Score[]>;
  /**
   * Aggregate finished results the way the method's paper reports them. Reads the slim report view (reportView.ts):
   * no prompts, documents or response text, so a run's memory does not grow with what each case held.
   */
  report(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: Params, suiteId: string): SuiteReport;
  /**
   * The same tables, built case by case (aggregator.ts): the end of a run feeds it each line of the log as it is read,
   * so it holds only what its statistics need (counts, a mean's numbers, a correlation's pairs), never the case views.
   * A method that has one makes `report` a thin wrapper over it (`reportThrough`), so the two cannot differ. Optional:
   * without it the end of a run keeps the report view of each of the suite's cases and calls `report`.
   */
  createAggregator?(params: Params, suiteId: string): SuiteAggregator;
  /** Human scores a case carries from its row, for the report's agreement table (kept in the report view). */
  humanScoresOf?(evalCase: EvalCase): Readonly<Record<string, number>> | undefined;
  /** The part of a score's `details` the report reads (RGB's answer-part labels); without it no details are kept for the report. */
  reportDetails?(score: Score): unknown;
  /** The built-in template used when the eval file names none (a path under prompts/). */
  defaultTemplate(params: Params): string;
  /** Metrics whose lower value is the better one (RAGAS noise sensitivity), so a comparison of two runs words them right. */
  readonly lowerIsBetter?: readonly string[];
}
