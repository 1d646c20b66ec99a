// Get Started: the command behind the walkthrough's first step, which copies the bundled RGB example into a folder and opens it.
import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../core/errors.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { templateOf } from './evalFiles.js';
import type { Logger } from './outputChannel.js';

export const OPEN_EXAMPLE_COMMAND = 'ragInspector.openExample';
export const EXAMPLE_FOLDER = 'rag-inspector-example';
export const EXAMPLE_EVAL_FILE = 'rgb-example.eval.yaml';
/** The built-in template the example's first suite renders with, copied beside it so the walkthrough's last step has one to edit. */
export const EXAMPLE_PROMPT_FILE = 'my-rgb-prompt.prompt';
/** Set before a window reload into a new folder, so the next activation opens the example's eval file. */
const OPEN_AFTER_RELOAD_KEY = 'ragInspector.openAfterReload';

export type OpenExampleOutcome = 'cancelled' | 'failed' | { folder: string; evalFile: string; copied: boolean };

/**
 * Copies examples/rgb (shipped inside the extension) to `<target>/rag-inspector-example`, unless it is there already,
 * without the run logs a local run of the example may have left in the source.
 */
export async function copyExample(extensionPath: string, target: string): Promise<{ folder: string; copied: boolean }> {
  const folder = path.join(target, EXAMPLE_FOLDER);
  if (existsSync(path.join(folder, EXAMPLE_EVAL_FILE))) return { folder, copied: false };
  await mkdir(folder, { recursive: true });
  const source = path.join(extensionPath, 'examples', 'rgb');
  await cp(source, folder, { recursive: true, filter: (file) => !file.split(path.sep).includes('.rag-inspector') });
  // Which template that is, its method says (Suite.defaultTemplate), not this file.
  const spec = await loadEvalSpec(path.join(folder, EXAMPLE_EVAL_FILE));
  const template = spec.suites.map((suite) => templateOf(suite, spec.file)).find((file) => file !== undefined);
  if (template) await cp(template, path.join(folder, EXAMPLE_PROMPT_FILE));
  return { folder, copied: true };
}

/**
 * In a window with a folder: copy the example into it and open the eval file. With no folder: ask where to put it,
 * then open that folder (VS Code reloads the window; the eval file opens after the reload).
 */
export async function openExampleCommand(context: vscode.ExtensionContext, logger: Logger, arg: unknown): Promise<OpenExampleOutcome> {
  const given = typeof arg === 'object' && arg !== null && typeof (arg as { target?: unknown }).target === 'string' ? (arg as { target: string }).target : undefined;
  const workspaceFolder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  const target = given ?? workspaceFolder ?? (await vscode.window.showOpenDialog({
    title: 'RAG Inspector: where should the example folder go?',
    openLabel: `Create ${EXAMPLE_FOLDER} Here`,
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
  }))?.[0]?.fsPath;
  if (!target) return 'cancelled';
  try {
    const { folder, copied } = await copyExample(context.extensionPath, target);
    const evalFile = path.join(folder, EXAMPLE_EVAL_FILE);
    logger.info(`Open Example: ${copied ? 'copied the RGB example to' : 'the RGB example is already in'} ${folder}.`);
    const inWorkspace = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(evalFile)) !== undefined;
    if (inWorkspace) {
      await vscode.window.showTextDocument(vscode.Uri.file(evalFile), { preview: false });
    } else {
      await context.globalState.update(OPEN_AFTER_RELOAD_KEY, evalFile);
      void vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(folder));
    }
    return { folder, evalFile, copied };
  } catch (error) {
    logger.error(`Open Example: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`RAG Inspector: could not copy the example: ${describeError(error)}`);
    return 'failed';
  }
}

/** After "Open Example" reloaded the window into the example's folder, show its eval file once. */
async function openPendingExample(context: vscode.ExtensionContext): Promise<void> {
  const pending = context.globalState.get<string>(OPEN_AFTER_RELOAD_KEY);
  if (!pending || !vscode.workspace.getWorkspaceFolder(vscode.Uri.file(pending))) return;
  await context.globalState.update(OPEN_AFTER_RELOAD_KEY, undefined);
  if (existsSync(pending)) await vscode.window.showTextDocument(vscode.Uri.file(pending), { preview: false });
}

export function activateWalkthrough(context: vscode.ExtensionContext, logger: Logger): void {
  context.subscriptions.push(vscode.commands.registerCommand(OPEN_EXAMPLE_COMMAND, (arg?: unknown) => openExampleCommand(context, logger, arg)));
  void openPendingExample(context);
}
