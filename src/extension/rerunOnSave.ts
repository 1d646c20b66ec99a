// Rerun on save: while the inspector is open, saving a template or dataset an eval file uses reruns that file's affected suites.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EvalFiles } from './evalFiles.js';
import { STATE_FOLDER } from './evalFiles.js';
import type { LaunchOutcome, RunLauncher } from './launch.js';
import type { Logger } from './outputChannel.js';
import type { ResultsIndex } from './resultsIndex.js';
import type { RunController } from './runController.js';
import type { RunStore } from './runStore.js';
import { COMMAND_IDS } from './commands.js';
import { describeError } from '../core/errors.js';
import { caseVerdictLines, comparePaired } from '../core/report/pairedComparison.js';
import { runDataFromLog } from '../core/report/runDataSources.js';

export const RERUN_ON_SAVE_SETTING = 'rerunOnSave';

export interface RerunOnSaveDeps {
  launcher: RunLauncher;
  controller: Pick<RunController, 'active' | 'cancel'>;
  store: Pick<RunStore, 'latestResults' | 'logFileOf'>;
  /** The eval files with results, known in memory: a save of any file must not read every run log. */
  index: Pick<ResultsIndex, 'all'>;
  evalFiles: EvalFiles;
  /** The feature is on only while the inspector panel is open: that is where the changes show. */
  isPanelOpen(): boolean;
  /** Shows the new run in the panel. */
  reveal(runId: string): void;
  logger: Logger;
  /** Saves within this window make one run (format-on-save, "save all"). */
  delayMs?: number;
}

/** What one rerun did, for the panel and the tests. */
export interface RerunOnSaveResult {
  specFile: string;
  suiteIds: string[];
  previousRunId: string;
  outcome: LaunchOutcome;
  /** The paired verdict against the previous run, one line per rerun suite and model (empty when nothing paired). */
  verdict?: string[];
}

/**
 * Never two runs at once. A rerun on save still going when the next save comes is cancelled and started again:
 * its results describe a template that no longer exists, and the cases it finished are in its log and the cache,
 * so the restart pays only for what the new edit changed. A run the user started (Run Evaluation, a rerun command)
 * is never cancelled by a save: the rerun waits until it ends.
 */
export class RerunOnSave implements vscode.Disposable {
  private readonly pending = new Map<string, Set<string>>();
  private inFlight: { specFile: string; suiteIds: Set<string> } | undefined;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  /** The "off in an untrusted workspace" line is logged once, not on every save. */
  private toldUntrusted = false;
  private readonly rerun = new vscode.EventEmitter<RerunOnSaveResult>();
  readonly onDidRerun = this.rerun.event;

  constructor(private readonly deps: RerunOnSaveDeps) {}

  get enabled(): boolean {
    return vscode.workspace.getConfiguration('ragInspector').get<boolean>(RERUN_ON_SAVE_SETTING, true) && this.deps.isPanelOpen() && this.deps.launcher.automaticRunsAllowed;
  }

  async onSaved(document: vscode.TextDocument): Promise<void> {
    if (document.uri.scheme !== 'file' || !this.enabled) {
      if (!this.deps.launcher.automaticRunsAllowed && !this.toldUntrusted) {
        this.toldUntrusted = true;
        this.deps.logger.info('Rerun on save is off in this untrusted workspace: runs start only from a click. Trust the workspace to turn it on.');
      }
      return;
    }
    const file = document.uri.fsPath;
    if (file.split(path.sep).includes(STATE_FOLDER) || file.endsWith('.eval.yaml')) return;
    // Only eval files with results: a save is a reason to refresh results, not to start a first run. Those include
    // eval files outside the workspace search (a quick run's file lives under .rag-inspector).
    const withResults = new Set(this.deps.index.all().map((r) => path.normalize(r.specFile)));
    const users = await this.deps.evalFiles.using(file, [...withResults]);
    let added = 0;
    for (const { info, suites } of users) {
      if (!withResults.has(path.normalize(info.file))) continue;
      const ids = this.pending.get(info.file) ?? new Set<string>();
      for (const suite of suites) ids.add(suite.suiteId);
      this.pending.set(info.file, ids);
      added += suites.length;
    }
    if (added === 0) return;
    this.deps.logger.info(`Rerun on save: ${path.basename(file)} changed; ${added} suite(s) queued.`);
    if (this.inFlight && this.deps.controller.active) {
      const { specFile, suiteIds } = this.inFlight;
      const ids = this.pending.get(specFile) ?? new Set<string>();
      for (const id of suiteIds) ids.add(id);
      this.pending.set(specFile, ids);
      this.deps.controller.cancel();
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.drain(), this.deps.delayMs ?? 400);
  }

