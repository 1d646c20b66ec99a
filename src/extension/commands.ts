// The run commands (Run Evaluation, Rerun Failed/Case, Cancel Run, Compare Runs, Export Report), routed to the RunController.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError, InputErrors } from '../core/errors.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { compareRunsCommand } from './compare.js';
import { exportReportCommand } from './exportReport.js';
import type { Logger } from './outputChannel.js';
import type { RunController, RunSummary, StartOptions } from './runController.js';
import type { InspectorData } from './sessionRuns.js';

export const COMMAND_IDS = {
  runEvaluation: 'ragInspector.runEvaluation',
  rerunFailed: 'ragInspector.rerunFailed',
  rerunCase: 'ragInspector.rerunCase',
  cancelRun: 'ragInspector.cancelRun',
  openInspector: 'ragInspector.openInspector',
  compareRuns: 'ragInspector.compareRuns',
  setApiKey: 'ragInspector.setApiKey',
  exportReport: 'ragInspector.exportReport',
} as const;

/** What a command handler reports back to executeCommand callers (tests, other commands). */
export type CommandOutcome = 'cancelled' | 'nothing-to-cancel' | 'no-eval-file' | 'engine-unavailable' | 'not-available' | 'failed' | RunSummary;

export function engineUnavailable(title: string): CommandOutcome {
  void vscode.window.showErrorMessage(`RAG Inspector: ${title} cannot start — the evaluation engine is not available in this build.`);
  return 'engine-unavailable';
}

/** For commands registered ahead of their implementation: say so rather than do nothing. */
export function notAvailableYet(title: string): CommandOutcome {
  void vscode.window.showErrorMessage(`RAG Inspector: ${title} is not available in this version yet.`);
  return 'not-available';
}

export function cancelRun(controller: Pick<RunController, 'cancel'>, logger: Logger): CommandOutcome {
  if (!controller.cancel()) {
    void vscode.window.showInformationMessage('RAG Inspector: no evaluation is running.');
    return 'nothing-to-cancel';
  }
  // Finished cases are already in the run log; the engine closes it with status "cancelled".
  logger.info('Cancel requested: the run stops after the calls in flight.');
  return 'cancelled';
}

/** The eval file to run: the one passed (explorer, CodeLens), the active editor's, or one picked from the workspace. */
export async function resolveEvalFile(arg: unknown): Promise<string | undefined> {
  if (arg instanceof vscode.Uri) return arg.fsPath;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active && active.scheme === 'file' && active.fsPath.endsWith('.eval.yaml')) return active.fsPath;
  const found = await vscode.workspace.findFiles('**/*.eval.yaml', '**/node_modules/**', 50);
  if (found.length === 1) return found[0]!.fsPath;
  if (found.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    found.map((uri) => ({ label: path.basename(uri.fsPath), description: vscode.workspace.asRelativePath(uri), uri })),
    { title: 'RAG Inspector: Run Evaluation', placeHolder: 'Which eval file?' },
  );
  return picked?.uri.fsPath;
}

/** Settings that change a run started from VS Code; the eval file decides everything else. */
export async function settingsOverrides(file: string): Promise<StartOptions['overrides']> {
  const config = vscode.workspace.getConfiguration('ragInspector');
  const concurrency = config.get<number | null>('concurrency') ?? undefined;
  const baseUrl = config.get<string>('openaiBaseUrl')?.trim();
  if (!baseUrl) return { concurrency };
  // Models that name no endpoint get the configured one; whether a stored key may go there is the Credentials' call.
  const spec = await loadEvalSpec(file);
  const models = spec.models.map((m) => (!m.baseUrl && (m.provider === 'openai' || m.provider === 'openai-compatible') ? { ...m, baseUrl } : m));
  return { concurrency, models };
}

export async function runEvaluation(controller: RunController, logger: Logger, arg: unknown): Promise<CommandOutcome> {
  if (!controller.available) return engineUnavailable('Run Evaluation');
  const file = await resolveEvalFile(arg);
  if (!file) {
    void vscode.window.showErrorMessage('RAG Inspector: open or select an *.eval.yaml file to run.');
    return 'no-eval-file';
  }
  const folder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(file))?.uri.fsPath;
  logger.info(`Run Evaluation: ${file}`);
  try {
    const overrides = await settingsOverrides(file);
    void vscode.commands.executeCommand(COMMAND_IDS.openInspector);
    const summary = await controller.start(file, { workspaceDir: folder, overrides });
    const t = summary.totals;
    const line = `run ${summary.runId} ${summary.status}: ${t.passed} passed, ${t.failed} failed, ${t.error} errors.`;
    logger.info(line);
    if (summary.status === 'success' && t.error === 0) void vscode.window.showInformationMessage(`RAG Inspector: ${line}`);
    else void vscode.window.showWarningMessage(`RAG Inspector: ${line}`);
    // Just the summary: the engine's outcome holds the whole plan, too much to hand to executeCommand callers.
    return { runId: summary.runId, status: summary.status, totals: summary.totals };
  } catch (error) {
    reportRunError(error, logger);
    return 'failed';
  }
}

function reportRunError(error: unknown, logger: Logger): void {
  if (error instanceof InputErrors) {
    for (const e of error.errors) logger.error(e.format());
    void vscode.window.showErrorMessage(`RAG Inspector: the eval file has ${error.errors.length} problem(s); see the RAG Inspector output.`);
    return;
  }
  logger.error(error instanceof Error ? error : String(error));
  void vscode.window.showErrorMessage(`RAG Inspector: ${describeError(error)}`);
}

export function activateRunCommands(context: vscode.ExtensionContext, controller: RunController, logger: Logger, data: InspectorData): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMAND_IDS.runEvaluation, (arg?: unknown) => runEvaluation(controller, logger, arg)),
    vscode.commands.registerCommand(COMMAND_IDS.cancelRun, () => cancelRun(controller, logger)),
    // Not implemented yet (they read past runs from .rag-inspector/runs); registered so menus and keybindings resolve.
    vscode.commands.registerCommand(COMMAND_IDS.rerunFailed, () => notAvailableYet('Rerun Failed Cases')),
    vscode.commands.registerCommand(COMMAND_IDS.rerunCase, () => notAvailableYet('Rerun Case')),
    vscode.commands.registerCommand(COMMAND_IDS.compareRuns, (arg?: unknown) => compareRunsCommand(data, logger, arg)),
    vscode.commands.registerCommand(COMMAND_IDS.exportReport, (arg?: unknown) => exportReportCommand(context.extensionUri, logger, arg)),
  );
}
