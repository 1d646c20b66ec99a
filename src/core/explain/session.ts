// Everything an explanation needs before it calls anything: the explained cases read from the run log, the eval file's
// suites and clients (the run's own scheduler, cache and prices), each case's variants built and rendered, and which of
// them the variant log already holds. Shared by the cost plan and the run, so what is priced is what runs.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { BatchLog } from '../engine/batchLog.js';
import type { BatchEvent } from '../engine/batchProgress.js';
import { createRunClients, modelKeyOf } from '../engine/clients.js';
import type { RunClients } from '../engine/clients.js';
import { planSuites, renderCase } from '../engine/plan.js';
import { applyOverrides } from '../engine/runEvaluation.js';
import type { RunOptions } from '../engine/runEvaluation.js';
import type { SuitePlan } from '../engine/plan.js';
import { InputError } from '../errors.js';
import { caseKey, isFailure } from '../model.js';
import type { CaseResult, EvalCase } from '../model.js';
import type { ModelSpec } from '../providers/contract.js';
import type { Credentials, ProviderFactory } from '../providers/registry.js';
import { readCaseLines, scanRunLog, workspaceOfRunLog } from '../run/runLog.js';
import type { RunLogScan, RunHeader } from '../run/runLog.js';
import type { Containment } from '../spec/containment.js';
import { loadEvalSpec } from '../spec/load.js';
import type { EvalSpec } from '../spec/types.js';
import type { CaseExplanation, ExplainOptions, ExplainSource, VariantKind, VariantOutcome, VariantSpec } from './model.js';
import { VARIANT_KINDS } from './model.js';
import { explainCase } from './attribute.js';
import { variantOutcome } from './outcome.js';
import { caseSources } from './sources.js';
import { planVariants, sectionNames } from './variants.js';

/** Where explanations live: `.rag-inspector/explanations/<run-id>.json`, the variant cases beside it as `<run-id>.jsonl`. */
export function explanationsDir(workspaceDir: string): string {
  return path.join(workspaceDir, '.rag-inspector', 'explanations');
}

/** The marker a variant case carries in its params: which case it varies and how. */
export interface VariantMark {
  of: string;
  /** Every variant id this run stands for (identical variants run once). */
  variants: string[];
  present: string[];
  removedSection?: string;
}

export interface SessionOptions extends ExplainOptions {
  credentials: Credentials;
  signal: AbortSignal;
  /** Explain these cases (ids as in the run log); with `failed`, only their failed models. */
  caseIds?: readonly string[];
  /** Explain the failed (case, model) pairs: a failed verdict or an error. */
  failed?: boolean;
  /** Only this model's results (the inspector explains one (case, model)); every model of the run by default. */
  modelKey?: string;
  /**
   * What the host's settings change in the eval file, as for a run (VS Code's ragInspector.openaiBaseUrl): the
   * variants must go where the run went.
   */
  overridesOf?: (spec: EvalSpec) => RunOptions['overrides'];
  /**
   * Folders the eval file's paths must stay inside (an untrusted workspace): the eval file the run log names is read
   * as a run in that workspace would read it, or refused at its line.
   */
  contain?: Containment;
  /** Folder holding `.rag-inspector/`; by default the one the run log is in. */
  workspaceDir?: string;
  noCache?: boolean;
  providers?: Readonly<Record<string, ProviderFactory>>;
  /** Batch mode: each vendor batch of variants submitted, and each poll of it (the CLI prints them as a run's). */
  onBatch?: (event: BatchEvent) => void;
}

/** One variant to run: its case (rendered), the model, and the variant ids it stands for. */
export interface VariantWork {
  target: Target;
  evalCase: EvalCase;
  mark: VariantMark;
  model: RunClients['models'][number];
}

/** One explained (case, model). */
export interface Target {
  evalCase: EvalCase;
  result: CaseResult;
  suitePlan: SuitePlan;
  sources: ExplainSource[];
  meaning: string;
  variants: VariantSpec[];
  /** Outcomes already in the variant log, by variant id. */
  done: Map<string, VariantOutcome>;
  /** Runs still to make, one per distinct variant. */
  pending: VariantWork[];
  /** The template's section names, and the case rebuilt with only some sources: for the faithfulness check, planned last. */
  sections: string[];
  rebuild: (present: readonly string[]) => EvalCase;
  model: VariantWork['model'];
  /** False when --max-calls leaves no call for the faithfulness check (it is then reported as not run). */
  checkBudgeted: boolean;
}

export interface Session {
  header: RunHeader;
  runLog: string;
  workspaceDir: string;
  variantLog: string;
  spec: EvalSpec;
  clients: RunClients;
  /**
   * Where the variants' vendor batches are recorded (models in batch mode): the variant log, once it is open; the
   * batches it already holds are collected, not submitted again.
   */
  batchLog: BatchLog;
  /** False with noCache: then every variant that needs the model calls it, identical ones included. */
  cacheOn: boolean;
  targets: Target[];
}

