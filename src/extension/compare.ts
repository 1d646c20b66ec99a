// Compare Runs: pick two logged runs of the workspace and list the cases whose outcome flipped; also the run picker Export Report shares.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../core/errors.js';
import type { RunStatus, RunTotals } from '../core/model.js';
import { listRuns } from '../core/run/runLog.js';
import { flippedRows } from '../core/report/caseItems.js';
import { inspectorRun } from '../core/report/inspectorRun.js';
import type { InspectorRun } from '../core/report/inspectorRun.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import type { CompareRow } from '../protocol.js';
import type { Logger } from './outputChannel.js';
import type { InspectorData } from './sessionRuns.js';
import { passRate } from './statusBar.js';

/** A run log found in the workspace, as the pickers list it. */
export interface StoredRun {
  file: string;
  runId: string;
  name: string;
  specFile: string;
  createdAt: string;
  status: RunStatus;
  totals?: RunTotals;
}

/** A logged run in the inspector's shapes: the run as listed and every case in full. */
export type LoggedRun = InspectorRun;

const EVAL_GLOB = '**/*.eval.yaml';
const EXCLUDE_GLOB = '**/{node_modules,.rag-inspector}/**';

/**
 * Every run logged for this workspace, newest first: `.rag-inspector/runs` of each workspace folder (runs started in
 * VS Code) and of each eval file's folder (the CLI's default).
 */
export async function workspaceRuns(): Promise<StoredRun[]> {
  const dirs = new Set<string>();
  for (const folder of vscode.workspace.workspaceFolders ?? []) dirs.add(path.join(folder.uri.fsPath, '.rag-inspector', 'runs'));
  for (const uri of await vscode.workspace.findFiles(EVAL_GLOB, EXCLUDE_GLOB)) dirs.add(path.join(path.dirname(uri.fsPath), '.rag-inspector', 'runs'));
  const entries = (await Promise.all([...dirs].map((dir) => listRuns(dir)))).flat();
  const runs: StoredRun[] = [];
  for (const entry of entries) {
    if (!entry.header || entry.status === 'unreadable') continue;
    runs.push({
      file: entry.file,
      runId: entry.runId,
      name: entry.header.spec.name,
      specFile: entry.header.spec.file,
      createdAt: entry.header.createdAt,
      status: entry.status,
      totals: entry.summary?.totals,
    });
  }
  return runs.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.runId.localeCompare(a.runId));
}

/** workspaceRuns for a command: a failure to list is shown to the user, and the command ends with undefined. */
export async function workspaceRunsOrReport(): Promise<StoredRun[] | undefined> {
  try {
    return await workspaceRuns();
  } catch (error) {
    void vscode.window.showErrorMessage(`RAG Inspector: could not list the runs: ${describeError(error)}`);
    return undefined;
  }
}

/** Finds a run by id or by its log's path. */
export function findRun(runs: readonly StoredRun[], idOrFile: string): StoredRun | undefined {
  return runs.find((r) => r.runId === idOrFile || path.resolve(r.file) === path.resolve(idOrFile));
}

type RunPickItem = vscode.QuickPickItem & { run: StoredRun };

function pickItem(run: StoredRun): RunPickItem {
  const rate = run.totals ? passRate(run.totals) : undefined;
  const verdict = run.totals
    ? `${rate === undefined ? 'no verdicts' : `${Math.round(rate * 100)}% passed`} (${run.totals.passed}/${run.totals.cases}${run.totals.error ? `, ${run.totals.error} errors` : ''})`
    : 'interrupted: no summary';
  const icon = run.status === 'success' || run.status === 'completed-with-errors' || run.status === 'completed-with-judge-errors' ? (run.totals && run.totals.failed + run.totals.error > 0 ? '$(warning)' : '$(pass)') : run.status === 'cancelled' ? '$(circle-slash)' : '$(error)';
  return {
    label: `${icon} ${run.name}`,
    description: new Date(run.createdAt).toLocaleString(),
    detail: `${verdict} · ${run.status} · ${run.runId} · ${vscode.workspace.asRelativePath(run.specFile)}`,
    run,
  };
}

