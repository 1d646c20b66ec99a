// Turns an eval spec into its cases: suites prepared and rows checked up front, prompts rendered as the run pulls each case.
import { stat } from 'node:fs/promises';
import { InputError, InputErrors } from '../errors.js';
import type { DatasetRow, EvalCase, InputProblem } from '../model.js';
import { readDataset } from '../data/readDataset.js';
import type { DatasetItem } from '../data/readDataset.js';
import { mapOrdered } from '../pool.js';
import { checkVariables, loadTemplate, missingVariables, renderTemplateSync } from '../prompt/template.js';
import type { PromptTemplate } from '../prompt/template.js';
import type { EvalSpec, SuiteSpec } from '../spec/types.js';
import type { Suite, SuiteBuildContext } from '../suites/contract.js';
import type { Judge } from '../suites/judging.js';
import type { Retriever } from '../retrieval/contract.js';
import { knownMethods, suiteFor } from '../suites/registry.js';
import { parseHumanLabel } from '../suites/humanLabels.js';
import { rowKey } from '../data/rowIds.js';
import { droppedInReview, readAppliedReview } from '../corpus/questions/appliedReview.js';
import type { AppliedReview } from '../corpus/questions/appliedReview.js';

export interface SuitePlan {
  spec: SuiteSpec;
  suite: Suite<unknown>;
  params: unknown;
  template: PromptTemplate;
  templateFile: string;
  /** The dataset the cases came from; undefined for generator suites. */
  dataset: string | undefined;
  /** A generator suite's cases (not rendered): its grid is small in count and built once. */
  generated?: EvalCase[];
  context: SuiteBuildContext;
  /**
   * The dataset lines whose problem was reported (keyed by line), so the run pass, which reads the rows again,
   * reports only a row the count pass could not judge; bad rows only, so it stays small.
   */
  reportedRows: Set<number | string>;
  /** The questions file's review, for a method that runs reviewed questions (Suite.reviewedQuestion) when it has one. */
  review?: AppliedReview;
  /**
   * The cases the count pass built, as it yielded them, when the plan is small (KEEP_COUNTED): the passes after it
   * (the pre-run check's cache scan, the run) take them instead of reading and expanding the rows again.
   */
  counted?: EvalCase[];
}

/** The suites ready to produce cases lazily; the count pass has read every row once and reported its problems. */
export interface LazyPlan {
  suites: SuitePlan[];
  problems: InputProblem[];
  /** Every input file with a role, for the run header's hashes. */
  inputs: { kind: 'template' | 'dataset'; file: string }[];
}

/** Every case rendered in memory: for the cost estimate of a small run, not for running one. */
export interface Plan extends LazyPlan {
  suites: (SuitePlan & { cases: EvalCase[] })[];
}

/** The same missing-variable mistake on every row would bury the other messages; report this many per suite. */
const MAX_PROBLEMS_PER_KIND = 20;

/**
 * A small plan's rows are read and expanded once: the count pass keeps the cases it built (up to `cases` in the whole
 * plan, of datasets up to `datasetBytes` each, so what is kept stays a few MB) and the run takes them; it cost a
 * 300-case run ~20 ms of CPU to expand its rows again (BENCHMARKS.md, "The 300-case run's fixed cost"). A larger plan
 * reads its rows again one at a time, so a 100,000-case run never holds its cases; and a method that prepares its rows
 * (Suite.prepareRow) expands them again in the run, with the judge and the retriever the count pass did not have.
 */
const KEEP_COUNTED = { cases: 1_000, datasetBytes: 1_000_000 };

/**
 * Loads each suite's params and template and reads its dataset once to report bad rows and rows missing a template
 * variable (with file:line) before the run starts; no prompt is rendered. Cases come later from `expandedCases`, one
 * row at a time; `onCase` sees the ones that will be rendered.
 */
