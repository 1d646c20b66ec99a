// Explains cases of a finished run: each variant runs as an ordinary case through executeCase (the run's scheduler,
// cache and the method's scorer), is appended to the variant log as a marked case, and the explanations are computed
// from the logged outcomes. Cancel keeps every finished variant; running again makes only the ones missing.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { writeFileAtomically } from '../atomicFile.js';
import { readRegularFile } from '../regularFile.js';
import type { FileProblem } from '../regularFile.js';
import * as path from 'node:path';
import { executeCase } from '../engine/executeCase.js';
import { templateParametersFor } from '../engine/runEvaluation.js';
import { caseKey } from '../model.js';
import { forEachConcurrent } from '../pool.js';
import { RunLogWriter, workspaceOfRunLog } from '../run/runLog.js';
import { aggregateSuites } from './aggregate.js';
import { priceSession } from './costPlan.js';
import type { CaseExplanation, ExplainEvent, ExplainPlan, RunExplanation, VariantOutcome } from './model.js';
import { FLIP, comparesByVerdict, outcomeValue, variantOutcome } from './outcome.js';
import { checkVariant } from './faithfulness.js';
import { explanationOf, explanationsDir, openSession, variantWork } from './session.js';
import type { Session, SessionOptions, Target, VariantWork } from './session.js';
import type { EvalSpec } from '../spec/types.js';

export interface ExplainRunOptions extends SessionOptions {
  onEvent?: (event: ExplainEvent) => void;
  /**
   * Asked first, with the eval file as the variants would run it (an untrusted workspace asks the user about the
   * endpoints it chose); false stops there with `refused`, before the cost question and any call.
   */
  allowed?: (spec: EvalSpec) => Promise<boolean>;
  /** Called with the plan before any call; return false to stop there (a declined cost). */
  confirm?: (plan: ExplainPlan) => boolean | Promise<boolean>;
}

export interface ExplainRunOutcome {
  plan: ExplainPlan;
  /** Undefined when `allowed` refused or `confirm` declined. */
  explanation?: RunExplanation;
  /** `allowed` said no: nothing was asked or sent. */
  refused?: true;
  /** The stored explanation, `.rag-inspector/explanations/<run-id>.json`. */
  file: string;
}

/** The cost of explaining, with no call made: what `explainRun` would run with the same options. */
export async function planExplanation(runLog: string, options: SessionOptions): Promise<ExplainPlan> {
  const session = await openSession(runLog, options);
  return priceSession(session, options.maxCalls);
}

export async function explainRun(runLog: string, options: ExplainRunOptions): Promise<ExplainRunOutcome> {
  const emit = options.onEvent ?? (() => undefined);
  const session = await openSession(runLog, options);
  const plan = await priceSession(session, options.maxCalls);
  const file = explanationFile(session.workspaceDir, session.header.runId);
  if (options.allowed && !(await options.allowed(session.spec))) return { plan, file, refused: true };
  if (options.confirm && !(await options.confirm(plan))) return { plan, file };

  const writer = existsSync(session.variantLog)
    ? await RunLogWriter.reopen(session.variantLog)
    : await RunLogWriter.create(explanationsDir(session.workspaceDir), { ...session.header, createdAt: new Date().toISOString() });
  session.batchLog.writeTo(writer);
  emit({ type: 'explain-started', plan, variantLog: writer.file });

  const work = session.targets.flatMap((t) => t.pending);
  const remaining = new Map(session.targets.map((t) => [t, t.pending.length]));
  // The budgeted faithfulness checks are in the total from the start; one that turns out free leaves it.
  let total = work.length + session.targets.filter((t) => t.checkBudgeted).length;
  let done = 0;
  const width = session.clients.models.reduce((sum, m) => sum + m.concurrency, 0) * 2;
  const run = async (item: VariantWork) => {
    const outcome = await runVariant(session, item, options.signal);
    if (!outcome) return;
    writer.appendCase({ case: item.evalCase, result: outcome.result });
    for (const id of item.mark.variants) item.target.done.set(id, variantOutcome(id, outcome.result));
    done += 1;
    const finished = item.target.done.get(item.mark.variants[0] as string) as VariantOutcome;
    emit({ type: 'variant-finished', caseId: item.target.evalCase.id, modelKey: item.model.key, variantIds: item.mark.variants, outcome: finished, done, total, flipped: flips(item.target.done.get('original'), finished) });
  };
  try {
    // First every planned variant; a case whose variants are all in has its attributions, so its faithfulness check
    // (the credited sources removed together) can be planned and run, before the case is reported explained.
    const checks: VariantWork[] = [];
    const planCheck = async (target: Target) => {
      const check = target.checkBudgeted && !options.signal.aborted ? await checkWork(target) : undefined;
      if (target.checkBudgeted && !check) total -= 1;
      if (check) checks.push(check);
      else emit({ type: 'case-explained', explanation: explanationOf(target) });
    };
    for (const target of session.targets) if (target.pending.length === 0) await planCheck(target);
    await forEachConcurrent(work, width, options.signal, async (item) => {
      await run(item);
      const left = (remaining.get(item.target) as number) - 1;
      remaining.set(item.target, left);
      if (left === 0) await planCheck(item.target);
    });
    await forEachConcurrent(checks, width, options.signal, async (item) => {
      await run(item);
      emit({ type: 'case-explained', explanation: explanationOf(item.target) });
    });
  } finally {
    // A batch being created when the explanation was cancelled is recorded before the log closes (batchLog.ts).
    await session.batchLog.submissionsSettled();
    writer.close();
  }

  const cases = session.targets.map(explanationOf);
  const explanation = await store(file, session, cases, options.signal.aborted ? 'cancelled' : 'complete');
  emit({ type: 'explain-finished', explanation, file });
  return { plan, explanation, file };
}

