// Runs an eval file end to end: check the inputs, then build, call, score and log each case as the pool pulls it, report.
import * as path from 'node:path';
import { hashFile } from '../data/hash.js';
import type { CaseResult, EvalCase, RunStatus } from '../model.js';
import type { Credentials, ProviderFactory } from '../providers/registry.js';
import { InputError } from '../errors.js';
import { RunLogWriter, newRunId, readCaseLines, scanRunLog } from '../run/runLog.js';
import type { RunHeader } from '../run/runLog.js';
import { loadEvalSpec } from '../spec/load.js';
import type { EvalSpec, ModelSpec } from '../spec/types.js';
import type { Suite, SuiteReport } from '../suites/contract.js';
import { suiteFor } from '../suites/registry.js';
import { toReportCase, toReportResult } from '../suites/reportView.js';
import type { ReportCase, ReportResult } from '../suites/reportView.js';
import { createRunClients, modelKeyOf } from './clients.js';
import type { InputProblem, RunEvent, RunTotals, ThresholdOutcome } from './events.js';
import { executeCase } from './executeCase.js';
import { expandedCases, planSuites, problemReporter, renderCase } from './plan.js';
import type { LazyPlan, SuitePlan } from './plan.js';
import { forEachConcurrent } from './pool.js';
import { evaluateThresholds } from './thresholds.js';
import { combinedReports } from '../suites/combinedReports.js';
import { TOOL_VERSION } from '../version.js';
import { resultTotals } from '../report/totals.js';

export interface RunOptions {
  signal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  credentials: Credentials;
  /** Folder that holds `.rag-inspector/` (runs and cache); the eval file's folder by default. */
  workspaceDir?: string;
  /** A run log to finish instead of starting a new run. */
  resume?: string;
  noCache?: boolean;
  /** Run only some (case, model) pairs: rerun failed, rerun one case, rerun what a template change affects. */
  caseFilter?: (caseId: string, modelKey: string) => boolean;
  overrides?: { models?: ModelSpec[]; concurrency?: number };
  /** Providers the host adds by name (the extension's `vscode-lm`); models and the judge may use them. */
  providers?: Readonly<Record<string, ProviderFactory>>;
}

/** How the run ended. The cases and results are in the run log (`logFile`); the outcome holds only the summary. */
export interface RunOutcome {
  runId: string;
  createdAt: string;
  logFile: string;
  status: RunStatus;
  totals: RunTotals;
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  spec: EvalSpec;
  /** Rows and cases that could not be built, with file:line. */
  problems: InputProblem[];
}

const RESULT_KEY_SEPARATOR = '\u0000';
export const resultKey = (caseId: string, modelKey: string): string => `${caseId}${RESULT_KEY_SEPARATOR}${modelKey}`;

/** What the suites' tables are computed from: the slim report view of every finished (case, model), per suite entry. */
class ReportViews {
  readonly cases = new Map<string, ReportCase>();
  /** By resultKey: a later result for the same pair (a rerun) replaces the earlier one. */
  readonly results = new Map<string, ReportResult>();
}

type RunClients = Awaited<ReturnType<typeof createRunClients>>;
type Work = { suitePlan: SuitePlan; evalCase: EvalCase; model: RunClients['models'][number] };