export async function planSuites(spec: EvalSpec, signal: AbortSignal, onCase?: (suitePlan: SuitePlan, evalCase: EvalCase) => void): Promise<LazyPlan> {
  const models = spec.models.map((m) => `${m.provider}:${m.model}`);
  const plan: LazyPlan = { suites: [], problems: [], inputs: [] };
  let keptCases = 0;
  for (const suiteSpec of spec.suites) {
    if (signal.aborted) break;
    const suitePlan = await prepareSuite(spec, suiteSpec, models);
    const reporter = problemReporter(plan.problems, suiteSpec.id);
    let items = 0;
    let kept = await mayKeepCounted(suitePlan) ? [] as EvalCase[] : undefined;
    for await (const evalCase of expandedCases(suitePlan, signal, { reporter, onItem: () => { items += 1; } })) {
      if (kept && keptCases + kept.length < KEEP_COUNTED.cases) kept.push(evalCase);
      else kept = undefined;
      const missing = variablesProblem(suitePlan, evalCase);
      if (missing) reporter.add('render', missing);
      else onCase?.(suitePlan, evalCase);
    }
    // Not when cancelled part way: the cases kept would be only some.
    if (kept && !signal.aborted) {
      suitePlan.counted = kept;
      keptCases += kept.length;
    }
    // Otherwise an empty (or blank) dataset runs nothing and passes, and CI stays green on a file cut to nothing.
    if (suitePlan.dataset && items === 0) reporter.add('row', new InputError({ file: suitePlan.dataset, line: 1 }, 'the dataset has no rows', 'add rows (one JSON object per line in JSONL, a header and rows in CSV, a list in YAML) or point the suite at another dataset'));
    reporter.flush();
    plan.suites.push(suitePlan);
    plan.inputs.push({ kind: 'template', file: suitePlan.templateFile });
    if (suitePlan.dataset) plan.inputs.push({ kind: 'dataset', file: suitePlan.dataset });
  }
  return plan;
}

/**
 * Every case rendered, one at a time and then let go (the extension's cost estimate reads each prompt once); rows and
 * cases that cannot be built are left out, as a run leaves them out.
 */
export async function* renderedCases(spec: EvalSpec, signal: AbortSignal): AsyncGenerator<EvalCase> {
  const lazy = await planSuites(spec, signal);
  for (const suitePlan of lazy.suites) {
    for await (const evalCase of expandedCases(suitePlan, signal)) {
      const rendered = await renderCase(suitePlan, evalCase);
      if (!(rendered instanceof InputError)) yield rendered;
    }
  }
}

/** The whole plan rendered up front: for tests and small tools only; a run uses planSuites and renders as it goes. */
export async function buildPlan(spec: EvalSpec, signal: AbortSignal): Promise<Plan> {
  const lazy = await planSuites(spec, signal);
  const suites: Plan['suites'] = [];
  for (const suitePlan of lazy.suites) {
    const reporter = problemReporter(lazy.problems, suitePlan.spec.id);
    const cases: EvalCase[] = [];
    for await (const evalCase of expandedCases(suitePlan, signal)) {
      const rendered = await renderCase(suitePlan, evalCase);
      if (rendered instanceof InputError) reporter.add('render', rendered);
      else cases.push(rendered);
    }
    reporter.flush();
    suites.push({ ...suitePlan, cases });
  }
  return { ...lazy, suites };
}

async function prepareSuite(spec: EvalSpec, suiteSpec: SuiteSpec, models: string[]): Promise<SuitePlan> {
  const suite = suiteFor(suiteSpec.method);
  if (!suite) {
    throw new InputError({ file: spec.file }, `suite '${suiteSpec.id}' uses unknown method '${suiteSpec.method}'`, `use one of: ${knownMethods().join(', ')}`);
  }
  const params = suite.parseParams(suiteSpec.params, { file: spec.file, judge: spec.judge !== undefined });
  const templateFile = suiteSpec.template ?? suite.defaultTemplate(params);
  const template = await loadTemplate(templateFile);
  const context = { suiteId: suiteSpec.id, seed: spec.seed, models };
  // Generator suites (NIAH) build their own cases; a top-level default dataset is meant for the others.
  const dataset = suite.generateCases && suiteSpec.datasetFromDefault ? undefined : suiteSpec.dataset;
  if (dataset) {
    const review = suite.reviewedQuestion ? await readAppliedReview(dataset) : undefined;
    return { spec: suiteSpec, suite, params, template, templateFile, dataset, context, reportedRows: new Set(), ...(review ? { review } : {}) };
  }
  if (!suite.generateCases) {
    throw new InputError({ file: spec.file }, `suite '${suiteSpec.id}' has no dataset`, "add 'dataset: <file>' to the suite or at the top level");
  }
  const generated = await suite.generateCases(params, { ...context, specFile: spec.file });
  return { spec: suiteSpec, suite, params, template, templateFile, dataset: undefined, context, reportedRows: new Set(), generated: suiteSpec.limit === undefined ? generated : generated.slice(0, suiteSpec.limit) };
}

