// Rerun Failed Cases and Rerun Case: chosen (case, model) pairs of an eval file run again as a NEW run, so nothing finished is lost.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RerunCasesArgument } from './codeLens.js';
import type { EvalFiles } from './evalFiles.js';
import type { LaunchOutcome, RunLauncher } from './launch.js';
import type { ResultsIndex } from './resultsIndex.js';
import type { RunStore } from './runStore.js';
import { caseKey, describeKey, isFailure } from '../core/model.js';

export interface RerunDeps {
  launcher: RunLauncher;
  store: RunStore;
  index: ResultsIndex;
  evalFiles: EvalFiles;
}

export type RerunOutcome = LaunchOutcome | 'no-eval-file' | 'nothing-to-rerun' | 'no-case';

/** The failed or errored cases of the eval file's current results (its latest run and the runs it builds on). */
export async function failedKeys(store: Pick<RunStore, 'latestResults'>, specFile: string): Promise<string[]> {
  const latest = await store.latestResults(specFile);
  if (!latest) return [];
  return [...latest.entries.entries()].filter(([, entry]) => isFailure(entry.result)).map(([key]) => key);
}

/**
 * Runs exactly these (case, model) pairs. The engine starts a new run log for them; requests identical to earlier
 * ones are answered from the response cache, so only what changed costs a call.
 */
export async function rerunKeys(deps: Pick<RerunDeps, 'launcher'>, specFile: string, keys: readonly string[], title: string): Promise<LaunchOutcome> {
  const wanted = new Set(keys);
  const outcome = await deps.launcher.launch({
    specFile,
    title,
    caseFilter: (caseId, modelKey) => wanted.has(caseKey(caseId, modelKey)),
    openInspector: true,
    announce: true,
  });
  if (typeof outcome === 'object') {
    // Show the new run, at the case when there was one.
    const reveal = keys.length === 1 ? { runId: outcome.runId, key: keys[0] } : { runId: outcome.runId };
    void vscode.commands.executeCommand('ragInspector.openInspector', reveal);
  }
  return outcome;
}

const isEvalFile = (file: string) => file.endsWith('.eval.yaml');

/**
 * Which eval file "Rerun Failed Cases" means: the one passed or open; for an open dataset or template, the eval file
 * whose results come from it; otherwise one that has runs, asked for when there are several.
 */
export async function rerunTarget(deps: RerunDeps, arg: unknown): Promise<string | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  const file = uri?.scheme === 'file' ? uri.fsPath : undefined;
  let candidates: string[];
  if (file && isEvalFile(file)) return file;
  if (file) {
    const fromRows = [...(deps.index.rowsOf(file)?.values() ?? [])].flat().map((e) => e.specFile);
    const fromTemplate = deps.index.resultsForTemplate(file).map((r) => r.specFile);
    candidates = [...new Set([...fromRows, ...fromTemplate])];
    if (candidates.length === 0) candidates = await deps.store.evalFiles();
  } else {
    candidates = await deps.store.evalFiles();
  }
  if (candidates.length <= 1) return candidates[0];
  const picked = await vscode.window.showQuickPick(
    candidates.map((spec) => ({ label: path.basename(spec), description: vscode.workspace.asRelativePath(spec), spec })),
    { title: 'RAG Inspector: Rerun Failed Cases', placeHolder: 'Rerun the failed cases of which eval file?' },
  );
  return picked?.spec;
}

export async function rerunFailed(deps: RerunDeps, arg: unknown): Promise<RerunOutcome> {
  const specFile = await rerunTarget(deps, arg);
  if (!specFile) {
    void vscode.window.showErrorMessage('RAG Inspector: no eval file with runs to rerun; run an evaluation first.');
    return 'no-eval-file';
  }
  const keys = await failedKeys(deps.store, specFile);
  if (keys.length === 0) {
    void vscode.window.showInformationMessage(`RAG Inspector: no failed cases in the current results of ${path.basename(specFile)}.`);
    return 'nothing-to-rerun';
  }
  return rerunKeys(deps, specFile, keys, `Rerun ${keys.length} failed case${keys.length === 1 ? '' : 's'}`);
}

function isRerunCases(arg: unknown): arg is RerunCasesArgument {
  const a = arg as Partial<RerunCasesArgument> | undefined;
  return typeof a?.specFile === 'string' && Array.isArray(a.keys) && a.keys.every((k) => typeof k === 'string');
}

/** From the inspector ({runId, key}) or a CodeLens ({specFile, keys}). */
export async function rerunCase(deps: RerunDeps, arg: unknown): Promise<RerunOutcome> {
  if (isRerunCases(arg)) {
    if (arg.keys.length === 0) return 'no-case';
    return rerunKeys(deps, arg.specFile, arg.keys, arg.keys.length === 1 ? `Rerun ${describeKey(arg.keys[0]!)}` : `Rerun ${arg.keys.length} cases`);
  }
  const { runId, key } = (arg ?? {}) as { runId?: unknown; key?: unknown };
  if (typeof runId !== 'string' || typeof key !== 'string') {
    void vscode.window.showErrorMessage('RAG Inspector: Rerun Case reruns one case: use it from the inspector or from a CodeLens on a dataset row.');
    return 'no-case';
  }
  const specFile = await deps.store.specFileOf(runId);
  if (!specFile) {
    void vscode.window.showErrorMessage(`RAG Inspector: cannot tell which eval file run ${runId} ran.`);
    return 'no-eval-file';
  }
  return rerunKeys(deps, specFile, [key], `Rerun ${describeKey(key)}`);
}
