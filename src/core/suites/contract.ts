// The contract every method implements; see CONTRACT.md beside this file.
import type { DatasetRow, EvalCase, Score } from '../model.js';
import type { ReportCase, ReportResult } from './reportView.js';
import type { Judge } from './judging.js';
import type { Retriever } from '../retrieval/contract.js';
import type { RowLabels } from '../retrieval/qrels.js';
import type { ParamsSchema } from './paramSchema.js';

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

// The report's shapes live at the base (reportTable.ts) so the retrieval layer below the methods can build tables too.
import type { ChartSpec, ReportMetric, ReportTable } from '../reportTable.js';
export type { BarChartSpec, ChartSpec, HeatmapChartSpec, LineChartSpec, ReportCell, ReportMetric, ReportTable } from '../reportTable.js';

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

/** The editor's words on one key of a method's params (a JSON Schema fragment in the eval file's schema). */
export interface ParamDoc {
  type?: 'integer' | 'number' | 'string' | 'boolean' | 'array';
  minimum?: number;
  items?: { type: 'integer' | 'number' | 'string'; minimum?: number };
  enum?: readonly string[];
  default?: string | number | boolean | readonly number[];
  description: string;
}

/** A method's one required choice in Run Evaluation (Suite.quickRunChoice). */
export interface QuickRunChoice {
  /** The params key the choice sets ("testbed"). */
  param: string;
  /** Said in the picker: "Which RGB testbed?". */
  question: string;
  choices: readonly { label: string; description?: string }[];
}

export interface Suite<Params = Record<string, unknown>, Prepared = unknown> {
  /** The method id used in eval files: "rgb". */
  readonly method: string;
  /** What the method is, in a few words, shown beside its id in the eval file's hover docs: "RGB benchmark". */
  readonly summary?: string;
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
  /**
   * How Explain cuts this method's case into sources (explain/sources.ts): `documents` (default) one source per
   * document; `haystack` the first document's filler in segments with each needle span a source of its own;
   * `context` the `context` variable's lines or paragraphs.
   */
  readonly explainSources?: 'documents' | 'haystack' | 'context';
  /**
   * Keys of `params` that name a file, a folder or a glob pattern the method reads (Needle's `haystack`), so the
   * workspace containment check (spec/containment.ts) covers them as it covers datasets and templates.
   */
  readonly fileParams?: readonly string[];
  /**
   * The one choice Run Evaluation (quick run) asks for this method before it can run without an eval file (RGB's
   * testbed): the param it sets and its choices. Without it the method must run on `parseParams({})` or is refused
   * with the reason.
   */
  readonly quickRunChoice?: QuickRunChoice;
  /**
   * For a method whose rows are retrieval questions (rag): what a retrieval sweep (corpus/sweep/) measures — the
   * cut-off k the params set (the sweep's current setting) and each row's question with its relevance labels (source
   * spans first, which survive a change of chunking; undefined when the row names none). A bad row throws InputError.
   */
  readonly retrievalQuestions?: {
    k(params: Params): number;
    read(row: DatasetRow, params: Params): { question: string; labels?: RowLabels };
  };
  /**
   * For a method that runs generated test questions (rag, stress): the row's question text. With it, a questions
   * file's review (`questions.review.jsonl`, corpus/questions/review.ts) applies: a row a person dropped in review is
   * left out of the run and the suite's report says how many; an edited question's review is stale and not applied.
   * A row it cannot read throws (the row is then read as usual and reported by expandRow).
   */
  readonly reviewedQuestion?: (row: DatasetRow, params: Params) => string;
  /**
   * The params as declared once (paramSchema.ts): `parseParams` reads them through it and the editor's JSON schema is
   * written from it (spec/methodParamsSchema.ts), descriptions and defaults included.
   */
  readonly paramsSchema?: ParamsSchema;
  /**
   * For a method without `paramsSchema`: the editor's documentation of params keys whose default depends on something else in the eval file (the
   * needle's scoring on judge:), written into the eval file's JSON schema (spec/methodParamsSchema.ts). Describes
   * only: parseParams still checks every key.
   */
  readonly paramDocs?: Readonly<Record<string, ParamDoc>>;
  /**
   * Optional: whether Run Evaluation on a dataset proposes this method first, given the dataset's first row; the
   * words shown beside the method when it does (stress on a file with RAGAS's columns), undefined when not.
   */
  proposeFor?(firstRow: Readonly<Record<string, unknown>>): string | undefined;
  /** Metrics whose lower value is the better one (RAGAS noise sensitivity), so a comparison of two runs words them right. */
  readonly lowerIsBetter?: readonly string[];
}
