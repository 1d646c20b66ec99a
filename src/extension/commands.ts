// The run commands (Run Evaluation, Rerun Failed/Case, Cancel Run, Compare Runs, Export Report), routed to the RunController.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunOptions } from '../core/engine/runEvaluation.js';
import type { EvalSpec } from '../core/spec/types.js';
import { compareRunsCommand } from './compare.js';
import type { EvalFiles } from './evalFiles.js';
import { STATE_FOLDER } from './evalFiles.js';
import { exportReportCommand } from './exportReport.js';
import { reportRunError } from './launch.js';
import type { RunLauncher } from './launch.js';
import type { Logger } from './outputChannel.js';
import { inputKindOf, quickRun } from './quickRun.js';
import { rerunCase, rerunFailed } from './rerun.js';
import type { RerunDeps } from './rerun.js';
import type { RunController, RunSummary } from './runController.js';

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
export type CommandOutcome =
  | 'cancelled' | 'nothing-to-cancel' | 'no-eval-file' | 'failed'
  | 'nothing-to-rerun' | 'no-case' | RunSummary;

/** What the run commands need; built once in extension.ts. */
export interface RunCommandDeps extends RerunDeps {
  controller: RunController;
  logger: Logger;
  launcher: RunLauncher;
  evalFiles: EvalFiles;
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
  const found = await vscode.workspace.findFiles('**/*.eval.yaml', `{**/node_modules/**,**/${STATE_FOLDER}/**}`, 50);
  if (found.length === 1) return found[0]!.fsPath;
  if (found.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    found.map((uri) => ({ label: path.basename(uri.fsPath), description: vscode.workspace.asRelativePath(uri), uri })),
    { title: 'RAG Inspector: Run Evaluation', placeHolder: 'Which eval file?' },
  );
  return picked?.uri.fsPath;
}

/** Settings that change a run started from VS Code; the eval file (loaded by the launcher) decides everything else. */
export function settingsOverrides(spec: EvalSpec): RunOptions['overrides'] {
  const config = vscode.workspace.getConfiguration('ragInspector');
  const concurrency = config.get<number | null>('concurrency') ?? undefined;
  // Only a true setting turns batch mode on: off leaves the eval file's own `batch:` choices alone.
  const batch = config.get<boolean>('batch') === true ? { batch: true } : {};
  const baseUrl = config.get<string>('openaiBaseUrl')?.trim();
  if (!baseUrl) return { concurrency, ...batch };
  // Models that name no endpoint get the configured one; whether a stored key may go there is the Credentials' call.
  const models = spec.models.map((m) => (!m.baseUrl && (m.provider === 'openai' || m.provider === 'openai-compatible') ? { ...m, baseUrl } : m));
  return { concurrency, models, ...batch };
}

/**
 * On a template or dataset (passed, or the active editor): the eval file that uses it, picked when several do; when
 * none does, the quick run that asks the missing choices. Otherwise the eval file passed, open, or in the workspace.
 */
export async function runEvaluation(deps: RunCommandDeps, arg: unknown): Promise<CommandOutcome> {
  const { logger, launcher } = deps;
  try {
    const input = inputFile(arg);
    let file: string | undefined;
    if (input) {
      const users = (await deps.evalFiles.using(input)).map((u) => u.info.file);
      if (users.length === 0) return (await quickRun(launcher, logger, deps.evalFiles, input)).outcome;
      file = users.length === 1 ? users[0] : await pickEvalFile(users, input);
      if (!file) return 'cancelled';
    } else {
      file = await resolveEvalFile(arg);
    }
    if (!file) {
      void vscode.window.showErrorMessage('RAG Inspector: open or select an *.eval.yaml file, a prompt template or a dataset to run.');
      return 'no-eval-file';
    }
    return await launcher.launch({ specFile: file, title: 'Run Evaluation', openInspector: true, announce: true });
  } catch (error) {
    reportRunError(error, logger);
    return 'failed';
  }
}

/** A template or dataset to start from: the one passed, else the active editor's when it is one. */
function inputFile(arg: unknown): string | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === 'file' && inputKindOf(arg.fsPath) ? arg.fsPath : undefined;
  if (arg !== undefined) return undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  return active?.scheme === 'file' && inputKindOf(active.fsPath) ? active.fsPath : undefined;
}

async function pickEvalFile(files: string[], input: string): Promise<string | undefined> {
  const picked = await vscode.window.showQuickPick(
    files.map((file) => ({ label: path.basename(file), description: vscode.workspace.asRelativePath(file), file })),
    { title: 'RAG Inspector: Run Evaluation', placeHolder: `Several eval files use ${path.basename(input)}; which one?` },
  );
  return picked?.file;
}

/** Rerun commands share Run Evaluation's guards: no engine, or a failure the launcher did not report itself. */
async function guarded(deps: RunCommandDeps, title: string, run: () => Promise<CommandOutcome>): Promise<CommandOutcome> {
  try {
    return await run();
  } catch (error) {
    reportRunError(error, deps.logger);
    return 'failed';
  }
}

export function activateRunCommands(context: vscode.ExtensionContext, deps: RunCommandDeps): void {
  const { controller, logger } = deps;
  context.subscriptions.push(
    vscode.commands.registerCommand(COMMAND_IDS.runEvaluation, (arg?: unknown) => runEvaluation(deps, arg)),
    vscode.commands.registerCommand(COMMAND_IDS.cancelRun, () => cancelRun(controller, logger)),
    vscode.commands.registerCommand(COMMAND_IDS.rerunFailed, (arg?: unknown) => guarded(deps, 'Rerun Failed Cases', () => rerunFailed(deps, arg))),
    vscode.commands.registerCommand(COMMAND_IDS.rerunCase, (arg?: unknown) => guarded(deps, 'Rerun Case', () => rerunCase(deps, arg))),
    // The disk-backed store, so the inspector can open any run Compare Runs lists.
    vscode.commands.registerCommand(COMMAND_IDS.compareRuns, (arg?: unknown) => compareRunsCommand(deps.store, logger, arg)),
    vscode.commands.registerCommand(COMMAND_IDS.exportReport, (arg?: unknown) => exportReportCommand(context.extensionUri, logger, arg, deps.launcher.untrusted)),
  );
}