export async function runEvaluation(specFile: string, options: RunOptions): Promise<RunOutcome> {
  const emit = options.onEvent ?? (() => undefined);
  const spec = applyOverrides(await loadEvalSpec(specFile), options.overrides);
  const workspaceDir = options.workspaceDir ?? path.dirname(spec.file);
  const stateDir = path.join(workspaceDir, '.rag-inspector');

  const clients = await createRunClients(spec, options.credentials, options.noCache ? undefined : path.join(stateDir, 'cache'), options.providers);
  const modelKeys = clients.models.map((m) => m.key);
  const views = new Map(spec.suites.map((s) => [s.id, new ReportViews()]));

  const previous = options.resume ? await readPrevious(options.resume, spec, views) : undefined;
  const finished = previous?.finished ?? new Set<string>();
  const wanted = (caseId: string, modelKey: string) => !finished.has(resultKey(caseId, modelKey)) && (!options.caseFilter || options.caseFilter(caseId, modelKey));

  // The count pass: every row read once (bad rows reported with file:line before the run starts), nothing rendered.
  let total = 0;
  const plan = await planSuites(spec, options.signal, (_suitePlan, evalCase) => {
    for (const key of modelKeys) if (wanted(evalCase.id, key)) total += 1;
  });
  for (const problem of plan.problems) emit({ type: 'input-problem', problem });

  const runId = previous?.header.runId ?? newRunId(new Date());
  const writer = previous
    ? await RunLogWriter.reopen(options.resume!)
    : await RunLogWriter.create(path.join(stateDir, 'runs'), await headerFor(runId, spec, plan, modelKeys));
  const logFile = writer.file;
  const createdAt = previous?.header.createdAt ?? new Date().toISOString();

  emit({ type: 'run-started', runId, logFile, total, models: modelKeys, suites: spec.suites.map((s) => s.id), resumed: finished.size });

  /** Cases pulled one at a time and rendered then: never the whole run's prompts in memory. */
  async function* pending(): AsyncGenerator<Work> {
    for (const suitePlan of plan.suites) {
      const reporter = problemReporter(plan.problems, suitePlan.spec.id, (problem) => emit({ type: 'input-problem', problem }));
      for await (const evalCase of expandedCases(suitePlan, options.signal)) {
        const models = clients.models.filter((m) => wanted(evalCase.id, m.key));
        if (models.length === 0) continue;
        const rendered = await renderCase(suitePlan, evalCase);
        if (rendered instanceof InputError) {
          reporter.add('render', rendered);
          // Counted in `total` but never run: later progress events carry the corrected total.
          total -= models.length;
          continue;
        }
        for (const model of models) yield { suitePlan, evalCase: rendered, model };
      }
      reporter.flush();
    }
  }

  let done = 0;
  // Each model's scheduler bounds its own calls; the pool only keeps enough work queued to feed them all.
  const width = clients.models.reduce((sum, m) => sum + m.concurrency, 0) * 2;
  try {
    await forEachConcurrent(pending(), width, options.signal, async ({ suitePlan, evalCase, model }) => {
      const result = await executeCase({
        evalCase,
        suite: suitePlan.suite,
        params: suitePlan.params,
        modelKey: model.key,
        client: model.client,
        judge: clients.judge?.client,
        embeddings: clients.embeddings?.client,
        templateParameters: templateParametersFor(suitePlan, model.spec),
        signal: options.signal,
      });
      // A case cut short by cancel is not finished: leave it out of the log so --resume runs it again.
      if (options.signal.aborted && result.status === 'error' && result.error?.kind === 'cancelled') return;
      writer.appendCase({ type: 'case', case: evalCase, result });
      keepView(views, suitePlan.suite, evalCase, result);
      done += 1;
      emit({ type: 'case-finished', evalCase, result, done, total });
    });
  } catch (error) {
    writer.appendSummary(summaryLine('error', allResults(views), [], [], plan.problems, clients));
    writer.close();
    throw error;
  }

  const status: RunStatus = options.signal.aborted ? 'cancelled' : 'success';
  const suiteReports = plan.suites.map((s) => {
    const view = views.get(s.spec.id) ?? new ReportViews();
    return s.suite.report(view.cases, [...view.results.values()], s.params, s.spec.id);
  });
  const reports = [...suiteReports, ...combinedReports(suiteReports)];
  const thresholds = evaluateThresholds(spec.suites, reports, modelKeys);
  const summary = summaryLine(status, allResults(views), reports, thresholds, plan.problems, clients);
  writer.appendSummary(summary);
  writer.close();

  const totals = summary.totals;
  emit({ type: 'run-finished', runId, logFile, status, totals, reports, thresholds });
  return { runId, createdAt, logFile, status, totals, reports, thresholds, spec, problems: plan.problems };
}