/** A quick pick of runs, newest first, with the name, date and pass rate of each; `preselect` is highlighted. */
export async function pickRun(title: string, placeHolder: string, runs: readonly StoredRun[], preselect?: StoredRun): Promise<StoredRun | undefined> {
  const items = runs.map(pickItem);
  const active = items.find((i) => i.run === preselect);
  // Moving the preselected run to the top makes Enter choose it, which showQuickPick cannot otherwise preselect.
  const ordered = active ? [active, ...items.filter((i) => i !== active)] : items;
  const picked = await vscode.window.showQuickPick(ordered, { title, placeHolder, matchOnDescription: true, matchOnDetail: true });
  return picked?.run;
}

/** Reads a run log into the inspector's shapes, the same conversion the CLI's HTML report uses. */
export async function loadLoggedRun(file: string): Promise<LoggedRun> {
  return inspectorRun(await runDataFromLog(file));
}

/** The cases whose outcome (pass, fail, error, no verdict) differs between two runs, with both responses; the same rule as the static report. */
export function compareLoggedRuns(before: LoggedRun, after: LoggedRun): CompareRow[] {
  return flippedRows(before.cases, after.cases.values());
}

export interface CompareArgs {
  /** Run ids or log paths; the command asks for what is missing. */
  before?: string;
  after?: string;
}

export type CompareOutcome = 'cancelled' | 'not-enough-runs' | 'not-found' | 'failed' | { before: string; after: string; rows: CompareRow[] };

/**
 * Compare Runs: the later run, then the run to compare it with (the one before it preselected); the flipped cases come
 * back to the caller, and the inspector opens its compare view on the pair.
 */
export async function compareRunsCommand(data: InspectorData, logger: Logger, arg: unknown): Promise<CompareOutcome> {
  const args = (typeof arg === 'object' && arg !== null ? arg : {}) as CompareArgs;
  const runs = await workspaceRunsOrReport();
  if (!runs) return 'failed';
  if (runs.length < 2) {
    void vscode.window.showInformationMessage(`RAG Inspector: comparing needs two runs; this workspace has ${runs.length}. Run an evaluation (again) first.`);
    return 'not-enough-runs';
  }
  const after = args.after ? findRun(runs, args.after) : await pickRun('Compare Runs (1/2)', 'The later run', runs, runs[0]);
  if (args.after && !after) return notFound(args.after);
  if (!after) return 'cancelled';
  const others = runs.filter((r) => r !== after);
  const olderSameFile = others.find((r) => r.specFile === after.specFile && r.createdAt <= after.createdAt);
  const before = args.before ? findRun(runs, args.before) : await pickRun('Compare Runs (2/2)', `The run to compare ${after.name} with`, others, olderSameFile ?? others[0]);
  if (args.before && !before) return notFound(args.before);
  if (!before) return 'cancelled';

  let rows: CompareRow[];
  try {
    const [a, b] = await Promise.all([loadLoggedRun(before.file), loadLoggedRun(after.file)]);
    rows = compareLoggedRuns(a, b);
  } catch (error) {
    logger.error(`Compare Runs: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`RAG Inspector: could not compare the runs: ${describeError(error)}`);
    return 'failed';
  }
  logger.info(`Compare Runs: ${before.runId} → ${after.runId}: ${rows.length} case(s) changed outcome.`);
  // Callers that pass both runs (tests, other commands) want the rows, not a picker in their way.
  if (!(args.before && args.after)) void showFlipped(data, before, after, rows);
  return { before: before.runId, after: after.runId, rows };
}

/** Opens the inspector's compare view on the pair: the flipped cases side by side with the response diff. */
async function showFlipped(_data: InspectorData, before: StoredRun, after: StoredRun, rows: CompareRow[]): Promise<void> {
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(`RAG Inspector: no case changed outcome between ${before.runId} and ${after.runId}.`);
    return;
  }
  await vscode.commands.executeCommand('ragInspector.openInspector', { runId: after.runId, compare: { before: before.runId, after: after.runId } });
}

function notFound(id: string): CompareOutcome {
  void vscode.window.showErrorMessage(`RAG Inspector: no run ${id} in this workspace's .rag-inspector/runs.`);
  return 'not-found';
}