export async function openSession(runLog: string, options: SessionOptions): Promise<Session> {
  const scan = await scanRunLog(runLog);
  if (scan.winners.size === 0) throw noReadableCase(runLog, scan);
  const workspaceDir = options.workspaceDir ?? workspaceOfRunLog(runLog);
  const variantLog = path.join(explanationsDir(workspaceDir), `${scan.header.runId}.jsonl`);
  const read = await loadEvalSpec(scan.header.spec.file, { hostProviders: Object.keys(options.providers ?? {}), ...(options.contain ? { contain: options.contain } : {}) });
  const loaded = applyOverrides(read, options.overridesOf?.(read));
  const spec = batchedAsRun({ ...loaded, models: modelsOf(scan.header, loaded) }, scan);
  const plan = await planSuites(spec, options.signal);
  const suites = new Map(plan.suites.map((s) => [s.spec.id, s]));
  const variantScan = existsSync(variantLog) ? await scanRunLog(variantLog) : undefined;
  const batchLog = new BatchLog(options.signal, variantScan?.batches ?? [], options.onBatch);
  const clients = await createRunClients(spec, options.credentials, options.noCache ? undefined : path.join(workspaceDir, '.rag-inspector', 'cache'), options.providers, false, batchLog.options);
  const models = new Map(clients.models.map((m) => [m.key, m]));
  const done = variantScan ? await loggedOutcomes(variantScan) : new Map<string, Map<string, VariantOutcome>>();

  const wanted = new Set(options.caseIds ?? []);
  const targets: Target[] = [];
  const unanswered = new Set<string>();
  // A few ids of the run, for the message when an asked id is not one of them (no command lists a run's cases).
  const known = new Set<string>();
  for await (const line of readCaseLines(scan)) {
    if (options.failed && !isFailure(line.result)) continue;
    if (known.size < SHOWN_IDS + 1) known.add(line.case.id);
    if (wanted.size > 0 && !wanted.has(line.case.id)) continue;
    if (options.modelKey !== undefined && line.result.modelKey !== options.modelKey) continue;
    // An error before the model answered has no response to explain; explaining it would repeat the error.
    if (line.result.status === 'error' && line.result.error?.stage !== 'score') {
      unanswered.add(line.case.id);
      continue;
    }
    const suitePlan = suites.get(line.case.suiteId);
    const model = models.get(line.result.modelKey);
    if (!suitePlan || !model) continue;
    targets.push(await buildTarget(line.case, line.result, suitePlan, model, options, done.get(caseKey(line.case.id, line.result.modelKey)) ?? new Map()));
  }
  for (const id of wanted) {
    if (targets.some((t) => t.evalCase.id === id)) continue;
    if (unanswered.has(id)) throw new InputError({ file: runLog }, `case '${id}' ended in an error before the model answered: there is no answer to explain`, 'rerun the case (rag-inspector run … --resume, or Rerun Case) and explain it once it has an answer');
    throw new InputError({ file: runLog }, `no case '${id}' to explain in this run${options.failed ? ' among its failed cases' : ''}`, knownIds(known));
  }
  return { header: scan.header, runLog, workspaceDir, variantLog, spec, clients, batchLog, cacheOn: !options.noCache, targets };
}

/** A log with no case that can be read: nothing to explain, said with the first damaged line if there is one. */
function noReadableCase(runLog: string, scan: RunLogScan): InputError {
  const bad = scan.problems.filter((p) => p.severity === 'error');
  if (bad.length === 0) return new InputError({ file: runLog }, 'this run has no finished case to explain', 'run it (or resume it) until some cases finish, then explain them');
  const first = bad[0]!;
  return new InputError({ file: runLog, line: first.line }, `no case of this run log can be read: ${bad.length} damaged line(s), the first: ${first.message}`, 'the log was damaged or edited; run the evaluation again');
}

/** Case ids shown when an asked one is unknown. */
const SHOWN_IDS = 5;

function knownIds(known: ReadonlySet<string>): string {
  if (known.size === 0) return 'the run has no case to explain';
  const ids = [...known].slice(0, SHOWN_IDS).map((id) => `'${id}'`).join(', ');
  return `ids look like suite/row/variant; this run has ${ids}${known.size > SHOWN_IDS ? ', …' : ''} (every id is in the case_id column of the run's cases.csv)`;
}

/**
 * The variants go the way the run went: a model (or judge) the run sent through a vendor batch — the eval file's
 * `batch: true`, or --batch / the VS Code setting at the time — is in batch mode for its explanation too.
 */
function batchedAsRun(spec: EvalSpec, scan: RunLogScan): EvalSpec {
  const batched = new Set(scan.batches.map((line) => line.modelKey));
  const asRun = (model: ModelSpec): ModelSpec => (batched.has(modelKeyOf(model)) ? { ...model, batch: true } : model);
  return { ...spec, models: spec.models.map(asRun), ...(spec.judge ? { judge: asRun(spec.judge) } : {}) };
}

