// The corpus lab in VS Code: Sweep Retrieval Settings (the sweep's retrieval part, shown in the sweep panel), Build
// Index (the eval file's index: built ahead of a run) and Generate Test Questions (from the index's documents), each
// through the core code the CLI's `sweep`, `index` and `generate-questions` run.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeBuild } from '../core/corpus/build.js';
import type { IndexBuildSummary, IndexProgress } from '../core/corpus/contract.js';
import { sweepRetrieval } from '../core/engine/sweepRetrieval.js';
import { bestLine } from '../core/corpus/sweep/sweepText.js';
import { indexRetrieverOf } from '../core/engine/retriever.js';
import { describeError } from '../core/errors.js';
import type { InputError } from '../core/errors.js';
import { formatCostPlan } from '../core/corpus/questions/costPlan.js';
import { DEFAULT_DUPLICATE_THRESHOLD, QUESTION_DEFAULTS, questionSetupProblem, runQuestionGeneration } from '../core/engine/questionRun.js';
import type { GenerationSummary } from '../core/corpus/questions/generate.js';
import { QUESTION_KINDS } from '../core/corpus/questions/model.js';
import type { QuestionKind } from '../core/corpus/questions/model.js';
import type { Credentials } from '../core/providers/registry.js';
import { defaultSweepFolder, writeSweepFiles } from '../core/report/sweepFiles.js';
import { loadEvalSpec } from '../core/spec/load.js';
import type { EvalSpec } from '../core/spec/types.js';
import { withCancellableProgress } from './cancellableProgress.js';
import { resolveEvalFile } from './commands.js';
import { confirmQuestionCost } from './costGuard.js';
import { maxCostWithoutConfirm, reportRunError } from './launch.js';
import type { Logger } from './outputChannel.js';
import { showSweepPanel } from './sweepPanel.js';
import type { SweepPanelDeps } from './sweepPanel.js';
import { REVIEW_QUESTIONS_COMMAND } from './questionReviewPanel.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';

export const CORPUS_COMMANDS = {
  sweep: 'ragInspector.sweepRetrieval',
  buildIndex: 'ragInspector.buildIndex',
  generateQuestions: 'ragInspector.generateQuestions',
} as const;

export interface CorpusDeps {
  extensionUri: vscode.Uri;
  credentials: Credentials;
  logger: Logger;
  untrusted: UntrustedWorkspaceGate;
  /** Every run on disk: the sweep panel finds its cells' end-to-end runs there. */
  runs: SweepPanelDeps['runs'];
  controller: SweepPanelDeps['controller'];
}

/** What the commands hand back to executeCommand callers (tests, other commands). */
export type CorpusOutcome =
  | { status: 'no-eval-file' | 'cancelled' | 'not-allowed' | 'failed' }
  | { status: 'swept'; cells: number; best: string; folder: string; written: string[] }
  | { status: 'built'; summary: IndexBuildSummary }
  | { status: 'declined' }
  | { status: 'generated'; summary: GenerationSummary; out: string; rejectedFile: string };

/**
 * What a caller may pass beside a Uri (the Explorer and editor menus pass the Uri alone): the eval file's path and a
 * token that cancels too, beside the notification's Cancel (another command, a test).
 */
export interface CorpusArgs {
  file?: string;
  cancellation?: vscode.CancellationToken;
  /** Generate Test Questions: the questions file (not asked for), how many and which kinds (all by default). */
  out?: string;
  count?: number;
  kinds?: QuestionKind[];
  /** Sweep Retrieval Settings: the panel to show the sweep in instead of a new one (a test's, which records what is posted). */
  panel?: vscode.WebviewPanel;
}

function argsOf(arg: unknown): Omit<CorpusArgs, 'file'> & { target: unknown } {
  if (arg instanceof vscode.Uri || typeof arg !== 'object' || arg === null) return { target: arg };
  const { file, ...rest } = arg as CorpusArgs;
  return { target: typeof file === 'string' ? vscode.Uri.file(file) : undefined, ...rest };
}

/** Questions retrieved at once, the CLI's default (`ragInspector.concurrency` is about model calls, which a sweep makes none of). */
const SWEEP_CONCURRENCY = 8;

/**
 * The eval file (passed, open, or picked), read as a run reads it: in an untrusted workspace its paths contained, its
 * state folder checked and each endpoint it chose asked about (a command retriever refused with the words to show).
 */
