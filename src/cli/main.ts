// `rag-inspector`: the command line over core, for CI and terminals; same eval files as the extension.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { describeError, formatPosition, InputError, InputErrors } from '../core/errors.js';
import { causeLine, ErrorCauseTally } from '../core/errorCauses.js';
import type { ErrorCause } from '../core/errorCauses.js';
import { PreflightError } from '../core/engine/preflight.js';
import { failedOrErrored, keysOfResults } from '../core/engine/rerunSelection.js';
import { caseKey, outcomeStatus, runStatusLabel } from '../core/model.js';
import { runEvaluation } from '../core/engine/runEvaluation.js';
import type { RunEvent } from '../core/engine/events.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { envCredentials } from '../core/providers/registry.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import { LiveReports } from '../core/report/liveReports.js';
import type { RunData } from '../core/report/runData.js';
import { reportFolderProblem, writeReports } from '../core/report/writeReports.js';
import type { ReportWriter } from '../core/report/reportPass.js';
import type { VerdictsReportOptions } from '../core/report/verdictsReport.js';
import { listRuns, workspaceOfRunLog } from '../core/run/runLog.js';
import { isInside } from '../core/spec/containment.js';
import { parseCommandLine, USAGE, UsageError } from './args.js';
import type { ExplainCommand, RunCommand } from './args.js';
import { explainFromCli, explainInvocation } from './explain.js';
import { explanationFile, explanationFileOfRunLog, readExplanation } from '../core/explain/explainRun.js';
import { writeExplanationReports } from '../core/report/explanationReport.js';
import { failureCausesOfRun } from '../core/report/failureCauses.js';
import { runGenerateCounterfactual } from './generateCounterfactual.js';
import { exportRunTraces } from './exportTraces.js';
import { runImportTraces } from './importTraces.js';
import { runSweepCommand } from './sweep.js';
import { runGenerateQuestions } from './generateQuestions.js';
import { runIndexCommand } from './indexCommand.js';
import { IndexProgressLines } from './indexProgress.js';
import { formatComparison } from '../core/report/comparisonText.js';
import { hasRegression, runCompare } from './compare.js';
import { runMcpServer } from './mcp.js';
import { runLogCommand } from './log.js';
import { comparePaired } from '../core/report/pairedComparison.js';
import { createProgress } from './progress.js';
import { BATCH_RESTORED_LINE, invocation, rerunCacheHint, resumeHint, retryErrorsHint } from './hints.js';
import { commandHelp, helpLine, wantsHelp } from './commandHelp.js';
import { latestRunUnder, NoRunsError } from './latestRun.js';
import { BatchProgressLines } from '../core/engine/batchProgress.js';
import { formatCauses, formatProblem, formatReports, formatThresholds, formatTotals } from '../core/report/summaryText.js';
import { print } from './terminal.js';
import { describeBuild } from '../core/corpus/build.js';
import { loadBundlesWith } from '../core/vendor/load.js';

const EXIT_OK = 0;
const EXIT_THRESHOLD_FAILED = 1;
const EXIT_ERROR = 2;
const EXIT_CANCELLED = 130;