/** What expanding a suite's rows may use besides the rows. */
export interface ExpandOptions {
  /**
   * Row problems go here, each row's once per plan: the count pass reports what it finds, and the run pass only what
   * the count pass could not know (a row the judge's preparation rejects).
   */
  reporter?: ProblemReporter;
  /** Called for every dataset item, usable or not (the count pass notices an empty dataset). */
  onItem?: () => void;
  /**
   * The run pass: rows of a method with Suite.prepareRow are prepared with the run's judge and retriever (either may
   * be absent) as the run pulls them. Only the run pass sets it: the count pass, the cost estimate and an
   * explanation's plan spend nothing, and the method assumes instead.
   */
  prepare?: { judge?: Judge; retriever?: Retriever };
  /** The cases the count pass counted for a row its preparation then rejected: they will not run. */
  onDropped?: (cases: EvalCase[]) => void;
  /**
   * With `prepare`: whether a case is to run (resume, rerun one case). A row none of whose cases is wanted is not
   * prepared at all, so a rerun of one case asks the judge or the retriever about one row.
   */
  wanted?: (caseId: string) => boolean;
  /** With `prepare`: how many rows are prepared at once (1 when unset). */
  prepareAhead?: number;
}

/**
 * The suite's cases, not rendered, one dataset row at a time (never the whole dataset in memory). A method with
 * `prepareRow` has each row prepared first as the run pulls its cases, `prepareAhead` rows at once (their judge calls
 * overlap, and in batch mode go out together), the cases still in row order; a row that cannot be prepared is
 * reported like one that cannot be expanded. Cancellation is rethrown: nothing of a row being prepared runs, so
 * --resume builds it again.
 */
export async function* expandedCases(suitePlan: SuitePlan, signal: AbortSignal, options: ExpandOptions = {}): AsyncGenerator<EvalCase> {
  if (!suitePlan.dataset) {
    for (const evalCase of suitePlan.generated ?? []) yield evalCase;
    return;
  }
  // What the count pass built and reported: the same cases, in the same order, with no problem left to tell.
  if (suitePlan.counted) {
    yield* suitePlan.counted;
    return;
  }
  const report = (line: number | undefined, error: InputError) => {
    const key = line ?? error.message;
    if (suitePlan.reportedRows.has(key)) return;
    suitePlan.reportedRows.add(key);
    options.reporter?.add('row', error);
  };
  // Two rows with one id: both still run (the later under a name of its own), and each of the two lines is told.
  const reportKeyProblems = (item: DatasetItem) => {
    if (!item.ok || !item.problems) return;
    for (const error of item.problems) {
      const key = `${error.position.line ?? ''} ${error.message}`;
      if (suitePlan.reportedRows.has(key)) continue;
      suitePlan.reportedRows.add(key);
      options.reporter?.add('row id', error);
    }
  };
  const preparing = options.prepare !== undefined && suitePlan.suite.prepareRow !== undefined;
  const width = preparing ? options.prepareAhead ?? 1 : 1;
  for await (const built of mapOrdered(usableRows(suitePlan, signal, options.onItem, reportKeyProblems), width, (item) => buildRow(suitePlan, item, signal, options))) {
    if (built.kind === 'skipped') continue;
    if (built.kind === 'problem') {
      report(built.line, built.error);
      if (built.counted) options.onDropped?.(built.counted);
      continue;
    }
    const { row, cases } = built;
    const column = suitePlan.spec.humanLabels;
    if (column !== undefined) {
      const label = parseHumanLabel(row.data[column]);
      if (label instanceof Error) report(row.ref.line, new InputError({ file: row.ref.file, line: row.ref.line }, `${column}: ${label.message}`, 'fix the cell or leave it empty (no label)'));
      else if (label !== undefined) for (const evalCase of cases) evalCase.humanLabel = label;
    }
    yield* cases;
  }
}