async function loadGated(deps: CorpusDeps, arg: unknown, title: string): Promise<EvalSpec | Exclude<CorpusOutcome, { status: 'swept' | 'built' | 'declined' | 'generated' }>> {
  const file = await resolveEvalFile(arg);
  if (!file) {
    void vscode.window.showErrorMessage(`RAG Inspector: ${title} needs an *.eval.yaml file: open one or pick it in the Explorer.`);
    return { status: 'no-eval-file' };
  }
  deps.logger.info(`${title}: ${file}`);
  const contain = deps.untrusted.containment();
  const spec = await loadEvalSpec(file, contain ? { contain } : {});
  const stateProblem = await deps.untrusted.stateFolderProblem(path.dirname(spec.file));
  if (stateProblem) throw new Error(stateProblem);
  const verdict = await deps.untrusted.endpointsAllowed(spec);
  if (!verdict.allowed) {
    deps.logger.info(`${title}: not started (${verdict.url} not allowed in this untrusted workspace).`);
    return { status: 'not-allowed' };
  }
  return spec;
}

const indexMessage = (p: IndexProgress) => `indexing: ${p.stage} ${p.done}/${p.total}`;

export async function sweepCommand(deps: CorpusDeps, arg: unknown): Promise<CorpusOutcome> {
  const title = 'Sweep Retrieval Settings';
  let aborted: AbortSignal | undefined;
  try {
    const { target, cancellation, panel } = argsOf(arg);
    const spec = await loadGated(deps, target, title);
    if (!('file' in spec)) return spec;
    if (!spec.sweep) {
      void vscode.window.showErrorMessage(`RAG Inspector: ${path.basename(spec.file)} has no sweep: block. Add the settings to try, e.g. sweep: { chunkSize: [128, 256], k: [1, 3, 5] } (README, "Sweep the retrieval settings").`);
      return { status: 'failed' };
    }
    const outcome = await withCancellableProgress(`${title} — ${path.basename(spec.file)}`, cancellation, (report, signal) => {
      aborted = signal;
      return sweepRetrieval(spec, {
        concurrency: SWEEP_CONCURRENCY,
        noCache: false,
        env: process.env,
        credentials: deps.credentials,
        signal,
        onWarning: (message) => deps.logger.warn(`${title}: ${message}`),
        onPlan: (plan) => {
          for (const problem of plan.problems) deps.logger.warn(problem.format());
          if (plan.unlabelled > 0) deps.logger.warn(`${title}: ${plan.unlabelled} row(s) without relevant_spans, relevant_ids or graded relevance left out.`);
          deps.logger.info(`${title}: ${plan.cells} cells, ${plan.settings} retrieval(s) per question, ${plan.questions} questions (suite ${plan.suite}, ${plan.source}).`);
        },
        onIndexProgress: (p) => report(indexMessage(p), p.done === p.total),
        onProgress: (p) => report(`setting ${p.setting}/${p.settings} (${p.key}): ${p.done}/${p.questions} questions`, p.done === p.questions),
      });
    });
    const folder = defaultSweepFolder(spec.file);
    const { written, skipped } = await writeSweepFiles(outcome.report, folder);
    if (skipped) deps.logger.warn(`${title}: ${skipped}`);
    const best = bestLine(outcome.report);
    deps.logger.info(`${title}: ${best}`);
    for (const note of outcome.report.notes) deps.logger.info(`${title}: note: ${note}`);
    deps.logger.info(`${title}: ${outcome.report.retrievals} retrievals (${outcome.counters.calls} asked of the retriever, ${outcome.counters.cacheHits} from the cache); wrote ${written.join(', ')}`);
    showSweepPanel(deps, { spec, grid: outcome.grid, report: outcome.report }, panel);
    const errors = outcome.report.cells.reduce((sum, cell) => sum + cell.errors, 0);
    if (errors > 0 || outcome.plan.problems.length > 0) {
      void vscode.window.showWarningMessage(`RAG Inspector: the sweep measured what it could, but ${errors} retrieval(s) failed and ${outcome.plan.problems.length} row(s) could not be read; see the RAG Inspector output.`);
    }
    return { status: 'swept', cells: outcome.report.cells.length, best, folder, written };
  } catch (error) {
    if (aborted?.aborted) {
      deps.logger.info(`${title}: cancelled; nothing written.`);
      void vscode.window.showInformationMessage('RAG Inspector: sweep cancelled; nothing was written. Run it again to start over (retrievals done are cached).');
      return { status: 'cancelled' };
    }
    reportRunError(error, deps.logger);
    return { status: 'failed' };
  }
}

