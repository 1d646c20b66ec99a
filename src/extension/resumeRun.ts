// "Resume Interrupted Run": finishes a run whose extension host (or terminal) died, and offers it once when a window opens after the crash.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../core/engine/events.js';
import { caseKey } from '../core/model.js';
import { scanRunLog } from '../core/run/runLog.js';
import { loadEvalSpec } from '../core/spec/load.js';
import type { CommandOutcome } from './commands.js';
import {
  announcement, chooseInterrupted, countCaseLines, modifiedTimes, pickItem, runToAnnounce, specChangedMessage, specMissingMessage,
} from './interruptedRuns.js';
import type { InterruptedRun } from './interruptedRuns.js';
import { reportRunError } from './launch.js';
import type { RunLauncher } from './launch.js';
import { LiveRunMarkers, liveRunMarkersDir, processAlive, thisHostname } from './liveRuns.js';
import type { Logger } from './outputChannel.js';
import type { RunController } from './runController.js';
import type { RunStore } from './runStore.js';
import type { SessionRuns } from './sessionRuns.js';

export const RESUME_RUN_COMMAND = 'ragInspector.resumeRun';
/** Run ids whose "was interrupted" notice the user dismissed, per workspace. */
const DISMISSED_KEY = 'ragInspector.interruptedRuns.dismissed';

export type ResumeOutcome = CommandOutcome | 'nothing-to-resume' | 'spec-changed' | 'busy';

export interface ResumeDeps {
  controller: RunController;
  launcher: RunLauncher;
  store: RunStore;
  sessions: SessionRuns;
  logger: Logger;
}

export class InterruptedRunsService {
  /** The run being resumed in this window, so its earlier cases can join this window's record of it. */

  constructor(private readonly deps: ResumeDeps, private readonly markers: LiveRunMarkers, private readonly state: vscode.Memento) {}

  /** The workspace's resumable runs, newest first, with their finished cases counted. */
  async list(): Promise<InterruptedRun[]> {
    const entries = await this.deps.store.diskRuns();
    const started = entries.filter((e) => e.status === 'started' && e.header);
    const modified = await modifiedTimes(started.map((e) => e.file));
    const liveHere = new Set([this.deps.sessions.liveRunId, this.deps.controller.active?.runId].filter((id): id is string => id !== undefined));
    const chosen = chooseInterrupted(started, modified, {
      liveHere,
      markerOf: (file) => this.markers.get(file),
      isAlive: processAlive,
      hostname: thisHostname(),
      now: Date.now(),
    });
    return Promise.all(chosen.map(async (run) => ({ ...run, casesDone: await countCaseLines(run.file).catch(() => 0) })));
  }

  /** The command: pick a run (or take the one given) and finish it. */
  async command(arg?: unknown): Promise<ResumeOutcome> {
    const { controller, logger } = this.deps;
    if (controller.active) {
      void vscode.window.showErrorMessage(`RAG Inspector: a run of ${path.basename(controller.active.specFile)} is in progress; cancel it (RAG Inspector: Cancel Run) or wait for it to finish, then resume.`);
      return 'busy';
    }
    try {
      const runs = await this.list();
      const wanted = typeof arg === 'string' ? arg : (arg as { runId?: unknown } | undefined)?.runId;
      const run = typeof wanted === 'string' ? runs.find((r) => r.runId === wanted) : await this.pick(runs);
      if (!run && typeof wanted === 'string') {
        // Offered by the notice, but finished or resumed meanwhile (another window, a terminal).
        void vscode.window.showInformationMessage(`RAG Inspector: run ${wanted} is not interrupted any more; nothing to resume.`);
        return 'nothing-to-resume';
      }
      if (!run) {
        if (runs.length === 0) void vscode.window.showInformationMessage('RAG Inspector: no interrupted run to resume in this workspace.');
        return runs.length === 0 ? 'nothing-to-resume' : 'cancelled';
      }
      if (run.certainty === 'maybe-running' && !(await this.confirmMaybeRunning(run))) return 'cancelled';
      return await this.resume(run);
    } catch (error) {
      reportRunError(error, logger);
      return 'failed';
    }
  }

