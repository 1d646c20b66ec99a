// Runs an eval file end to end: check the inputs, then build, call, score and log each case as the pool pulls it, report.
import * as path from 'node:path';
import { hashFile } from '../data/hash.js';
import { isDetached } from '../detach.js';
import { caseKey, finishedStatus } from '../model.js';
import type { EvalCase, FailedAttemptSpend, InputProblem, RunStatus, RunTotals, ThresholdOutcome } from '../model.js';
import type { ModelCallCounters } from '../run/modelClient.js';
import type { Credentials, ProviderFactory } from '../providers/registry.js';
import { InputError } from '../errors.js';
import { RunLogWriter, newRunId, scanRunLog } from '../run/runLog.js';
import type { RunHeader, SummaryLine } from '../run/runLog.js';
import { loadEvalSpec } from '../spec/load.js';
import type { LoadOptions } from '../spec/load.js';
import type { EvalSpec } from '../spec/types.js';
import type { SuiteReport } from '../suites/contract.js';
import { createJudge } from '../suites/judging.js';
import { createRunClients, modelKeyOf } from './clients.js';
import { BatchLog } from './batchLog.js';
import type { RunEvent } from './events.js';
import { completionCall, countingJudge, executeCase } from './executeCase.js';
import { uncachedEndpoints } from './uncachedEndpoints.js';
import type { JudgeUsage } from './executeCase.js';
import { expandedCases, planSuites, problemReporter, renderCase, variablesProblem } from './plan.js';
import type { LazyPlan, SuitePlan } from './plan.js';
import { forEachConcurrent } from '../pool.js';
import { evaluateThresholds } from './thresholds.js';
import { preflight } from './preflight.js';
import { preflightIndexes } from './indexPreflight.js';
import { CheckAlongside } from './checkAlongside.js';
import { endedInError, keysOfResults } from './rerunSelection.js';
import { TOOL_VERSION } from '../version.js';
import { withJudgeUsage } from './totals.js';
import type { CallCounts } from './totals.js';
import { loggedCalls, tablesFromLog } from './tablesFromLog.js';
import { followLog } from './followLog.js';
import type { FollowedLog, LogFollower } from './followLog.js';
import type { ModelSpec } from '../providers/contract.js';
import { BATCH_PROVIDER_NAMES } from '../providers/names.js';
import type { Retriever } from '../retrieval/contract.js';
import { runRetriever } from './retriever.js';

export interface RunOptions {
  /**
   * Cancels the run: it ends `cancelled`, with a summary, its remote batches cancelled. Aborted with a RunDetached as
   * the reason (detach.ts: the host is going away) the run instead stops with its log left interrupted, no summary,
   * its batches running, and runEvaluation throws that reason.
   */
  signal: AbortSignal;
  onEvent?: (event: RunEvent) => void;
  credentials: Credentials;
  /** Folder that holds `.rag-inspector/` (runs and cache); the eval file's folder by default. */
  workspaceDir?: string;
  /** A run log to finish instead of starting a new run. */
  resume?: string;
  /** No cache reads and no cache writes. */
  noCache?: boolean;
  /** Call the models even when the cache has the answer, and write the fresh answers to it. */
  refreshCache?: boolean;
  /** With `resume`: run again the cases of the log that ended in an error, not only the missing ones. */
  retryErrors?: boolean;
  /**
   * One cheap request per distinct endpoint and model before the first case (engine/preflight.ts): a server that is
   * down, a refused key or a wrong path throws PreflightError before the run log is written.
   */
  preflight?: boolean;
  /** Run only some (case, model) pairs: rerun failed, rerun one case, rerun what a template change affects. */
  caseFilter?: (caseId: string, modelKey: string) => boolean;
  /**
   * `batch`: true puts every model and the judge that can batch in batch mode (--batch, the VS Code setting); false
   * every one interactive, the eval file's `batch: true` included (--no-batch); unset leaves the eval file's choice,
   * or, on a resume, what the run was started with.
   */
  overrides?: { models?: ModelSpec[]; concurrency?: number; batch?: boolean };
  /** Providers the host adds by name (the extension's `vscode-lm`); models and the judge may use them. */
  providers?: Readonly<Record<string, ProviderFactory>>;
  /** Where the eval file's paths and endpoints may lead (the CLI's --contain); checked when `source` is a path. */
  contain?: Pick<LoadOptions, 'contain' | 'endpoints'>;
  /** The environment a command retriever starts with and an HTTP retriever's header variables are read from. */
  retrieverEnv?: NodeJS.ProcessEnv;
  /** Told of each case as the run log reads it back, as it is logged: the CLI writes its reports while the run goes. */
  follower?: LogFollower;
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
  /** With a follower: what it was given, and what a reader of the log reads at its end. */
  followed?: FollowedLog;
}