export async function main(argv: string[]): Promise<number> {
  try {
    // `<command> --help` (or -h, or `help <command>`): that command's own help, before anything else is checked.
    if (wantsHelp(argv) || argv[0] === 'help') {
      print(process.stdout, `${commandHelp(argv[0] === 'help' ? (argv[1] ?? '') : (argv[0] ?? '')) ?? USAGE}\n`);
      return EXIT_OK;
    }
    if (argv[0] === 'import-traces') return await runImportTraces(argv.slice(1));
    if (argv[0] === 'sweep') return await sweepCommand(argv.slice(1));
    if (argv[0] === 'generate-questions') return await runGenerateQuestions(argv.slice(1));
    if (argv[0] === 'index') return await runIndexCommand(argv.slice(1), { containOptions, cancelOnSigint });
    if (argv[0] === 'compare') return await runCompare(argv.slice(1), (run) => resolveRun(run, process.cwd(), 'compare'));
    if (argv[0] === 'log') return await runLogCommand(argv.slice(1), async (run) => (run === 'latest' ? await latestUnder(process.cwd(), 'log') : await resolveRun(run, process.cwd(), 'log')));
    if (argv[0] === 'mcp') return await runMcpServer(argv.slice(1), {
      // A run id or "latest" is looked up in the folder's runs; a path (it has a separator) is relative to the folder.
      resolveRun: (run, folder) => resolveRun(/[\\/]/.test(run) ? path.resolve(folder, run) : run, folder, 'run'),
      containOptions,
    });
    const command = parseCommandLine(argv);
    switch (command.command) {
      case 'help':
        print(process.stdout, `${USAGE}\n`);
        return EXIT_OK;
      case 'run':
        return await runCommand(command);
      case 'report': {
        const run = await runDataFromLog(command.logFile);
        // A log kept outside `.rag-inspector/runs/` gets its reports under its own folder, never above it.
        const workspaceDir = workspaceOfRunLog(command.logFile);
        const out = command.out ? path.resolve(command.out) : defaultReportDir(workspaceDir, run.runId);
        // A run explained earlier gets its explanation reports again too.
        const explanation = await readExplanation(explanationFile(workspaceDir, run.runId));
        const causes = causesCounter();
        const written = await writeReports(run, out, command.formats, { ...verdictsOptions(process.cwd()), alongside: [causes] });
        const failureCauses = explanation ? await failureCausesOfRun(run) : undefined;
        printRun(run, [...written, ...(explanation ? await writeExplanationReports(explanation, out, command.formats, failureCauses) : [])], causes.list());
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
          print(process.stdout, `${run.runId}  ${runStatusLabel(status).padEnd(10)}  ${run.header?.spec.name ?? run.problem ?? ''}  ${run.file}\n`);
        }
        if (runs.length === 0) print(process.stdout, 'no runs yet\n');
        return EXIT_OK;
      }
    }
  } catch (error) {
    if (error instanceof UsageError || isParseArgsError(error)) {
      // One line naming the help, not the whole usage: the message above it says what to fix.
      print(process.stderr, `rag-inspector: ${(error as Error).message}\n${helpLine(invocation(), argv[0])}\n`);
    } else if (error instanceof NoRunsError) {
      print(process.stderr, `rag-inspector: ${error.message}\n`);
    } else if (error instanceof PreflightError) {
      print(process.stderr, `rag-inspector: ${error.message}${error.reason === 'unreachable' ? '; --no-preflight skips this check' : ''}\n`);
    } else if (error instanceof InputErrors) {
      for (const e of error.errors) print(process.stderr, `${e.format()}\n`);
    } else {
      print(process.stderr, `rag-inspector: ${describeError(error)}\n`);
    }
    return EXIT_ERROR;
  }
}