/** Whether the count pass may keep a suite's cases for the run (KEEP_COUNTED): a dataset of plain rows, and small. */
async function mayKeepCounted(suitePlan: SuitePlan): Promise<boolean> {
  if (!suitePlan.dataset || suitePlan.suite.prepareRow) return false;
  const size = await stat(suitePlan.dataset).then((info) => info.size, () => undefined);
  return size !== undefined && size <= KEEP_COUNTED.datasetBytes;
}

/** Whether a person dropped this row in review (a drop on an edited question is stale: counted, not applied). */
function droppedRow(suitePlan: SuitePlan, row: DatasetRow): boolean {
  const { review, suite } = suitePlan;
  if (!review || !suite.reviewedQuestion) return false;
  let question: string;
  try {
    question = suite.reviewedQuestion(row, suitePlan.params);
  } catch {
    return false;
  }
  return droppedInReview(review, rowKey(row), question, row.ref.line);
}

/** The dataset's items up to the suite's `limit` of good rows; `onItem` sees every item read, `onUsed` every one yielded. */
async function* usableRows(suitePlan: SuitePlan, signal: AbortSignal, onItem?: () => void, onUsed?: (item: DatasetItem) => void): AsyncGenerator<DatasetItem> {
  const limit = suitePlan.spec.limit;
  let rows = 0;
  for await (const item of readDataset(suitePlan.dataset as string, { signal })) {
    onItem?.();
    if (item.ok && droppedRow(suitePlan, item.row)) continue;
    if (item.ok) {
      if (limit !== undefined && rows >= limit) return;
      rows += 1;
    }
    onUsed?.(item);
    yield item;
  }
}

type BuiltRow =
  | { kind: 'cases'; row: DatasetRow; cases: EvalCase[] }
  | { kind: 'problem'; line: number | undefined; error: InputError; counted?: EvalCase[] }
  | { kind: 'skipped' };

/** One dataset item to its cases, or its problem; only cancellation is thrown. */
async function buildRow(suitePlan: SuitePlan, item: DatasetItem, signal: AbortSignal, options: ExpandOptions): Promise<BuiltRow> {
  if (!item.ok) return { kind: 'problem', line: item.error.position.line, error: item.error };
  const { row } = item;
  // A row prepared in the run pass: its cases as the count pass saw them (same ids), to skip a row with none wanted
  // and to take a rejected row's cases out of the total.
  const counted = options.prepare && suitePlan.suite.prepareRow ? await countedCases(suitePlan, row, signal) : undefined;
  if (counted && options.wanted && !counted.some((c) => options.wanted!(c.id))) return { kind: 'skipped' };
  try {
    return { kind: 'cases', row, cases: await expandRow(suitePlan, row, signal, options.prepare) };
  } catch (error) {
    if (signal.aborted) throw error;
    return { kind: 'problem', line: row.ref.line, error: asInputError(error, row.ref.file, row.ref.line), ...(counted ? { counted } : {}) };
  }
}

/** One row's cases: prepared first when the method prepares its rows (with the run's judge and retriever in the run pass). */
async function expandRow(suitePlan: SuitePlan, row: DatasetRow, signal: AbortSignal, prepare: ExpandOptions['prepare']): Promise<EvalCase[]> {
  const { suite, params, context } = suitePlan;
  const prepared = suite.prepareRow ? await suite.prepareRow(row, params, { ...context, ...prepare, signal }) : undefined;
  return suite.expandRow(row, params, context, prepared);
}