  /** Looks for an interrupted run when the window opens and offers it once: Resume, Show, Dismiss. */
  async announce(): Promise<void> {
    const runs = await this.list();
    this.markers.prune(new Set(runs.map((r) => path.normalize(r.file))));
    const dismissed = new Set(this.state.get<string[]>(DISMISSED_KEY, []));
    const run = runToAnnounce(runs, dismissed, Date.now());
    if (!run) return;
    this.deps.logger.info(`Interrupted run found: ${run.runId} of ${run.name} (${run.casesDone} cases done, ${run.file}).`);
    const choice = await vscode.window.showWarningMessage(announcement(run), 'Resume', 'Show', 'Dismiss');
    if (choice === 'Resume') {
      await vscode.commands.executeCommand(RESUME_RUN_COMMAND, { runId: run.runId });
    } else if (choice === 'Show') {
      await vscode.commands.executeCommand('ragInspector.openInspector', { runId: run.runId });
    } else {
      // Dismissed, or the notification closed: the run stays resumable from the command palette.
      await this.state.update(DISMISSED_KEY, [...dismissed, run.runId].slice(-100));
    }
  }

  /** Engine events: mark the log this process writes (a resumed run's earlier cases are listed by SessionRuns). */
  onEvent(event: RunEvent): void {
    if (event.type === 'run-started') this.safely(() => this.markers.mark(event.logFile, event.runId));
    else if (event.type === 'run-finished') this.safely(() => this.markers.clear(event.logFile));
  }

  /** A marker that cannot be written costs only the certainty of a later "interrupted"; the run goes on. */
  private safely(write: () => void): void {
    try {
      write();
    } catch (error) {
      this.deps.logger.warn(`Run marker: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private async resume(run: InterruptedRun): Promise<ResumeOutcome> {
    const { launcher, logger } = this.deps;
    if (!existsSync(run.specFile)) {
      void vscode.window.showErrorMessage(specMissingMessage(run));
      return 'failed';
    }
    // A scan keeps the header and which pairs are done, not the cases: a log may hold 100,000 of them.
    const [spec, log] = await Promise.all([loadEvalSpec(run.specFile), scanRunLog(run.file)]);
    // The engine refuses too, but here the user gets a way forward instead of an error.
    if (log.header.spec.hash !== spec.hash) {
      logger.warn(`Resume of ${run.runId}: ${run.specFile} changed since the run started; not resumed.`);
      const choice = await vscode.window.showWarningMessage(specChangedMessage(run), 'Start a new run');
      if (choice === 'Start a new run') await vscode.commands.executeCommand('ragInspector.runEvaluation', vscode.Uri.file(run.specFile));
      return 'spec-changed';
    }
    logger.info(`Resuming run ${run.runId} of ${run.name}: ${log.winners.size} cases already in ${run.file}.`);
    return launcher.launch({
      specFile: run.specFile,
      // Already loaded for the hash check: the launcher runs this one instead of reading the file again.
      spec,
      title: `Resume ${run.name}`,
      resume: run.file,
      // The engine skips finished cases by itself; the filter makes the cost guard count only the rest.
      caseFilter: (caseId, modelKey) => !log.winners.has(caseKey(caseId, modelKey)),
      openInspector: true,
      announce: true,
    });
  }

  private async pick(runs: InterruptedRun[]): Promise<InterruptedRun | undefined> {
    if (runs.length === 0) return undefined;
    const now = Date.now();
    const picked = await vscode.window.showQuickPick(
      runs.map((run) => ({ ...pickItem(run, (f) => vscode.workspace.asRelativePath(f), now), run })),
      { title: 'RAG Inspector: Resume Interrupted Run', placeHolder: 'Which run? Its finished cases are kept; the rest run now.', matchOnDescription: true },
    );
    return picked?.run;
  }

  private async confirmMaybeRunning(run: InterruptedRun): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(
      `The log of ${run.name} (run ${run.runId}) changed less than two minutes ago: it may still be running in a terminal or another window. Resuming a run that is still going writes its cases twice.`,
      { modal: true },
      'Resume Anyway',
    );
    return choice === 'Resume Anyway';
  }
}

export function activateResumeRun(context: vscode.ExtensionContext, deps: ResumeDeps): InterruptedRunsService {
  const markers = new LiveRunMarkers(liveRunMarkersDir(context.globalStorageUri.fsPath));
  const service = new InterruptedRunsService(deps, markers, context.workspaceState);
  context.subscriptions.push(
    deps.controller.onEvent((event) => service.onEvent(event)),
    vscode.commands.registerCommand(RESUME_RUN_COMMAND, (arg?: unknown) => service.command(arg)),
  );
  // Not awaited: activation must not wait on listing run logs.
  void service.announce().catch((error: unknown) => deps.logger.warn(`Looking for interrupted runs failed: ${error instanceof Error ? error.message : String(error)}`));
  return service;
}
