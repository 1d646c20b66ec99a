// Turns an eval spec into the full list of cases with their prompts rendered — before any model is called.
import { InputError, InputErrors } from '../errors.js';
import type { EvalCase } from '../model.js';
import { readDataset } from '../data/readDataset.js';
import { checkVariables, loadTemplate, renderTemplate } from '../prompt/template.js';
import type { PromptTemplate } from '../prompt/template.js';
import type { EvalSpec, SuiteSpec } from '../spec/types.js';
import type { Suite } from '../suites/contract.js';
import { knownMethods, suiteFor } from '../suites/registry.js';
import type { InputProblem } from './events.js';

export interface SuitePlan {
  spec: SuiteSpec;
  suite: Suite<unknown>;
  params: unknown;
  template: PromptTemplate;
  templateFile: string;
  /** The dataset the cases came from; undefined for generator suites. */
  dataset: string | undefined;
  cases: EvalCase[];
}

export interface Plan {
  suites: SuitePlan[];
  problems: InputProblem[];
  /** Every input file with a role, for the run header's hashes. */
  inputs: { kind: 'template' | 'dataset'; file: string }[];
}

/** The same missing-variable mistake on every row would bury the other messages; report this many per suite. */
const MAX_PROBLEMS_PER_KIND = 20;

export async function buildPlan(spec: EvalSpec, signal: AbortSignal): Promise<Plan> {
  const models = spec.models.map((m) => `${m.provider}:${m.model}`);
  const plan: Plan = { suites: [], problems: [], inputs: [] };
  for (const suiteSpec of spec.suites) {
    if (signal.aborted) break;
    const suitePlan = await planSuite(spec, suiteSpec, models, plan.problems, signal);
    plan.suites.push(suitePlan);
    plan.inputs.push({ kind: 'template', file: suitePlan.templateFile });
    if (suitePlan.dataset) plan.inputs.push({ kind: 'dataset', file: suitePlan.dataset });
  }
  return plan;
}

async function planSuite(spec: EvalSpec, suiteSpec: SuiteSpec, models: string[], problems: InputProblem[], signal: AbortSignal): Promise<SuitePlan> {
  const suite = suiteFor(suiteSpec.method);
  if (!suite) {
    throw new InputError({ file: spec.file }, `suite '${suiteSpec.id}' uses unknown method '${suiteSpec.method}'`, `use one of: ${knownMethods().join(', ')}`);
  }
  const params = suite.parseParams(suiteSpec.params, { file: spec.file });
  const templateFile = suiteSpec.template ?? suite.defaultTemplate(params);
  const template = await loadTemplate(templateFile);
  const cases: EvalCase[] = [];
  const reporter = problemReporter(problems, suiteSpec.id);
  const context = { suiteId: suiteSpec.id, seed: spec.seed, models };
  // Generator suites (NIAH) build their own cases; a top-level default dataset is meant for the others.
  const dataset = suite.generateCases && suiteSpec.datasetFromDefault ? undefined : suiteSpec.dataset;

  const render = async (evalCase: EvalCase): Promise<void> => {
    try {
      checkVariables(template, evalCase.variables, evalCase.row);
      evalCase.messages = await renderTemplate(template, evalCase.variables);
      if (evalCase.messages.length === 0 && evalCase.givenResponse === undefined) throw noMessage(templateFile, evalCase);
      evalCase.template = templateFile;
      cases.push(evalCase);
    } catch (error) {
      reporter.add('render', asInputError(error, evalCase.row.file, evalCase.row.line));
    }
  };

  if (!dataset) {
    if (!suite.generateCases) {
      throw new InputError({ file: spec.file }, `suite '${suiteSpec.id}' has no dataset`, "add 'dataset: <file>' to the suite or at the top level");
    }
    const generated = await suite.generateCases(params, { ...context, specFile: spec.file });
    for (const evalCase of suiteSpec.limit === undefined ? generated : generated.slice(0, suiteSpec.limit)) await render(evalCase);
    reporter.flush();
    return { spec: suiteSpec, suite, params, template, templateFile, cases, dataset: undefined };
  }

  let rows = 0;
  let items = 0;
  for await (const item of readDataset(dataset, { signal })) {
    items += 1;
    if (!item.ok) {
      reporter.add('row', item.error);
      continue;
    }
    if (suiteSpec.limit !== undefined && rows >= suiteSpec.limit) break;
    rows += 1;
    let expanded: EvalCase[];
    try {
      expanded = suite.expandRow(item.row, params, context);
    } catch (error) {
      reporter.add('row', asInputError(error, item.row.ref.file, item.row.ref.line));
      continue;
    }
    for (const evalCase of expanded) await render(evalCase);
  }
  // Otherwise an empty (or blank) dataset runs nothing and passes, and CI stays green on a file cut to nothing.
  if (items === 0) reporter.add('row', new InputError({ file: dataset, line: 1 }, 'the dataset has no rows', 'add rows (one JSON object per line in JSONL, a header and rows in CSV, a list in YAML) or point the suite at another dataset'));
  reporter.flush();
  return { spec: suiteSpec, suite, params, template, templateFile, cases, dataset };
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

/** Collects problems, keeping the first few of each kind and a count of the rest. */
function problemReporter(problems: InputProblem[], suiteId: string) {
  const counts = new Map<string, number>();
  const firstOf = new Map<string, InputError>();
  return {
    add(kind: string, error: InputError): void {
      const seen = counts.get(kind) ?? 0;
      counts.set(kind, seen + 1);
      if (!firstOf.has(kind)) firstOf.set(kind, error);
      if (seen < MAX_PROBLEMS_PER_KIND) problems.push(toProblem(error, suiteId));
    },
    flush(): void {
      for (const [kind, count] of counts) {
        const first = firstOf.get(kind);
        if (count > MAX_PROBLEMS_PER_KIND && first) {
          problems.push({ file: first.position.file, suiteId, message: `…and ${count - MAX_PROBLEMS_PER_KIND} more ${kind} problems like the ones above` });
        }
      }
    },
  };
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