/** Keeps what the suite's report reads; the case's documents, messages and the response text are dropped here. */
function keepView(views: Map<string, ReportViews>, suite: Suite<unknown>, evalCase: EvalCase, result: CaseResult): void {
  const view = views.get(evalCase.suiteId);
  if (!view) return; // a case of a suite entry no longer in the eval file (resume checks the file's hash, so only by hand)
  if (!view.cases.has(evalCase.id)) view.cases.set(evalCase.id, toReportCase(evalCase, suite));
  view.results.set(resultKey(result.caseId, result.modelKey), toReportResult(result, suite));
}

function allResults(views: Map<string, ReportViews>): ReportResult[] {
  return [...views.values()].flatMap((v) => [...v.results.values()]);
}

function applyOverrides(spec: EvalSpec, overrides: RunOptions['overrides']): EvalSpec {
  if (!overrides) return spec;
  return {
    ...spec,
    models: overrides.models?.length ? overrides.models : spec.models,
    concurrency: overrides.concurrency ?? spec.concurrency,
  };
}

/** Front-matter parameters apply unless the eval file set the same parameter on the model. */
function templateParametersFor(suitePlan: SuitePlan, model: ModelSpec): Record<string, unknown> {
  const fromTemplate = suitePlan.template.frontMatter.parameters ?? {};
  return Object.fromEntries(Object.entries(fromTemplate).filter(([name]) => !(name in model.parameters)));
}

async function headerFor(runId: string, spec: EvalSpec, plan: LazyPlan, models: string[]): Promise<RunHeader> {
  const unique = [...new Map(plan.inputs.map((i) => [`${i.kind}:${i.file}`, i])).values()];
  return {
    type: 'header',
    format: 1,
    runId,
    createdAt: new Date().toISOString(),
    status: 'started',
    tool: { name: 'rag-inspector', version: TOOL_VERSION },
    spec: { file: spec.file, hash: spec.hash, name: spec.name },
    inputs: await Promise.all(unique.map(async (i) => ({ kind: i.kind, file: i.file, hash: await hashFile(i.file) }))),
    models,
    judge: spec.judge ? modelKeyOf(spec.judge) : undefined,
    embeddings: spec.embeddings ? modelKeyOf(spec.embeddings) : undefined,
    seed: spec.seed,
  };
}

/** The earlier sessions of a resumed run, streamed from its log into the report views: no case held in full. */
async function readPrevious(file: string, spec: EvalSpec, views: Map<string, ReportViews>) {
  const scan = await scanRunLog(file);
  if (scan.header.spec.hash !== spec.hash) {
    throw new Error(`${file}: the eval file changed since this run started (${scan.header.spec.file}); resume needs the same eval file — start a new run instead`);
  }
  const suites = new Map(spec.suites.map((s) => [s.id, suiteFor(s.method)]));
  for await (const line of readCaseLines(scan)) {
    const suite = suites.get(line.case.suiteId);
    if (suite) keepView(views, suite, line.case, line.result);
  }
  return { header: scan.header, finished: new Set(scan.winners.keys()) };
}

function summaryLine(status: RunStatus, results: readonly ReportResult[], reports: SuiteReport[], thresholds: ThresholdOutcome[], problems: InputProblem[], clients: RunClients) {
  const totals = resultTotals(results, {
    modelCalls: clients.models.reduce((n, m) => n + m.client.counters.providerCalls, 0),
    cacheHits: clients.models.reduce((n, m) => n + m.client.counters.cacheHits, 0) + (clients.judge?.client.counters.cacheHits ?? 0),
    judgeCalls: clients.judge?.client.counters.providerCalls ?? 0,
  });
  return { type: 'summary' as const, status, finishedAt: new Date().toISOString(), totals, reports, thresholds, problems };
}