/** `sweep`: Ctrl-C cancels the retrievals (nothing is written then). */
async function sweepCommand(argv: string[]): Promise<number> {
  const controller = new AbortController();
  const onSigint = cancelOnSigint(controller, (line) => print(process.stderr, `${line}\n`));
  try {
    return await runSweepCommand(argv, { stdout: process.stdout, stderr: process.stderr, env: process.env, signal: controller.signal });
  } catch (error) {
    if (controller.signal.aborted) {
      print(process.stderr, 'rag-inspector: sweep cancelled; nothing written\n');
      return EXIT_CANCELLED;
    }
    throw error;
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** node:util parseArgs's own errors (an unknown option, a missing value) are usage errors too. */
function isParseArgsError(error: unknown): boolean {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).code!.startsWith('ERR_PARSE_ARGS_');
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
  print(process.stderr, `rag-inspector: ${message}\n${hint ? `  ${hint}\n` : ''}`);
  return undefined;
}

async function explainCommand(command: ExplainCommand): Promise<number> {
  // Explain's own errors (no such run, no such case) are two lines — what is wrong, then what to do — not the usage.
  const runLog = command.run === 'latest' ? await latestUnder(process.cwd()) : await resolveRun(command.run, process.cwd(), 'explain').catch((error: unknown) => {
    if (error instanceof UsageError) return explainError(error.message, 'explain takes a run log path, a run id or latest');
    throw error;
  });
  if (runLog === undefined) return EXIT_ERROR;
  const controller = new AbortController();
  const onSigint = cancelOnSigint(controller, (line) => print(process.stderr, `${line}\n`));
  try {
    const explanation = await explainFromCli(explainInvocation(command, runLog, controller.signal));
    if (explanation?.status === 'cancelled') {
      print(process.stderr, `cancelled: finish it with  ${invocation()} explain ${command.run} (finished variants are kept)\n`);
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
    const outProblem = command.out ? await reportFolderProblem(command.out) : undefined;
    if (outProblem) throw new Error(`--out: ${outProblem}`);
    const rerun = command.rerunFailed ? await rerunSelection(command.rerunFailed, workspaceDir) : undefined;
    // Found before the run, so "latest" is the run before this one and a wrong name costs no model call.
    const baselineLog = command.baseline ? await resolveRun(command.baseline, workspaceDir, '--baseline') : undefined;
    const batchLines = new BatchProgressLines();
    const indexLines = new IndexProgressLines(command.quiet, (line) => progress.note(`index ${line}`));
    const resume = command.resume ? await resolveRun(command.resume, workspaceDir, '--resume') : undefined;
    // The reports are written as the cases are logged, so little is left once the last one is. Not for a resumed run
    // that was explained meanwhile: its HTML report needs the tables to apply the explanation to the first case.
    let out = '';
    let concurrency: number | undefined;
    const liveCauses = causesCounter(() => concurrency);
    let causesOfRun = liveCauses;
    const streaming = resume && existsSync(explanationFileOfRunLog(resume, path.basename(resume, '.jsonl'))) ? undefined : new LiveReports(async (run) => {
      out = command.out ? path.resolve(command.out) : defaultReportDir(workspaceDir, run.runId);
      return writeReports(run, out, command.formats, { ...verdictsOptions(command.contain ? workspaceDir : process.cwd()), alongside: [liveCauses] });
    });
    const outcome = await runEvaluation(specFile, {
      signal: controller.signal,
      credentials: envCredentials(process.env),
      workspaceDir,
      noCache: command.noCache,
      refreshCache: command.refresh,
      preflight: command.preflight,
      resume,
      follower: streaming,
      retryErrors: command.retryErrors,
      caseFilter: rerun ? (caseId, modelKey) => rerun.has(caseKey(caseId, modelKey)) : undefined,
      overrides: { models: command.models, concurrency: command.concurrency, batch: command.batch },
      contain: command.contain ? containOptions(workspaceDir, command.contain.allowEndpoints) : undefined,
      onEvent: (event: RunEvent) => {
        if (event.type === 'input-problem') progress.note(`warning: ${formatProblem(event.problem)}`);
        if (event.type === 'warning') progress.note(`warning: ${event.message}`);
        if (event.type === 'index-progress') indexLines.show(event.progress);
        if (event.type === 'index-built') progress.note(describeBuild(event.summary));
        if (event.type === 'batch') {
          const line = batchLines.lineFor(event);
          if (line) progress.note(line);
        }
        if (event.type === 'run-started') causes = new ErrorCauseTally({ concurrency: event.concurrency });
        if (event.type === 'run-started') concurrency = event.concurrency;
        if (event.type === 'run-started') progress.note(`run ${event.runId}: ${event.total} case runs on ${event.models.join(', ')}${event.resumed ? ` (${event.resumed} already done)` : ''}\nlog: ${event.logFile}`);
        if (event.type === 'run-started' && event.batchRestored) progress.note(BATCH_RESTORED_LINE);
        if (event.type === 'case-finished') {
          if (event.result.status === 'error') counts.errors += 1;
          else if (event.result.pass === false) counts.failed += 1;
          const first = causes.add(event.result);
          if (first) progress.note(`error: ${causeLine(first)} (first: ${first.firstCaseId} on ${first.firstModelKey})`);
          progress.update(event.done, event.total, counts);
        }
      },
    }).catch(async (error: unknown) => {
      // No reports of a run that failed: the writers remove what they started.
      await streaming?.abandon(error);
      throw error;
    });
    progress.finish();
    // --baseline: the paired verdict against an earlier run, compared before the reports finish so JUnit can name broken cases.
    const baselineFor = async (logged: RunData) => (baselineLog ? await baselineOf(baselineLog, logged, command.level) : undefined);
    const streamed = outcome.followed && await streaming?.finish(outcome.followed, async (live) => {
      // Compared with the run read back from its log: the live run's cases are the writers' stream.
      if (baselineLog) live.baseline = await baselineFor(await runDataFromLog(outcome.logFile));
    });
    let run: RunData;
    let written: string[];
    if (streamed) {
      ({ run, written } = streamed);
    } else {
      // Written from the run log, one case at a time, when the run could not give them as it went.
      const logged = await runDataFromLog(outcome.logFile);
      const baseline = await baselineFor(logged);
      run = baseline ? { ...logged, baseline } : logged;
      out = command.out ? path.resolve(command.out) : defaultReportDir(workspaceDir, run.runId);
      causesOfRun = causesCounter(() => outcome.spec.concurrency);
      written = await writeReports(run, out, command.formats, { ...verdictsOptions(command.contain ? workspaceDir : process.cwd()), alongside: [causesOfRun] });
    }
    printRun(run, written, causesOfRun.list());
    if (run.baseline) print(process.stdout, `\nCompared with ${run.baseline.runId}:\n${formatComparison(run.baseline.comparison)}\n`);
    const regression = command.failOnRegression && run.baseline !== undefined && hasRegression(run.baseline.comparison);
    if (regression) print(process.stderr, `regression: the case verdicts got significantly worse than in ${run.baseline?.runId} (--fail-on regression)\n`);
    await exportRunTraces(run, command.exportOtlp, command.contain, { otlp: outcome.spec.export?.otlp });
    const hint = { specFile: command.specFile, runId: run.runId, command: invocation() };
    if (outcome.status === 'cancelled') {
      print(process.stderr, `${resumeHint(hint)}\n`);
      return EXIT_CANCELLED;
    }
    // Said in the run's own output: the errored cases (a server that went away, a limit) can be run again alone.
    if (run.totals.error > 0) print(process.stderr, `${retryErrorsHint(hint, run.totals.error)}\n`);
    const fromCache = command.rerunFailed && !command.refresh ? rerunCacheHint(run.totals.cacheHits) : undefined;
    if (fromCache) print(process.stderr, `${fromCache}\n`);
    // `explain:` in the eval file: the failures explained right after the run, into the same report folder.
    const explain = outcome.spec.explain;
    if (explain?.failed && run.totals.failed + run.totals.error > 0) {
      await explainFromCli({
        runLog: outcome.logFile, workspaceDir, caseIds: [], failed: true, variants: explain.variants, subsets: explain.subsets, segments: explain.segments,
        maxCalls: explain.maxCalls, noCache: command.noCache, planOnly: false, quiet: command.quiet, out, formats: command.formats, signal: controller.signal,
      });
    }
    return Math.max(exitCodeFor(run), regression ? EXIT_THRESHOLD_FAILED : EXIT_OK);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** The run compared with --baseline's run, pair by pair. */
async function baselineOf(baselineLog: string, run: RunData, level: number): Promise<NonNullable<RunData['baseline']>> {
  const before = await runDataFromLog(baselineLog);
  return { runId: before.runId, comparison: await comparePaired(before, run, { level }) };
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

/** Verdicts are read from the eval file's folder up to `within` and no higher (findVerdictsFile); one that cannot be read is a warning. */
function verdictsOptions(within: string): VerdictsReportOptions {
  return { verdictsWithin: within, onWarning: (message) => print(process.stderr, `warning: ${message}\n`) };
}

/** `<workspace>/.rag-inspector/reports/<run id>`; the run id comes from a file, so the folder is checked to be inside. */
function defaultReportDir(workspaceDir: string, runId: string): string {
  const reports = path.join(workspaceDir, '.rag-inspector', 'reports');
  const dir = path.join(reports, runId);
  if (dir === reports || !isInside(dir, [reports])) throw new Error(`run id ${JSON.stringify(runId)} would put its reports outside ${reports}; pass --out`);
  return dir;
}

/** explain latest: the newest run anywhere under the folder it is typed in (runs are kept beside each eval file). */
async function latestUnder(folder: string, command = 'explain'): Promise<string> {
  const file = await latestRunUnder(folder);
  if (file) return file;
  throw new NoRunsError(`${command} latest: no runs under ${folder} or its subfolders\nruns are kept beside each eval file, in <its folder>/.rag-inspector/runs/: start one with  ${invocation()} run <file.eval.yaml>, or name a run log`);
}

/** --resume, --rerun-failed and explain take a log path, a run id, or "latest" (for a run: beside its eval file). */
async function resolveRun(value: string, workspaceDir: string, flag: string): Promise<string> {
  const runsDir = path.join(workspaceDir, '.rag-inspector', 'runs');
  if (value === 'latest') {
    const [newest] = await listRuns(runsDir);
    if (!newest) throw new NoRunsError(`${flag} latest: there are no runs of this eval file yet\nruns are kept beside the eval file, in ${runsDir}: run it once without ${flag} first`);
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

/**
 * The run's error causes, grouped, counted in the reports' one pass over its log (a resumed run's earlier errors
 * included): errored cases and unreadable judge answers.
 */
function causesCounter(concurrency: () => number | undefined = () => undefined): ReportWriter & { list(): ErrorCause[] } {
  // Made at the first case: a run's concurrency (which the advice on rate limits names) is known once it started.
  let tally: ErrorCauseTally | undefined;
  const tallied = () => (tally ??= new ErrorCauseTally({ concurrency: concurrency() }));
  return {
    async add({ result }) {
      if (result.status === 'error' || result.scores.some((s) => s.judgeError !== undefined)) tallied().add(result);
    },
    async finish() {},
    list: () => tallied().list(),
  };
}

function printRun(run: RunData, written: string[], causes: ErrorCause[]): void {
  const out = process.stdout;
  print(out, `\n${formatReports(run.reports)}\n\n`);
  const thresholds = formatThresholds(run.thresholds);
  if (thresholds) print(out, `${thresholds}\n\n`);
  if (run.problems.length) print(out, `Input problems (${run.problems.length}):\n${run.problems.map((p) => `  ${formatProblem(p)}`).join('\n')}\n\n`);
  if (causes.length) print(out, `${formatCauses(causes)}\n\n`);
  // The problems are listed above, but a bare "success" under them would read as if nothing went wrong.
  const problems = run.problems.length ? `, with ${run.problems.length} input problem${run.problems.length === 1 ? '' : 's'} (listed above)` : '';
  print(out, `${formatTotals(run.totals)}\nStatus: ${runStatusLabel(run.status)}${problems}\nReports: ${written.join(', ')}\n`);
}

function exitCodeFor(run: RunData): number {
  if (run.status === 'error' || run.totals.error > 0 || run.problems.length > 0) return EXIT_ERROR;
  if (run.thresholds.some((t) => !t.passed)) return EXIT_THRESHOLD_FAILED;
  return EXIT_OK;
}

/**
 * Runs the command this process was started with; its exit code is set once it is done. `loadBundle`: how to load
 * the vendor bundles (bin.ts gives its code-cached loader).
 */
export function start(options: { loadBundle?: (file: string) => unknown } = {}): void {
  if (options.loadBundle) loadBundlesWith(options.loadBundle);
  main(process.argv.slice(2)).then((code) => { process.exitCode = code; });
}

// Run as a file of its own (from sources, or the bundle started directly); the command line's entry is bin.ts.
if (require.main === module) start();