/** The run's models as its header lists them (a run started with --model overrides the eval file's). */
function modelsOf(header: RunHeader, spec: EvalSpec): ModelSpec[] {
  return header.models.map((key) => spec.models.find((m) => modelKeyOf(m) === key) ?? specFromKey(key));
}

function specFromKey(key: string): ModelSpec {
  const colon = key.indexOf(':');
  return { provider: key.slice(0, colon), model: key.slice(colon + 1), parameters: {} };
}

async function buildTarget(evalCase: EvalCase, result: CaseResult, suitePlan: SuitePlan, model: VariantWork['model'], options: SessionOptions, done: Map<string, VariantOutcome>): Promise<Target> {
  const { sources, meaning, variant } = caseSources(evalCase, options.segments);
  const sections = sectionNames(suitePlan.template.sections.map((s) => s.role));
  const kinds: readonly VariantKind[] = options.variants ?? VARIANT_KINDS;
  const variants = planVariants({ caseId: evalCase.id, seed: evalCase.seed ?? suitePlan.context.seed, sources, sections, kinds, subsets: options.subsets });
  const target: Target = { evalCase, result, suitePlan, sources, meaning, variants, done, pending: [], sections, rebuild: variant, model, checkBudgeted: true };
  // Identical variants (a subset drawn twice, the position that is the original order) run once.
  const groups = new Map<string, VariantSpec[]>();
  for (const v of variants) {
    const key = `${v.present.join(',')}|${v.removedSection ?? ''}`;
    groups.set(key, [...(groups.get(key) ?? []), v]);
  }
  for (const group of groups.values()) {
    if (group.every((v) => done.has(v.id))) continue;
    const work = await variantWork(target, group);
    if (work) target.pending.push(work);
  }
  return target;
}

/**
 * One run standing for `group` (identical variants): the case rebuilt with their sources and rendered. Undefined when
 * the template cannot render it (every message empty): those variants are then undetermined, not an error.
 */
export async function variantWork(target: Target, group: readonly VariantSpec[]): Promise<VariantWork | undefined> {
  const { evalCase, sources, sections, suitePlan } = target;
  const first = group[0] as VariantSpec;
  const mark: VariantMark = { of: evalCase.id, variants: group.map((v) => v.id), present: first.present, ...(first.removedSection ? { removedSection: first.removedSection } : {}) };
  // The original order is the logged case itself, so its request is the run's and comes from the cache.
  const built = sameOrder(first.present, sources) ? { ...evalCase, messages: [] } : target.rebuild(first.present);
  const unrendered: EvalCase = { ...built, id: `${evalCase.id}#explain:${first.id}`, params: { ...built.params, explainVariant: mark } };
  const plan = first.removedSection ? withoutSection(suitePlan, sections.indexOf(first.removedSection)) : suitePlan;
  const rendered = await renderCase(plan, unrendered);
  if (rendered instanceof InputError) {
    for (const v of group) target.done.set(v.id, { variantId: v.id, pass: null, signal: null, cached: false, undeterminedBecause: `render error: ${rendered.message}` });
    return undefined;
  }
  return { target, evalCase: rendered, mark, model: target.model };
}

/** A target's explanation from the outcomes it has so far. */
export function explanationOf(target: Target): CaseExplanation {
  return explainCase({
    caseId: target.evalCase.id,
    modelKey: target.result.modelKey,
    suiteId: target.evalCase.suiteId,
    method: target.evalCase.method,
    meaning: target.meaning,
    sources: target.sources,
    variants: target.variants,
    outcomes: target.done,
  });
}

function sameOrder(present: readonly string[], sources: readonly ExplainSource[]): boolean {
  return present.length === sources.length && present.every((id, i) => sources[i]?.id === id);
}

function withoutSection(suitePlan: SuitePlan, index: number): SuitePlan {
  return { ...suitePlan, template: { ...suitePlan.template, sections: suitePlan.template.sections.filter((_, i) => i !== index) } };
}

/** What the variant log already holds: outcomes by (case, model) and variant id, every id a logged run stands for. */
async function loggedOutcomes(scan: RunLogScan): Promise<Map<string, Map<string, VariantOutcome>>> {
  const byCase = new Map<string, Map<string, VariantOutcome>>();
  for await (const line of readCaseLines(scan)) {
    const mark = line.case.params.explainVariant as VariantMark | undefined;
    if (!mark) continue;
    const key = caseKey(mark.of, line.result.modelKey);
    const outcomes = byCase.get(key) ?? new Map<string, VariantOutcome>();
    for (const id of mark.variants) outcomes.set(id, variantOutcome(id, line.result));
    byCase.set(key, outcomes);
  }
  return byCase;
}