/** What the count pass built for a row (no judge, no retriever: the method's assumption); none when it failed there too. */
async function countedCases(suitePlan: SuitePlan, row: DatasetRow, signal: AbortSignal): Promise<EvalCase[]> {
  try {
    return await expandRow(suitePlan, row, signal, undefined);
  } catch {
    return [];
  }
}

/** A template variable the case does not provide (cheap: no rendering); the count pass reports it, the run skips the case. */
export function variablesProblem(suitePlan: SuitePlan, evalCase: EvalCase): InputError | undefined {
  return missingVariables(suitePlan.template, evalCase.variables, evalCase.row);
}

/**
 * Renders the case's messages into a copy (a generator suite's grid keeps its cases unrendered, so a finished case's
 * messages are not held for the rest of the run). An InputError comes back rather than thrown, for the run to report.
 */
export async function renderCase(suitePlan: SuitePlan, evalCase: EvalCase): Promise<EvalCase | InputError> {
  try {
    checkVariables(suitePlan.template, evalCase.variables, evalCase.row);
    // Rendered without promises: LiquidJS's async path costs several times the sync one per case, and a prompt
    // template reads nothing that needs waiting for (includes are read with readFileSync either way).
    const rendered: EvalCase = { ...evalCase, messages: renderTemplateSync(suitePlan.template, evalCase.variables), template: suitePlan.templateFile };
    if (rendered.messages.length === 0 && rendered.givenResponse === undefined) throw noMessage(suitePlan.templateFile, rendered);
    return rendered;
  } catch (error) {
    return asInputError(error, evalCase.row.file, evalCase.row.line);
  }
}

/** Sections that render empty are dropped; when none is left the model would be called with nothing (and a baseline would still score it). */
function noMessage(templateFile: string, evalCase: EvalCase): InputError {
  const { file, line, index } = evalCase.row;
  return new InputError({ file: templateFile, line: 1 }, `the template renders no message for row ${index + 1}`, `write the prompt in the template: it is empty, or every section renders empty for ${file}:${line}`);
}

function asInputError(error: unknown, file: string, line: number): InputError {
  if (error instanceof InputError) return error;
  if (error instanceof InputErrors && error.errors[0]) return error.errors[0];
  return new InputError({ file, line }, error instanceof Error ? error.message : String(error));
}

export interface ProblemReporter {
  add(kind: string, error: InputError): void;
  flush(): void;
}

/** Collects problems, keeping the first few of each kind and a count of the rest. `onAdd` sees each one kept. */
export function problemReporter(problems: InputProblem[], suiteId: string, onAdd?: (problem: InputProblem) => void): ProblemReporter {
  const counts = new Map<string, number>();
  const firstOf = new Map<string, InputError>();
  return {
    add(kind: string, error: InputError): void {
      const seen = counts.get(kind) ?? 0;
      counts.set(kind, seen + 1);
      if (!firstOf.has(kind)) firstOf.set(kind, error);
      if (seen < MAX_PROBLEMS_PER_KIND) {
        const problem = toProblem(error, suiteId);
        // Suites that read one dataset meet the same bad row: it is reported once, under the first of them.
        if (problems.some((known) => sameProblem(known, problem))) return;
        problems.push(problem);
        onAdd?.(problem);
      }
    },
    flush(): void {
      for (const [kind, count] of counts) {
        const first = firstOf.get(kind);
        if (count > MAX_PROBLEMS_PER_KIND && first) {
          const problem = { file: first.position.file, suiteId, message: `…and ${count - MAX_PROBLEMS_PER_KIND} more ${kind} problems like the ones above` };
          problems.push(problem);
          onAdd?.(problem);
        }
      }
    },
  };
}

function sameProblem(a: InputProblem, b: InputProblem): boolean {
  return a.file === b.file && a.line === b.line && a.column === b.column && a.message === b.message && a.hint === b.hint;
}

export function toProblem(error: InputError, suiteId?: string): InputProblem {
  return {
    file: error.position.file,
    line: error.position.line,
    column: error.position.column,
    message: error.message,
    hint: error.hint,
    suiteId,
  };
}
