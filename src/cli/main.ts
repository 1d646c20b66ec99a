// `rag-inspector`: the command line over core, for CI and terminals; same eval files as the extension.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describeError, formatPosition, InputError, InputErrors } from '../core/errors.js';
import { causeLine, errorCausesOf, ErrorCauseTally } from '../core/errorCauses.js';
import { PreflightError } from '../core/engine/preflight.js';
import { failedOrErrored, keysOfResults } from '../core/engine/rerunSelection.js';
import { caseKey, outcomeStatus, runStatusLabel } from '../core/model.js';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import type { RunEvent } from '../core/engine/events.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { envCredentials } from '../core/providers/registry.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import type { RunData } from '../core/report/runData.js';
import { writeReports } from '../core/report/writeReports.js';
import { listRuns } from '../core/run/runLog.js';
import { parseCommandLine, USAGE, UsageError } from './args.js';
import type { ExplainCommand, RunCommand } from './args.js';
import { explainFromCli, explainInvocation } from './explain.js';
import { explanationFile, readExplanation } from '../core/explain/explainRun.js';
import { writeExplanationReports } from '../core/report/explanationReport.js';
import { runGenerateCounterfactual } from './generateCounterfactual.js';
import { exportRunTraces } from './exportTraces.js';
import { runImportTraces } from './importTraces.js';
import { createProgress } from './progress.js';
import { BatchProgressLines } from '../core/engine/batchProgress.js';
import { formatCauses, formatProblem, formatReports, formatThresholds, formatTotals } from './summaryText.js';

const EXIT_OK = 0;
const EXIT_THRESHOLD_FAILED = 1;
const EXIT_ERROR = 2;
const EXIT_CANCELLED = 130;

export async function main(argv: string[]): Promise<number> {
  try {
    if (argv[0] === 'import-traces') return await runImportTraces(argv.slice(1));
    const command = parseCommandLine(argv);
    switch (command.command) {
      case 'help':
        process.stdout.write(`${USAGE}\n`);
        return EXIT_OK;
      case 'run':
        return await runCommand(command);
      case 'report': {
        const run = await runDataFromLog(command.logFile);
        const workspaceDir = path.dirname(path.dirname(path.dirname(path.resolve(command.logFile))));
        const out = command.out ?? defaultReportDir(workspaceDir, run.runId);
        // A run explained earlier gets its explanation reports again too.
        const explanation = await readExplanation(explanationFile(workspaceDir, run.runId));
        printRun(run, [...await writeReports(run, out, command.formats), ...(explanation ? await writeExplanationReports(explanation, out, command.formats) : [])], await causesOf(run));
        await exportRunTraces(run, command.exportOtlp);
        return exitCodeFor(run);
      }
      case 'generate-counterfactual':
        return await runGenerateCounterfactual(command);
      case 'explain':
        return await explainCommand(command);
      case 'runs': {
        const runs = await listRuns(path.join(command.folder, '.rag-inspector', 'runs'));
        for (const run of runs) {
          const status = run.status === 'unreadable' ? run.status : outcomeStatus(run.status, run.summary?.totals);
          process.stdout.write(`${run.runId}  ${runStatusLabel(status).padEnd(10)}  ${run.header?.spec.name ?? run.problem ?? ''}  ${run.file}\n`);
        }
        if (runs.length === 0) process.stdout.write('no runs yet\n');
        return EXIT_OK;
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`rag-inspector: ${error.message}\n\n${USAGE}\n`);
    } else if (error instanceof PreflightError) {
      process.stderr.write(`rag-inspector: ${error.message}\n`);
    } else if (error instanceof InputErrors) {
      for (const e of error.errors) process.stderr.write(`${e.format()}\n`);
    } else {
      process.stderr.write(`rag-inspector: ${describeError(error)}\n`);
    }
    return EXIT_ERROR;
  }
}