/** Whether a variant's outcome differs from the original's, compared as the explanation compares them. */
function flips(original: VariantOutcome | undefined, outcome: VariantOutcome): boolean {
  const byVerdict = comparesByVerdict(original);
  const before = outcomeValue(original, byVerdict);
  const after = outcomeValue(outcome, byVerdict);
  return before !== null && after !== null && Math.abs(after - before) >= FLIP;
}

/** The faithfulness check's own run, when the case's explanation needs one no variant already answers. */
async function checkWork(target: Target): Promise<VariantWork | undefined> {
  const explanation = explanationOf(target);
  if (explanation.faithfulness?.status !== 'not-run') return undefined;
  const spec = checkVariant(explanation);
  return spec ? variantWork(target, [spec]) : undefined;
}

/** One variant through the engine; undefined when cancel cut it short (not logged, so it runs again on resume). */
async function runVariant(session: Session, item: VariantWork, signal: AbortSignal) {
  const suitePlan = item.target.suitePlan;
  const result = await executeCase({
    evalCase: item.evalCase,
    suite: suitePlan.suite,
    params: suitePlan.params,
    modelKey: item.model.key,
    client: item.model.client,
    judge: session.clients.judge?.client,
    embeddings: session.clients.embeddings?.client,
    templateParameters: templateParametersFor(suitePlan, item.model.spec),
    signal,
  });
  if (signal.aborted && result.status === 'error' && result.error?.kind === 'cancelled') return undefined;
  return { result };
}

export function explanationFile(workspaceDir: string, runId: string): string {
  return path.join(explanationsDir(workspaceDir), `${runId}.json`);
}

/** A run log's explanation file: the log is `<workspace>/.rag-inspector/runs/<run-id>.jsonl`, as openSession assumes. */
export function explanationFileOfRunLog(runLog: string, runId: string): string {
  return explanationFile(workspaceOfRunLog(runLog), runId);
}

/** The stored explanation of a run, or undefined when none was made. */
export async function readExplanation(file: string): Promise<RunExplanation | undefined> {
  let text: string;
  try {
    text = (await readRegularFile(file)).toString('utf8'); // a named pipe in its place would block the report
  } catch (error) {
    if ((error as FileProblem).kind === 'missing') return undefined;
    throw error;
  }
  const value = JSON.parse(text) as RunExplanation;
  if (value.format !== 1) throw new Error(`${file}: explanation format ${String(value.format)} is not one this version reads`);
  return value;
}

/**
 * Cases explained earlier and not now are kept, so explaining one case adds to a run's explanation rather than
 * replacing it. Written to a temporary file and renamed, so a reader never sees half of it.
 */
async function store(file: string, session: Session, cases: CaseExplanation[], status: RunExplanation['status']): Promise<RunExplanation> {
  const earlier = await readExplanation(file).catch(() => undefined);
  const fresh = new Set(cases.map((c) => caseKey(c.caseId, c.modelKey)));
  const all = [...(earlier?.cases ?? []).filter((c) => !fresh.has(caseKey(c.caseId, c.modelKey))), ...cases];
  const counters = session.clients.models.reduce((n, m) => ({ model: n.model + m.client.counters.providerCalls, cached: n.cached + m.client.counters.cacheHits }), { model: 0, cached: 0 });
  const explanation: RunExplanation = {
    format: 1,
    runId: session.header.runId,
    runLog: path.resolve(session.runLog),
    variantLog: session.variantLog,
    createdAt: new Date().toISOString(),
    status,
    cases: all,
    suites: aggregateSuites(all),
    calls: { ...counters, judge: session.clients.judge?.client.counters.providerCalls ?? 0 },
  };
  await mkdir(path.dirname(file), { recursive: true });
  await writeFileAtomically(file, `${JSON.stringify(explanation, null, 1)}\n`);
  return explanation;
}
