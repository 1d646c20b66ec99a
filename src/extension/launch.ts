// Every run starts here (Run Evaluation, Rerun Failed/Case, rerun on save, Resume, Test Explorer): the eval file loaded once, settings applied, cost confirmed, progress shown, the outcome reported.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { BatchProgressLines, batchLine } from '../core/engine/batchProgress.js';
import { applyOverrides } from '../core/engine/runEvaluation.js';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import { RunDetached } from '../core/detach.js';
import { InputError, InputErrors, describeError } from '../core/errors.js';
import { loadEvalSpec } from '../core/spec/load.js';
import type { LoadOptions } from '../core/spec/load.js';
import type { EvalSpec } from '../core/spec/types.js';
import { ErrorCauseTally } from '../core/errorCauses.js';
import { confirmCost } from './costGuard.js';
import { estimateCost } from '../core/engine/costEstimate.js';
import { describeBuild } from '../core/corpus/build.js';
import type { CostEstimate } from '../core/engine/costEstimate.js';
import { causeLines, outcomeMessage } from './outcomeMessage.js';
import type { Logger } from './outputChannel.js';
import type { RunController, RunSummary } from './runController.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';

export interface LaunchRequest {
  specFile: string;
  /** The eval file already loaded by the caller (Resume compares its hash with the run log's first); loaded here otherwise. */
  spec?: EvalSpec;
  /** What the notifications call the run: "Run Evaluation", "Rerun 3 failed cases"… */
  title: string;
  caseFilter?: (caseId: string, modelKey: string) => boolean;
  /** A run log to finish (Resume Interrupted Run) instead of starting a new run. */
  resume?: string;
  /** Open the inspector as the run starts (commands do; rerun on save leaves the panel to its caller). */
  openInspector?: boolean;
  /**
   * Say how it ended in a notification, and show progress in a cancellable notification. Without it (rerun on save)
   * progress goes to the status bar and the end to the log, so typing and saving is not interrupted.
   */
  announce?: boolean;
  /**
   * Set when the caller shows the run's progress itself and cancels it through this token (Test Explorer: the
   * Testing view and its Stop button); the launcher then shows no progress of its own.
   */
  cancellation?: vscode.CancellationToken;
  /** How a failure is reported; by default in the log and an error notification (reportRunError). */
  onError?: (error: unknown) => void;
  /**
   * A cost the user already accepted for this run (an agent's tool call, confirmed in chat): no second question
   * unless the estimate made now is higher.
   */
  acceptedUsd?: number;
  /** With `announce`: this token cancels the run too (an agent's tool call), beside the notification's Cancel. */
  alsoCancelledBy?: vscode.CancellationToken;
}

/**
 * How a launch ended: the run's summary, 'cancelled' (the cost was declined, the caller's token fired first, or the
 * window closed and left the run interrupted) or 'failed' (reported already).
 */
export type LaunchOutcome = RunSummary | 'cancelled' | 'failed';

/** What the settings change in a run of this eval file (see commands.ts settingsOverrides). */
export type OverridesOf = (spec: EvalSpec) => RunOptions['overrides'];

/** Reads an eval file: core's loadEvalSpec (the extension has every host provider, so none is refused). */
export type LoadSpec = (specFile: string, options?: LoadOptions) => Promise<EvalSpec>;

/** Progress updates at most this often; a fast run finishes hundreds of cases a second. */
const PROGRESS_INTERVAL_MS = 100;

export class RunLauncher {
  constructor(
    readonly controller: RunController,
    private readonly logger: Logger,
    private readonly overridesOf: OverridesOf,
    private readonly load: LoadSpec = (specFile, options) => loadEvalSpec(specFile, options),
    /** Restricted Mode's checks; every run start comes through here, so this is where they are made. */
    /** Restricted Mode's rules (untrustedWorkspace.ts); other commands that reach a workspace-chosen endpoint ask it too. */
    readonly untrusted?: UntrustedWorkspaceGate,
  ) {}

  /** False in an untrusted workspace: there no run starts without a user's click (rerun on save stays off). */
  get automaticRunsAllowed(): boolean {
    return this.untrusted?.trusted ?? true;
  }