type RunClients = Awaited<ReturnType<typeof createRunClients>>;
type Work = { suitePlan: SuitePlan; evalCase: EvalCase; model: RunClients['models'][number] };

/**
 * `source`: the eval file's path (the CLI, which loads nothing else), or the eval file already loaded (the extension
 * loads it once to price the run and hands it over, so what was priced is what runs and the file is not read again).
 */
export async function runEvaluation(source: string | EvalSpec, options: RunOptions): Promise<RunOutcome> {
  const emit = options.onEvent ?? (() => undefined);
  // A provider only a host has (vscode-lm) is reported at its line when this process lacks it (the CLI).
  const loaded = typeof source === 'string' ? await loadEvalSpec(source, { hostProviders: Object.keys(options.providers ?? {}), ...options.contain }) : source;
  const previous = options.resume ? await readPrevious(options.resume, loaded, options.retryErrors === true) : undefined;
  // A run started in batch mode is resumed in batch mode, so its batches are collected and the rest batched too.
  const batchRestored = previous?.header.batch === true && options.overrides?.batch === undefined;
  const spec = applyOverrides(loaded, batchRestored ? { ...options.overrides, batch: true } : options.overrides);
  const workspaceDir = options.workspaceDir ?? path.dirname(spec.file);
  const stateDir = path.join(workspaceDir, '.rag-inspector');

  // Batches are submitted only once cases run, after the log exists; the line is written before the first poll.
  const batchLog = new BatchLog(options.signal, previous?.batches ?? [], emit);
  const clients = await createRunClients(spec, options.credentials, options.noCache ? undefined : path.join(stateDir, 'cache'), options.providers, options.refreshCache, batchLog.options, (message) => emit({ type: 'warning', message }));
  // Started on its first question (nothing runs for a plan only counted), closed whenever the run ends.
  const retriever = runRetriever(spec, options.noCache ? undefined : path.join(stateDir, 'cache', 'retrieval'), options.refreshCache === true, options.retrieverEnv ?? process.env, {
    stateDir, credentials: options.credentials, noCache: options.noCache === true,
    onBuilt: ({ summary, problems }) => {
      // A document left out of the index (unreadable, a PDF without text) is said; the run searches the others.
      for (const problem of problems) emit({ type: 'warning', message: `index: ${problem.format()}` });
      emit({ type: 'index-built', summary });
    },
    onProgress: (progress) => emit({ type: 'index-progress', progress }),
  });
  try {
    return await runWithClients({ options, emit, spec, previous, batchRestored, stateDir, batchLog, clients, retriever });
  } finally {
    await retriever.close?.().catch(() => undefined);
  }
}

/** What the run has once its eval file is loaded and its clients and retriever are made. */
interface RunSetup {
  options: RunOptions;
  emit: (event: RunEvent) => void;
  spec: EvalSpec;
  previous: Awaited<ReturnType<typeof readPrevious>> | undefined;
  batchRestored: boolean;
  stateDir: string;
  batchLog: BatchLog;
  clients: RunClients;
  retriever: Retriever;
}

