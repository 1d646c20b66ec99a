// Runs an eval file end to end: plan the cases, call the models, score, log each case as it finishes, report.
import * as path from 'node:path';
import { hashFile } from '../data/hash.js';
import type { CaseResult, EvalCase, RunStatus } from '../model.js';
import type { Credentials, ProviderFactory } from '../providers/registry.js';
import { RunLogWriter, newRunId, readRunLog } from '../run/runLog.js';
import type { RunHeader } from '../run/runLog.js';
import { loadEvalSpec } from '../spec/load.js';
import type { EvalSpec, ModelSpec } from '../spec/types.js';
import type { SuiteReport } from '../suites/contract.js';
import { createRunClients, modelKeyOf } from './clients.js';
import type { RunEvent, RunTotals, ThresholdOutcome } from './events.js';
import { executeCase } from './executeCase.js';
import { buildPlan } from './plan.js';
import type { Plan, SuitePlan } from './plan.js';
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

export interface RunOutcome {
  runId: string;
  createdAt: string;
  logFile: string;
  status: RunStatus;
  totals: RunTotals;
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  spec: EvalSpec;
  plan: Plan;
  cases: Map<string, EvalCase>;
  results: CaseResult[];
}

const RESULT_KEY_SEPARATOR = '\u0000';
export const resultKey = (caseId: string, modelKey: string): string => `${caseId}${RESULT_KEY_SEPARATOR}${modelKey}`;

export async function runEvaluation(specFile: string, options: RunOptions): Promise<RunOutcome> {
  const emit = options.onEvent ?? (() => undefined);
  const spec = applyOverrides(await loadEvalSpec(specFile), options.overrides);
  const workspaceDir = options.workspaceDir ?? path.dirname(spec.file);
  const stateDir = path.join(workspaceDir, '.rag-inspector');

  const plan = await buildPlan(spec, options.signal);
  for (const problem of plan.problems) emit({ type: 'input-problem', problem });

  const clients = await createRunClients(spec, options.credentials, options.noCache ? undefined : path.join(stateDir, 'cache'), options.providers);
  const modelKeys = clients.models.map((m) => m.key);

  const previous = options.resume ? await readPrevious(options.resume, spec) : undefined;
  const runId = previous?.header.runId ?? newRunId(new Date());
  const writer = previous
    ? await RunLogWriter.reopen(options.resume!)
    : await RunLogWriter.create(path.join(stateDir, 'runs'), await headerFor(runId, spec, plan, modelKeys));
  const logFile = writer.file;
  const createdAt = previous?.header.createdAt ?? new Date().toISOString();

  const cases = new Map<string, EvalCase>();
  const results: CaseResult[] = previous ? [...previous.results] : [];
  for (const c of previous?.cases ?? []) cases.set(c.id, c);
  const finished = previous?.finished ?? new Set<string>();

  const pending: { suitePlan: SuitePlan; evalCase: EvalCase; model: (typeof clients.models)[number] }[] = [];
  for (const suitePlan of plan.suites) {
    for (const evalCase of suitePlan.cases) {
      cases.set(evalCase.id, evalCase);
      for (const model of clients.models) {
        if (finished.has(resultKey(evalCase.id, model.key))) continue;
        if (options.caseFilter && !options.caseFilter(evalCase.id, model.key)) continue;
        pending.push({ suitePlan, evalCase, model });
      }
    }
  }

  const total = pending.length;
  emit({ type: 'run-started', runId, logFile, total, models: modelKeys, suites: spec.suites.map((s) => s.id), resumed: finished.size });

  let done = 0;
  // Each model's scheduler bounds its own calls; the pool only keeps enough work queued to feed them all.
  const width = clients.models.reduce((sum, m) => sum + m.concurrency, 0) * 2;
  try {
    await forEachConcurrent(pending, width, options.signal, async ({ suitePlan, evalCase, model }) => {
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
      results.push(result);
      done += 1;
      emit({ type: 'case-finished', evalCase, result, done, total });
    });
  } catch (error) {
    writer.appendSummary(summaryLine('error', results, [], [], plan, clients));
    writer.close();
    throw error;
  }

  const status: RunStatus = options.signal.aborted ? 'cancelled' : 'success';
  const suiteReports = plan.suites.map((s) => s.suite.report(cases, results.filter((r) => cases.get(r.caseId)?.suiteId === s.spec.id), s.params, s.spec.id));
  const reports = [...suiteReports, ...combinedReports(suiteReports)];
  const thresholds = evaluateThresholds(spec.suites, reports, modelKeys);
  const summary = summaryLine(status, results, reports, thresholds, plan, clients);
  writer.appendSummary(summary);
  writer.close();

  const totals = summary.totals;
  emit({ type: 'run-finished', runId, logFile, status, totals, reports, thresholds });
  return { runId, createdAt, logFile, status, totals, reports, thresholds, spec, plan, cases, results };
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

async function headerFor(runId: string, spec: EvalSpec, plan: Plan, models: string[]): Promise<RunHeader> {
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

async function readPrevious(file: string, spec: EvalSpec) {
  const log = await readRunLog(file);
  if (log.header.spec.hash !== spec.hash) {
    throw new Error(`${file}: the eval file changed since this run started (${log.header.spec.file}); resume needs the same eval file — start a new run instead`);
  }
  return {
    header: log.header,
    cases: log.cases.map((line) => line.case),
    results: log.cases.map((line) => line.result),
    finished: log.finished,
  };
}

function summaryLine(status: RunStatus, results: readonly CaseResult[], reports: SuiteReport[], thresholds: ThresholdOutcome[], plan: Plan, clients: Awaited<ReturnType<typeof createRunClients>>) {
  const totals = resultTotals(results, {
    modelCalls: clients.models.reduce((n, m) => n + m.client.counters.providerCalls, 0),
    cacheHits: clients.models.reduce((n, m) => n + m.client.counters.cacheHits, 0) + (clients.judge?.client.counters.cacheHits ?? 0),
    judgeCalls: clients.judge?.client.counters.providerCalls ?? 0,
  });
  return { type: 'summary' as const, status, finishedAt: new Date().toISOString(), totals, reports, thresholds, problems: plan.problems };
}