  async launch(request: LaunchRequest): Promise<LaunchOutcome> {
    const { specFile, title } = request;
    const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(specFile))?.uri.fsPath;
    this.logger.info(`${title}: ${specFile}`);
    try {
      // Loaded once: the spec priced below is the one the engine runs, and the engine does not read the file again.
      const loaded = await this.loaded(request);
      const stateProblem = await this.untrusted?.stateFolderProblem(folder ?? path.dirname(specFile));
      if (stateProblem) throw new Error(stateProblem);
      const spec = applyOverrides(loaded, this.overridesOf(loaded));
      const endpoints = (await this.untrusted?.endpointsAllowed(spec)) ?? { allowed: true };
      if (!endpoints.allowed) {
        this.logger.info(`${title}: not started (${endpoints.url} not allowed in this untrusted workspace).`);
        return 'cancelled';
      }
      if (!(await this.costConfirmed(request, spec, folder))) {
        this.logger.info(`${title}: not started (estimated cost declined).`);
        return 'cancelled';
      }
      // Stopped while the cost question was open (the Testing view's Stop): nothing to start.
      if (request.cancellation?.isCancellationRequested || request.alsoCancelledBy?.isCancellationRequested) {
        this.logger.info(`${title}: not started (cancelled).`);
        return 'cancelled';
      }
      if (request.openInspector) void vscode.commands.executeCommand('ragInspector.openInspector');
      // Preflight: a server that is down stops the run before its first case, with the cause (reportRunError shows it).
      const start = () => this.controller.start(spec, { workspaceDir: folder, caseFilter: request.caseFilter, resume: request.resume, preflight: true });
      // The causes of this session's errors, for the notification (the same grouping the CLI prints).
      let causes = new ErrorCauseTally();
      // Batch mode: each vendor batch's progress in the output channel when it moves, as the CLI prints it.
      const batchLines = new BatchProgressLines();
      const tally = this.controller.onEvent((event) => {
        if (event.type === 'run-started') causes = new ErrorCauseTally({ concurrency: event.concurrency });
        if (event.type === 'case-finished') causes.add(event.result);
        if (event.type === 'warning') this.logger.warn(`${title}: ${event.message}`);
        if (event.type === 'index-built') this.logger.info(`${title}: ${describeBuild(event.summary)}`);
        if (event.type === 'batch') {
          const line = batchLines.lineFor(event);
          if (line) this.logger.info(`${title}: ${line}`);
        }
      });
      let summary: RunSummary;
      try {
        summary = request.cancellation
          ? await this.cancelledBy(request.cancellation, start)
          : await this.withProgress(`${title} — ${path.basename(specFile)}`, request.announce === true, start, request.alsoCancelledBy);
      } finally {
        tally.dispose();
      }
      const t = summary.totals;
      const line = outcomeMessage(summary.runId, summary.status, t, causes.list());
      this.logger.info(line);
      for (const cause of causeLines(causes.list())) this.logger.info(cause);
      if (request.announce) {
        if (summary.status === 'success' && t.error === 0) void vscode.window.showInformationMessage(`RAG Inspector: ${line}`);
        else void vscode.window.showWarningMessage(`RAG Inspector: ${line}`);
      }
      // Just the summary: the engine's outcome holds the whole plan, too much to hand to executeCommand callers.
      return { runId: summary.runId, status: summary.status, totals: summary.totals };
    } catch (error) {
      if (error instanceof RunDetached) {
        // The window is closing: the run is left interrupted for the next window to offer, not failed.
        this.logger.info(`${title}: left interrupted (${error.message}); Resume Interrupted Run finishes it.`);
        return 'cancelled';
      }
      if (request.onError) request.onError(error);
      else reportRunError(error, this.logger);
      return 'failed';
    }
  }

  /**
   * The request's spec, or the file read now. In an untrusted workspace the file is read with its paths contained,
   * even when the caller loaded it already (Resume), and must still be the file the caller loaded.
   */
  private async loaded(request: LaunchRequest): Promise<EvalSpec> {
    const contain = this.untrusted?.containment();
    if (!contain) return request.spec ?? (await this.load(request.specFile));
    const checked = await this.load(request.specFile, { contain });
    if (request.spec && request.spec.hash !== checked.hash) throw new Error(`${request.specFile} changed while the run was being prepared; start it again.`);
    return request.spec ?? checked;
  }

  /** `folder`: the workspace folder the run keeps its state in (an index built there is not priced again). */
  private async costConfirmed(request: LaunchRequest, spec: EvalSpec, folder: string | undefined): Promise<boolean> {
    const limit = maxCostWithoutConfirm();
    const estimate = await estimateCost(spec, request.caseFilter, new AbortController().signal, folder ? path.join(folder, '.rag-inspector') : undefined);
    if (estimate.unpriced.length) this.logger.info(`${request.title}: no price known for ${estimate.unpriced.join(', ')}; the cost check leaves them out.`);
    if (request.acceptedUsd !== undefined && estimate.usd <= request.acceptedUsd) return true;
    return confirmCost(request.title, estimate, limit);
  }

  /**
   * What a run of the eval file (these cases) may cost, read as launch would run it (contained in an untrusted
   * workspace, the settings applied); nothing is asked or sent. An agent's tool call shows it before it runs.
   */
  async estimate(specFile: string, caseFilter?: LaunchRequest['caseFilter']): Promise<CostEstimate> {
    const loaded = await this.loaded({ specFile, title: '' });
    return estimateCost(applyOverrides(loaded, this.overridesOf(loaded)), caseFilter, new AbortController().signal);
  }

  /** The caller's token cancels the run (finished cases stay in the log). */
  private async cancelledBy(token: vscode.CancellationToken, run: () => Promise<RunSummary>): Promise<RunSummary> {
    const cancel = token.onCancellationRequested(() => this.controller.cancel());
    try {
      return await run();
    } finally {
      cancel.dispose();
    }
  }

  /** A notification with done/total; its Cancel button cancels the run (finished cases stay in the log). */
  private withProgress(title: string, notification: boolean, run: () => Promise<RunSummary>, alsoCancelledBy?: vscode.CancellationToken): Thenable<RunSummary> {
    const location = notification ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window;
    return vscode.window.withProgress({ location, title: `RAG Inspector: ${title}`, cancellable: notification }, async (progress, token) => {
      let shown = 0;
      let last = 0;
      const cancel = token.onCancellationRequested(() => this.controller.cancel());
      const cancelToo = alsoCancelledBy?.onCancellationRequested(() => this.controller.cancel());
      const events = this.controller.onEvent((event) => {
        if (event.type === 'run-started') progress.report({ message: `0/${event.total} cases` });
        if (event.type === 'batch') progress.report({ message: batchLine(event) });
        // What holds the run up shows where its progress does ("waiting for the server at …"), in the engine's words.
        if (event.type === 'warning') progress.report({ message: event.message });
        if (event.type !== 'case-finished') return;
        const now = Date.now();
        if (event.done < event.total && now - last < PROGRESS_INTERVAL_MS) return;
        last = now;
        const percent = event.total > 0 ? (100 * event.done) / event.total : 100;
        progress.report({ increment: percent - shown, message: `${event.done}/${event.total} cases` });
        shown = percent;
      });
      try {
        return await run();
      } finally {
        events.dispose();
        cancel.dispose();
        cancelToo?.dispose();
      }
    });
  }
}

/** The setting above which a run or an explanation asks before spending (dollars). */
export function maxCostWithoutConfirm(): number {
  return vscode.workspace.getConfiguration('ragInspector').get<number>('maxCostWithoutConfirm', 1);
}

export function reportRunError(error: unknown, logger: Logger): void {
  if (error instanceof InputErrors) {
    for (const e of error.errors) logger.error(e.format());
    void vscode.window.showErrorMessage(`RAG Inspector: the eval file has ${error.errors.length} problem(s); see the RAG Inspector output.`);
    return;
  }
  // One input error (a template's include, found as the run is planned) is logged with its file:line:column too.
  logger.error(error instanceof InputError ? error.format() : error instanceof Error ? error : String(error));
  void vscode.window.showErrorMessage(`RAG Inspector: ${describeError(error)}`);
}