/** The run proper: count, check, run every case, write the summary. */
async function runWithClients(setup: RunSetup): Promise<RunOutcome> {
  const { options, emit, spec, previous, batchRestored, stateDir, batchLog, clients, retriever } = setup;
  const modelKeys = clients.models.map((m) => m.key);

  const finished = previous?.finished ?? new Set<string>();
  const wanted = (caseId: string, modelKey: string) => !finished.has(caseKey(caseId, modelKey)) && (!options.caseFilter || options.caseFilter(caseId, modelKey));

  // The count pass: every row read once (bad rows reported with file:line before the run starts), nothing rendered.
  let total = 0;
  const plan = await planSuites(spec, options.signal, (_suitePlan, evalCase) => {
    for (const key of modelKeys) if (wanted(evalCase.id, key)) total += 1;
  });
  for (const problem of plan.problems) emit({ type: 'input-problem', problem });

  // After the inputs were read (a bad file is reported before any server is contacted), before the run log exists.
  let check: Promise<void> = Promise.resolve();
  if (options.preflight) {
    // Only the servers some call will reach: a rerun the cache answers whole runs with its servers down.
    const reached = await uncachedEndpoints(plan, {
      models: clients.models, wanted, judge: clients.judge !== undefined, retriever: retriever.kind !== 'dataset', signal: options.signal,
      cacheAnswers: !options.noCache && !options.refreshCache,
      callFor: (suitePlan, evalCase, model) => completionCall(evalCase, templateParametersFor(suitePlan, model.spec)),
    });
    const scorers = reached.scorers ? [...(clients.judge ? [clients.judge] : []), ...(clients.embeddings ? [clients.embeddings] : [])] : [];
    const targets = [...clients.models.filter((m) => reached.models.has(m.key)), ...scorers]
      .map((m) => ({ key: m.key, model: m.key.slice(m.key.indexOf(':') + 1), provider: m.provider, ...('concurrency' in m ? { concurrency: m.concurrency } : {}) }));
    // The index's own endpoints (its embedding model, its reranker) too, when a suite searches it: like the models of a
    // run with a retriever, they are taken as reached, since which retrievals the cache answers is known only once the
    // index is built.
    const index = retriever.kind === 'index' && plan.suites.some((s) => s.suite.retrievalQuestions !== undefined) ? spec.index : undefined;
    const indexOptions = { credentials: options.credentials, env: options.retrieverEnv ?? process.env, signal: options.signal, timeoutMs: spec.timeoutMs };
    check = preflight(targets, options.signal, spec.timeoutMs)
      .then(async ({ warnings }) => [...warnings, ...(index ? (await preflightIndexes(index, [index], indexOptions)).warnings : [])])
      .then((warnings) => {
        for (const message of warnings) emit({ type: 'warning', message });
      });
  }
  // The check runs alongside the first calls (checkAlongside.ts), except where something would go out before any case
  // could be stopped: a vendor batch is submitted as calls arrive, rows prepared with the judge call it first, an
  // index is built (its chunks embedded) by the first retrieval, and a resumed log is reopened (and locked) before
  // anything runs.
  const overlap = !previous && !spec.models.some((m) => m.batch) && spec.judge?.batch !== true && !(clients.judge && plan.suites.some((s) => s.suite.prepareRow)) && retriever.kind !== 'index';
  if (!overlap) await check;
  // Alongside the first wave, a check cut short by the user's cancel is no failure of the check: the run ends cancelled
  // with the cases that finished, as it would have a moment later.
  const checked = overlap ? check.catch((error: unknown) => {
    if (!options.signal.aborted) throw error;
  }) : check;
  const alongside = new CheckAlongside(checked, overlap ? clients.models.reduce((sum, m) => sum + m.concurrency, 0) : 0);
  const runSignal = AbortSignal.any([options.signal, alongside.signal]);

  let following: Awaited<ReturnType<typeof followLog>> | undefined;
  const runId = previous?.header.runId ?? newRunId(new Date());
  const createdAt = previous?.header.createdAt ?? new Date().toISOString();
  // Opened once the check passed: a run it stops leaves no log.
  const opened = alongside.passed.then(async () => {
    const writer = previous
      ? await RunLogWriter.reopen(options.resume!)
      : await RunLogWriter.create(path.join(stateDir, 'runs'), { ...await headerFor(runId, spec, plan, modelKeys), ...(options.overrides?.batch === true ? { batch: true as const } : {}) });
    batchLog.writeTo(writer);
    emit({ type: 'run-started', runId, logFile: writer.file, total, models: modelKeys, suites: spec.suites.map((s) => s.id), resumed: finished.size, concurrency: spec.concurrency, ...(batchRestored ? { batchRestored } : {}) });
    // The tables (and the follower's reports) are fed as each case is logged: a resumed run's earlier cases first.
    following = await followLog(writer, plan.suites, previous ? { finished } : undefined, modelKeys, options.follower);
    return writer;
  });
  opened.catch(() => undefined);

  // The judge's usage while preparing rows belongs to no case result; it is added to the run's totals.
  const preparation: JudgeUsage = { inputTokens: 0, outputTokens: 0, calls: 0, costUsd: 0 };

  /** Cases pulled one at a time and rendered then: never the whole run's prompts in memory. */
  async function* pending(): AsyncGenerator<Work> {
    try {
      for (const suitePlan of plan.suites) yield* suiteWork(suitePlan);
    } catch (error) {
      // Cancelled while a row was being prepared: nothing of that row runs, and the run ends as cancelled.
      if (!options.signal.aborted) throw error;
    }
  }

  // Rows a method prepares with the judge (Suite.prepareRow) are prepared as the run pulls their cases: after the
  // preflight, through the judge's cache, as many rows at once as the judge takes calls, reported live when one cannot be.
  const judge = clients.judge ? createJudge(countingJudge(clients.judge.client, preparation), options.signal) : undefined;

  async function* suiteWork(suitePlan: SuitePlan): AsyncGenerator<Work> {
    const reporter = problemReporter(plan.problems, suitePlan.spec.id, (problem) => emit({ type: 'input-problem', problem }));
    const expand = {
      reporter,
      prepare: { judge, retriever },
      prepareAhead: clients.judge?.concurrency,
      wanted: (caseId: string) => clients.models.some((m) => wanted(caseId, m.key)),
      // Counted in `total` but never run (the judge rejected the row): later progress events carry the corrected total.
      onDropped: (cases: EvalCase[]) => {
        for (const evalCase of cases) if (!variablesProblem(suitePlan, evalCase)) total -= clients.models.filter((m) => wanted(evalCase.id, m.key)).length;
      },
    };
    for await (const evalCase of expandedCases(suitePlan, options.signal, expand)) {
      const models = clients.models.filter((m) => wanted(evalCase.id, m.key));
      // Reported by the count pass before the run started, and not in `total`.
      if (models.length === 0 || variablesProblem(suitePlan, evalCase)) continue;
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

  let done = 0;
  // Each model's scheduler bounds its own calls; the pool only keeps enough work queued to feed them all.
  const width = clients.models.reduce((sum, m) => sum + m.concurrency, 0) * 2;
  let writer: RunLogWriter;
  try {
    await forEachConcurrent(pending(), width, options.signal, async ({ suitePlan, evalCase, model }) => {
      await alongside.admit();
      const result = await executeCase({
        evalCase,
        suite: suitePlan.suite,
        params: suitePlan.params,
        modelKey: model.key,
        client: model.client,
        judge: clients.judge?.client,
        embeddings: clients.embeddings?.client,
        templateParameters: templateParametersFor(suitePlan, model.spec),
        signal: runSignal,
        ...(model.spec.truncated ? { truncated: model.spec.truncated } : {}),
        ...(spec.judgeSamples ? { judgeSamples: spec.judgeSamples } : {}),
      });
      // A case cut short by cancel is not finished: leave it out of the log so --resume runs it again.
      if (options.signal.aborted && result.status === 'error' && result.error?.kind === 'cancelled') return;
      // The log is the only record kept of a finished case: the tables are computed from it at the end.
      const log = await opened;
      log.appendCase({ type: 'case', case: evalCase, result });
      done += 1;
      emit({ type: 'case-finished', evalCase, result, done, total });
      await following!.fed();
    });
    // A failed check ends the run here with its own error, whatever the first wave did.
    writer = await opened;
    // A batch being created when the run was cancelled is recorded (and cancelled) before the log is summed up.
    await batchLog.submissionsSettled();
    await following!.flush();
  } catch (error) {
    const log = await opened.catch(() => undefined);
    // The check failed: no log was opened, and the check's error is the one to tell.
    if (!log) throw alongside.signal.aborted ? alongside.signal.reason : error;
    // Closed (and so unlocked) whatever happens here: a log left locked could not be resumed by this process.
    try {
      await batchLog.submissionsSettled();
      if (isDetached(options.signal)) detach(log, options.signal);
      const { totals } = await tablesFromLog(log.file, [], callCounts(clients, previous?.calls));
      log.appendSummary(summaryLine('error', withJudgeUsage(totals, preparation), [], [], plan.problems));
    } finally {
      log.close();
      await following?.close();
    }
    throw error;
  }
  const logFile = writer.file;

  let summary: SummaryLine;
  let reports: SuiteReport[];
  let thresholds: ThresholdOutcome[];
  let status: RunStatus;
  let followed: FollowedLog | undefined;
  try {
    if (isDetached(options.signal)) detach(writer, options.signal);
    // The tables fed as the cases were logged, unless what was fed is not what a reader of the log reads (followLog.ts).
    const streamed = following!.exact() ? following!.tables : undefined;
    const tables = streamed ? streamed.finish(callCounts(clients, previous?.calls)) : await tablesFromLog(logFile, plan.suites, callCounts(clients, previous?.calls));
    reports = tables.reports;
    const counted = withJudgeUsage(tables.totals, preparation);
    status = options.signal.aborted ? 'cancelled' : finishedStatus(counted);
    thresholds = evaluateThresholds(spec.suites, reports, modelKeys);
    summary = summaryLine(status, counted, reports, thresholds, plan.problems);
    writer.appendSummary(summary);
    followed = following!.end();
  } finally {
    writer.close();
    await following?.close();
  }

  const totals = summary.totals;
  emit({ type: 'run-finished', runId, logFile, status, totals, reports, thresholds });
  return { runId, createdAt, logFile, status, totals, reports, thresholds, spec, problems: plan.problems, ...(options.follower ? { followed } : {}) };
}

/**
 * A run whose host went away (detach.ts): the log is closed as it is — every finished case and submitted batch in
 * it, no summary — so it reads as interrupted and a resume collects its batches; the run ends by throwing the reason.
 */
function detach(writer: RunLogWriter, signal: AbortSignal): never {
  writer.close();
  throw signal.reason;
}

/** The spec a run uses: models, concurrency and batch mode from the command line or the extension's settings win over the file's. */
export function applyOverrides(spec: EvalSpec, overrides: RunOptions['overrides']): EvalSpec {
  if (!overrides) return spec;
  const models = overrides.models?.length ? overrides.models : spec.models;
  // "Batch mode on" (--batch, the VS Code setting) is for the models that can be batched: an extractive baseline or
  // a chat model from VS Code runs as before. Only the eval file's own `batch: true` on such a model is an error.
  const batched = (model: ModelSpec): ModelSpec => {
    if (overrides.batch === false && model.batch) return { ...model, batch: false };
    return overrides.batch && BATCH_PROVIDER_NAMES.includes(model.provider) ? { ...model, batch: true } : model;
  };
  return {
    ...spec,
    models: models.map(batched),
    ...(spec.judge ? { judge: batched(spec.judge) } : {}),
    concurrency: overrides.concurrency ?? spec.concurrency,
  };
}

/** Front-matter parameters apply unless the eval file set the same parameter on the model. */
export function templateParametersFor(suitePlan: SuitePlan, model: ModelSpec): Record<string, unknown> {
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

/** The earlier sessions of a resumed run: which pairs are done, and what they spent; streamed from the log, no case kept. */
async function readPrevious(file: string, spec: EvalSpec, retryErrors: boolean) {
  const scan = await scanRunLog(file);
  if (scan.header.spec.hash !== spec.hash) {
    throw new Error(`${file}: the eval file changed since this run started (${scan.header.spec.file}); resume needs the same eval file — start a new run instead`);
  }
  const finished = new Set(scan.winners.keys());
  // A pair run again is appended to the log; its new line wins over the errored one in every report.
  if (retryErrors) for (const key of await keysOfResults(file, endedInError)) finished.delete(key);
  return { header: scan.header, finished, calls: await loggedCalls(scan), batches: scan.batches };
}

/** Calls this process made (its clients count retries and cache hits), plus what earlier sessions of a resumed run made. */
function callCounts(clients: RunClients, earlier: CallCounts = { modelCalls: 0, cacheHits: 0, judgeCalls: 0 }): CallCounts {
  const failedAttempts = failedAttemptSpend([...clients.models.map((m) => m.client.counters), ...(clients.judge ? [clients.judge.client.counters] : [])], earlier.failedAttempts);
  return {
    modelCalls: earlier.modelCalls + clients.models.reduce((n, m) => n + m.client.counters.providerCalls, 0),
    cacheHits: earlier.cacheHits + clients.models.reduce((n, m) => n + m.client.counters.cacheHits, 0) + (clients.judge?.client.counters.cacheHits ?? 0),
    judgeCalls: earlier.judgeCalls + (clients.judge?.client.counters.providerCalls ?? 0),
    ...(failedAttempts ? { failedAttempts } : {}),
  };
}

/** The failed attempts' tokens over the clients (and earlier sessions), their cost unknown once any is; undefined when none. */
function failedAttemptSpend(counters: readonly Readonly<ModelCallCounters>[], earlier: FailedAttemptSpend | undefined): FailedAttemptSpend | undefined {
  let spend: FailedAttemptSpend = earlier ?? { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  for (const c of counters) {
    const costUsd = spend.costUsd === undefined || c.failedAttemptCostUsd === undefined ? undefined : spend.costUsd + c.failedAttemptCostUsd;
    spend = { inputTokens: spend.inputTokens + c.failedAttemptTokens.inputTokens, outputTokens: spend.outputTokens + c.failedAttemptTokens.outputTokens, ...(costUsd === undefined ? {} : { costUsd }) };
  }
  return spend.inputTokens + spend.outputTokens > 0 ? spend : undefined;
}

function summaryLine(status: RunStatus, totals: RunTotals, reports: SuiteReport[], thresholds: ThresholdOutcome[], problems: InputProblem[]) {
  return { type: 'summary' as const, status, finishedAt: new Date().toISOString(), totals, reports, thresholds, problems };
}