  /** Settles when every queued rerun has run (for tests and for a clean shutdown). */
  async idle(): Promise<void> {
    while (this.timer || this.draining) {
      if (this.draining) await this.draining;
      else await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private drain(): Promise<void> {
    this.timer = undefined;
    this.draining ??= this.runQueued().finally(() => { this.draining = undefined; });
    return this.draining;
  }

  private async runQueued(): Promise<void> {
    while (this.pending.size > 0) {
      if (this.deps.controller.active) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      const [specFile, suiteIds] = this.pending.entries().next().value!;
      this.pending.delete(specFile);
      const previousRunId = (await this.deps.store.latestResults(specFile))?.latestRunId;
      if (!previousRunId) continue;
      const ids = [...suiteIds];
      this.inFlight = { specFile, suiteIds };
      let outcome: LaunchOutcome;
      try {
        outcome = await this.deps.launcher.launch({
          specFile,
          title: 'Rerun on save',
          // Case ids start with their suite's id (the suite contract), which is all the filter is given.
          caseFilter: (caseId) => ids.some((id) => caseId.startsWith(`${id}/`)),
          announce: false,
        });
      } finally {
        this.inFlight = undefined;
      }
      let verdict: string[] | undefined;
      if (typeof outcome === 'object' && outcome.status !== 'cancelled') {
        this.deps.logger.info(`Rerun on save: run ${outcome.runId} after ${previousRunId}; the inspector's Compare view shows what changed.`);
        this.deps.reveal(outcome.runId);
        verdict = await this.pairedVerdict(previousRunId, outcome.runId, ids);
      }
      this.rerun.fire({ specFile, suiteIds: ids, previousRunId, outcome, ...(verdict ? { verdict } : {}) });
    }
  }

  /**
   * Whether the edit helped: the rerun suites' case verdicts paired with the previous run's, logged and shown in a
   * notification whose button opens the Compare view. A comparison that fails is logged; the rerun still counts.
   */
  private async pairedVerdict(previousRunId: string, runId: string, suiteIds: string[]): Promise<string[] | undefined> {
    try {
      const [before, after] = await Promise.all([this.deps.store.logFileOf(previousRunId), this.deps.store.logFileOf(runId)]);
      const lines = caseVerdictLines(await comparePaired(await runDataFromLog(before), await runDataFromLog(after)), suiteIds);
      if (lines.length === 0) return lines;
      this.deps.logger.info(`Rerun on save, paired with ${previousRunId}: ${lines.join('; ')}`);
      void vscode.window.showInformationMessage(`RAG Inspector: after your edit — ${lines.join('; ')}`, 'Compare').then((choice) => {
        if (choice === 'Compare') void vscode.commands.executeCommand(COMMAND_IDS.compareRuns, { before: previousRunId, after: runId });
      });
      return lines;
    } catch (error) {
      this.deps.logger.error(`Rerun on save: could not pair ${runId} with ${previousRunId}: ${describeError(error)}`);
      return undefined;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.pending.clear();
    this.rerun.dispose();
  }
}

export function activateRerunOnSave(context: vscode.ExtensionContext, deps: RerunOnSaveDeps): RerunOnSave {
  const rerun = new RerunOnSave(deps);
  context.subscriptions.push(rerun, vscode.workspace.onDidSaveTextDocument((document) => void rerun.onSaved(document)));
  return rerun;
}