export async function buildIndexCommand(deps: CorpusDeps, arg: unknown): Promise<CorpusOutcome> {
  const title = 'Build Index';
  let aborted: AbortSignal | undefined;
  try {
    const { target, cancellation } = argsOf(arg);
    const spec = await loadGated(deps, target, title);
    if (!('file' in spec)) return spec;
    const index = spec.index;
    if (!index) {
      void vscode.window.showErrorMessage(`RAG Inspector: ${path.basename(spec.file)} has no index: block. Add one, e.g. index: { folder: docs, search: bm25 } (README, "Index a folder").`);
      return { status: 'failed' };
    }
    let problems: InputError[] = [];
    const summary = await withCancellableProgress(`${title} — ${path.basename(spec.file)}`, cancellation, async (report, signal) => {
      aborted = signal;
      let built: IndexBuildSummary | undefined;
      const retriever = indexRetrieverOf(index, spec, process.env, {
        stateDir: path.join(path.dirname(spec.file), '.rag-inspector'),
        credentials: deps.credentials,
        onProgress: (p) => report(indexMessage(p), p.done === p.total),
        onBuilt: (result) => {
          built = result.summary;
          problems = result.problems;
        },
      });
      try {
        await retriever.version(signal);
      } finally {
        await retriever.close?.().catch(() => undefined);
      }
      if (!built) throw new Error('the index reported no build summary');
      return built;
    });
    const line = describeBuild(summary);
    deps.logger.info(`${title}: ${line}`);
    for (const problem of problems) deps.logger.warn(`${title}: ${problem.format()}`);
    if (problems.length === 0) void vscode.window.showInformationMessage(`RAG Inspector: ${line}`);
    else void vscode.window.showWarningMessage(`RAG Inspector: ${line}; ${problems.length} file(s), line(s) or page(s) could not be read and are not in the index (first: ${problems[0]!.format()}); see the RAG Inspector output.`);
    return { status: 'built', summary };
  } catch (error) {
    if (aborted?.aborted) {
      deps.logger.info(`${title}: cancelled.`);
      void vscode.window.showInformationMessage('RAG Inspector: index build cancelled. Build it again to go on from where it stopped (what was embedded is cached).');
      return { status: 'cancelled' };
    }
    deps.logger.error(`${title}: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`RAG Inspector: the index could not be built: ${describeError(error)}`);
    return { status: 'failed' };
  }
}

/** The questions file: `questions.jsonl` beside the eval file unless the user types another path. */
async function askQuestionsFile(evalFile: string): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title: 'RAG Inspector: Generate Test Questions — questions file',
    prompt: 'Where the kept questions go (JSON Lines); rejected ones go beside it. An existing file is continued, not replaced.',
    value: path.join(path.dirname(evalFile), 'questions.jsonl'),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const target = path.resolve(path.dirname(evalFile), value.trim());
      if (!value.trim()) return 'Name a file, e.g. questions.jsonl';
      return target === path.resolve(evalFile) ? 'That is the eval file: name the questions file' : undefined;
    },
  });
  return typed?.trim() ? path.resolve(path.dirname(evalFile), typed.trim()) : undefined;
}

/** The summary's button: opens Review Generated Questions on the file just written. */
const REVIEW_BUTTON = 'Review Questions';

function questionSummary(summary: GenerationSummary, out: string, rejectedFile: string): string {
  const checks = Object.entries(summary.byCheck).map(([check, n]) => `${n} ${check}`).join(', ');
  const earlier = summary.skipped ? `; ${summary.skipped} done by an earlier run` : '';
  return `Kept ${summary.kept} question(s) in ${path.basename(out)}, rejected ${summary.rejected}${checks ? ` (${checks})` : ''}${earlier}; the rejected ones, with the reason, are in ${rejectedFile}.`;
}

export async function generateQuestionsCommand(deps: CorpusDeps, arg: unknown): Promise<CorpusOutcome> {
  const title = 'Generate Test Questions';
  let aborted: AbortSignal | undefined;
  let out: string | undefined;
  try {
    const { target, cancellation, ...given } = argsOf(arg);
    const spec = await loadGated(deps, target, title);
    if (!('file' in spec)) return spec;
    const problem = questionSetupProblem(spec, undefined);
    if (problem) {
      void vscode.window.showErrorMessage(`RAG Inspector: ${problem.message} (README, "Test questions from your corpus").`);
      return { status: 'failed' };
    }
    out = given.out ? path.resolve(given.out) : await askQuestionsFile(spec.file);
    if (!out) return { status: 'cancelled' };
    const questionsFile = out;
    const outcome = await withCancellableProgress(`${title} — ${path.basename(spec.file)}`, cancellation, (report, signal) => {
      aborted = signal;
      return runQuestionGeneration(spec, {
        out: questionsFile,
        count: given.count ?? QUESTION_DEFAULTS.count,
        kinds: given.kinds ?? [...QUESTION_KINDS],
        seed: QUESTION_DEFAULTS.seed,
        concurrency: QUESTION_DEFAULTS.concurrency,
        duplicateThreshold: DEFAULT_DUPLICATE_THRESHOLD,
        noCache: false,
        env: process.env,
        credentials: deps.credentials,
        signal,
        onNote: (message) => deps.logger.info(`${title}: ${message}`),
        confirmPlan: (plan, models) => {
          deps.logger.info(`${title}: cost plan\n${formatCostPlan(plan, models)}`);
          return confirmQuestionCost(title, plan, models, maxCostWithoutConfirm());
        },
        onProgress: (p) => report(`${p.done}/${p.total} questions (${p.kept} kept, ${p.rejected} rejected)`, p.done === p.total),
      });
    });
    if (outcome.status === 'declined') {
      deps.logger.info(`${title}: not started (the cost plan was declined); nothing was sent.`);
      return { status: 'declined' };
    }
    const line = questionSummary(outcome.summary, questionsFile, outcome.rejectedFile);
    deps.logger.info(`${title}: ${line}`);
    // The review's keep / drop decides what rag and stress runs of the file ask (README, "Review generated questions").
    const review = { file: questionsFile, sourceFolders: [spec.index!.folder] };
    const offerReview = (shown: Thenable<string | undefined>) => void shown.then((choice) => {
      if (choice === REVIEW_BUTTON) void vscode.commands.executeCommand(REVIEW_QUESTIONS_COMMAND, review);
    });
    if (outcome.summary.undecided > 0) {
      const failed = `${outcome.summary.undecided} generation(s) failed on a call or an unreadable answer, not on a check: run the command again to ask them again.`;
      deps.logger.warn(`${title}: ${failed}`);
      offerReview(vscode.window.showWarningMessage(`RAG Inspector: ${line} ${failed}`, REVIEW_BUTTON));
    } else {
      offerReview(vscode.window.showInformationMessage(`RAG Inspector: ${line}`, REVIEW_BUTTON));
    }
    if (existsSync(questionsFile)) await vscode.window.showTextDocument(vscode.Uri.file(questionsFile), { preview: false });
    return { status: 'generated', summary: outcome.summary, out: questionsFile, rejectedFile: outcome.rejectedFile };
  } catch (error) {
    if (aborted?.aborted) {
      deps.logger.info(`${title}: cancelled; the finished questions are kept in ${out}.`);
      void vscode.window.showInformationMessage(`RAG Inspector: question generation cancelled; the finished questions are kept in ${out}. Run it again on the same file to go on where it stopped.`);
      return { status: 'cancelled' };
    }
    reportRunError(error, deps.logger);
    return { status: 'failed' };
  }
}

export function activateCorpusCommands(context: vscode.ExtensionContext, deps: Omit<CorpusDeps, 'extensionUri'>): void {
  const all = { ...deps, extensionUri: context.extensionUri };
  context.subscriptions.push(
    vscode.commands.registerCommand(CORPUS_COMMANDS.sweep, (arg?: unknown) => sweepCommand(all, arg)),
    vscode.commands.registerCommand(CORPUS_COMMANDS.buildIndex, (arg?: unknown) => buildIndexCommand(all, arg)),
    vscode.commands.registerCommand(CORPUS_COMMANDS.generateQuestions, (arg?: unknown) => generateQuestionsCommand(all, arg)),
  );
}