/** Ctrl-C cancels (finished work is on disk); a second one quits at once. */
function cancelOnSigint(controller: AbortController, note: (line: string) => void): () => void {
  let interrupts = 0;
  const onSigint = () => {
    interrupts += 1;
    if (interrupts > 1) process.exit(EXIT_CANCELLED); // a second Ctrl-C means now; finished cases are already on disk
    note('cancelling: finishing the log (Ctrl-C again to quit at once)…');
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  return onSigint;
}

function explainError(message: string, hint: string | undefined): undefined {
  process.stderr.write(`rag-inspector: ${message}\n${hint ? `  ${hint}\n` : ''}`);
  return undefined;
}

async function explainCommand(command: ExplainCommand): Promise<number> {
  // Explain's own errors (no such run, no such case) are two lines — what is wrong, then what to do — not the usage.
  const runLog = await resolveRun(command.run, process.cwd(), 'explain').catch((error: unknown) => {
    if (error instanceof UsageError) return explainError(error.message, 'explain takes a run log path, a run id or latest');
    throw error;
  });
  if (runLog === undefined) return EXIT_ERROR;
  const controller = new AbortController();
  const onSigint = cancelOnSigint(controller, (line) => process.stderr.write(`${line}\n`));
  try {
    const explanation = await explainFromCli(explainInvocation(command, runLog, controller.signal));
    if (explanation?.status === 'cancelled') {
      process.stderr.write(`cancelled: finish it with  rag-inspector explain ${command.run} (finished variants are kept)\n`);
      return EXIT_CANCELLED;
    }
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    explainError(`${formatPosition(error.position)}: ${error.message}`, error.hint);
    return EXIT_ERROR;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

async function runCommand(command: RunCommand): Promise<number> {
  const specFile = path.resolve(command.specFile);
  const workspaceDir = path.dirname(specFile);
  const controller = new AbortController();
  const progress = createProgress(process.stderr, command.quiet);
  const onSigint = cancelOnSigint(controller, (line) => progress.note(line));
  try {
    const counts = { failed: 0, errors: 0 };
    // Each cause of an error is printed once, when it first happens: the user can stop a run that cannot work.
    let causes = new ErrorCauseTally();
    const rerun = command.rerunFailed ? await rerunSelection(command.rerunFailed, workspaceDir) : undefined;
    const batchLines = new BatchProgressLines();
    const outcome = await runEvaluation(specFile, {
      signal: controller.signal,
      credentials: envCredentials(process.env),
      workspaceDir,
      noCache: command.noCache,
      refreshCache: command.refresh,
      preflight: command.preflight,
      resume: command.resume ? await resolveRun(command.resume, workspaceDir, '--resume') : undefined,
      retryErrors: command.retryErrors,
      caseFilter: rerun ? (caseId, modelKey) => rerun.has(caseKey(caseId, modelKey)) : undefined,
      overrides: { models: command.models, concurrency: command.concurrency, batch: command.batch },
      contain: command.contain ? containOptions(workspaceDir, command.contain.allowEndpoints) : undefined,
      onEvent: (event: RunEvent) => {
        if (event.type === 'input-problem') progress.note(`warning: ${formatProblem(event.problem)}`);
        if (event.type === 'warning') progress.note(`warning: ${event.message}`);
        if (event.type === 'batch') {
          const line = batchLines.lineFor(event);
          if (line) progress.note(line);
        }
        if (event.type === 'run-started') causes = new ErrorCauseTally({ concurrency: event.concurrency });
        if (event.type === 'run-started') progress.note(`run ${event.runId}: ${event.total} case runs on ${event.models.join(', ')}${event.resumed ? ` (${event.resumed} already done)` : ''}\nlog: ${event.logFile}`);
        if (event.type === 'case-finished') {
          if (event.result.status === 'error') counts.errors += 1;
          else if (event.result.pass === false) counts.failed += 1;
          const first = causes.add(event.result);
          if (first) progress.note(`error: ${causeLine(first)} (first: ${first.firstCaseId} on ${first.firstModelKey})`);
          progress.update(event.done, event.total, counts);
        }
      },
    });
    progress.finish();
    // Reports are written from the run log, one case at a time: the engine keeps no case in full.
    const run = await runDataFromLog(outcome.logFile);
    const out = command.out ? path.resolve(command.out) : defaultReportDir(workspaceDir, run.runId);
    printRun(run, await writeReports(run, out, command.formats), await causesOf(run, outcome.spec.concurrency));
    await exportRunTraces(run, command.exportOtlp, command.contain);
    // A finished run resumed without --retry-errors runs nothing new: say how to run its errored cases again.
    if (command.resume && !command.retryErrors && run.totals.error > 0) {
      process.stderr.write(`${run.totals.error} case(s) of this run ended in an error: run them again with  rag-inspector run ${command.specFile} --resume ${run.runId} --retry-errors\n`);
    }
    if (outcome.status === 'cancelled') {
      process.stderr.write(`cancelled: finish it with  rag-inspector run ${command.specFile} --resume ${run.runId}\n`);
      return EXIT_CANCELLED;
    }
    // `explain:` in the eval file: the failures explained right after the run, into the same report folder.
    const explain = outcome.spec.explain;
    if (explain?.failed && run.totals.failed + run.totals.error > 0) {
      await explainFromCli({
        runLog: outcome.logFile, workspaceDir, caseIds: [], failed: true, variants: explain.variants, subsets: explain.subsets, segments: explain.segments,
        maxCalls: explain.maxCalls, noCache: command.noCache, planOnly: false, quiet: command.quiet, out, formats: command.formats, signal: controller.signal,
      });
    }
    return exitCodeFor(run);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** --contain: the eval file's folder tree is all it may read, and only the endpoints its runner listed receive anything. */
function containOptions(folder: string, allowEndpoints: string[]): RunOptions['contain'] {
  return {
    contain: {
      roots: [folder],
      reason: "--contain: paths outside the eval file's folder are not read",
      hint: `keep datasets, templates and haystacks under ${folder}, or run without --contain if you trust this eval file`,
    },
    endpoints: {
      allowed: allowEndpoints,
      reason: '--contain: the eval file chose this endpoint',
      hint: (url) => `add --allow-endpoint ${url} if it is yours, or remove baseUrl to use OPENAI_BASE_URL / the vendor's API`,
    },
  };
}

function defaultReportDir(workspaceDir: string, runId: string): string {
  return path.join(workspaceDir, '.rag-inspector', 'reports', runId);
}

/** --resume, --rerun-failed and explain take a log path, a run id, or "latest". */
async function resolveRun(value: string, workspaceDir: string, flag: string): Promise<string> {
  const runsDir = path.join(workspaceDir, '.rag-inspector', 'runs');
  if (value === 'latest') {
    const [newest] = await listRuns(runsDir);
    if (!newest) throw new UsageError(`${flag} latest: there are no runs under ${runsDir}`);
    return newest.file;
  }
  if (existsSync(value)) return path.resolve(value);
  const byId = path.join(runsDir, `${value}.jsonl`);
  if (existsSync(byId)) return byId;
  throw new UsageError(`${flag} ${value}: no such run log or run id under ${runsDir} (rag-inspector runs lists them)`);
}

/** The (case, model) pairs of a run whose latest result failed or ended in an error. */
async function rerunSelection(run: string, workspaceDir: string): Promise<Set<string>> {
  const logFile = await resolveRun(run, workspaceDir, '--rerun-failed');
  const keys = await keysOfResults(logFile, failedOrErrored);
  if (keys.size === 0) throw new UsageError(`--rerun-failed: run ${path.basename(logFile, '.jsonl')} has no failed or errored cases`);
  return keys;
}

/** The run's error causes, grouped, from its log (a resumed run's earlier errors included). */
async function causesOf(run: RunData, concurrency?: number) {
  const results = [];
  for await (const entry of run.entries()) if (entry.result.status === 'error') results.push(entry.result);
  return errorCausesOf(results, { concurrency });
}

function printRun(run: RunData, written: string[], causes: ReturnType<typeof errorCausesOf>): void {
  const out = process.stdout;
  out.write(`\n${formatReports(run.reports)}\n\n`);
  const thresholds = formatThresholds(run.thresholds);
  if (thresholds) out.write(`${thresholds}\n\n`);
  if (run.problems.length) out.write(`Input problems (${run.problems.length}):\n${run.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n\n`);
  if (causes.length) out.write(`${formatCauses(causes)}\n\n`);
  out.write(`${formatTotals(run.totals)}\nStatus: ${runStatusLabel(run.status)}\nReports: ${written.join(', ')}\n`);
}

function exitCodeFor(run: RunData): number {
  if (run.status === 'error' || run.totals.error > 0 || run.problems.length > 0) return EXIT_ERROR;
  if (run.thresholds.some((t) => !t.passed)) return EXIT_THRESHOLD_FAILED;
  return EXIT_OK;
}

if (require.main === module) {
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}
