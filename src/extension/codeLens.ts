// CodeLens over dataset rows with results ("✗ noise 0.6 — wrong answer · Inspect · Rerun") and over templates ("Run Evaluation · 12 failed of 260").
import * as path from 'node:path';
import * as vscode from 'vscode';
import { failureTitle } from '../core/report/caseItems.js';
import type { EvalFiles } from './evalFiles.js';
import type { LatestEntry } from './currentResults.js';
import type { ResultsIndex } from './resultsIndex.js';
import { caseKey, isFailure } from '../core/model.js';

export const SHOW_PASSING_SETTING = 'codeLens.showPassing';

const OPEN_INSPECTOR = 'ragInspector.openInspector';
const RERUN_CASE = 'ragInspector.rerunCase';
const RUN_EVALUATION = 'ragInspector.runEvaluation';

/** What "Rerun" on a row passes to ragInspector.rerunCase: the row's failed cases of one eval file. */
export interface RerunCasesArgument {
  specFile: string;
  keys: string[];
}

function keyOf(entry: LatestEntry): string {
  return caseKey(entry.evalCase.id, entry.result.modelKey);
}

export class ResultsCodeLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly subscriptions: vscode.Disposable[];

  constructor(private readonly index: ResultsIndex, private readonly evalFiles: EvalFiles) {
    this.subscriptions = [
      index.onDidChange(() => this.changed.fire()),
      vscode.workspace.onDidChangeConfiguration((e) => { if (e.affectsConfiguration(`ragInspector.${SHOW_PASSING_SETTING}`)) this.changed.fire(); }),
    ];
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (document.uri.scheme !== 'file') return [];
    const file = document.uri.fsPath;
    return [...(await this.templateLenses(file)), ...this.rowLenses(file, document.lineCount)];
  }

  private rowLenses(file: string, lineCount: number): vscode.CodeLens[] {
    const rows = this.index.rowsOf(file);
    if (!rows) return [];
    const showPassing = vscode.workspace.getConfiguration('ragInspector').get<boolean>(SHOW_PASSING_SETTING, false);
    const lenses: vscode.CodeLens[] = [];
    for (const [line, entries] of rows) {
      // The file may have shrunk since the run; a lens past its end would point nowhere.
      if (line > lineCount) continue;
      const range = new vscode.Range(line - 1, 0, line - 1, 0);
      const failed = entries.filter((e) => isFailure(e.result));
      if (failed.length > 0) lenses.push(...this.failureLenses(range, failed));
      else if (showPassing) {
        const passed = entries.filter((e) => e.result.pass === true).length;
        const first = entries[0]!;
        lenses.push(new vscode.CodeLens(range, {
          title: `✓ ${passed}/${entries.length}`,
          tooltip: `${passed} of ${entries.length} cases from this row passed in the current results of ${path.basename(first.specFile)}`,
          command: OPEN_INSPECTOR,
          arguments: [{ runId: first.runId, key: keyOf(first) }],
        }));
      }
    }
    return lenses;
  }

  private failureLenses(range: vscode.Range, failed: LatestEntry[]): vscode.CodeLens[] {
    const first = failed[0]!;
    const models = new Set(failed.map((e) => e.result.modelKey));
    const more = failed.length > 1 ? ` (+${failed.length - 1} more)` : '';
    const sameFile = failed.filter((e) => e.specFile === first.specFile);
    const rerun: RerunCasesArgument = { specFile: first.specFile, keys: sameFile.map(keyOf) };
    return [
      // No command: a label. The two actions after it are the clickable parts.
      new vscode.CodeLens(range, { title: `✗ ${failureTitle(first, models.size > 1)}${more}`, tooltip: first.failure, command: '' }),
      new vscode.CodeLens(range, {
        title: 'Inspect',
        tooltip: `Open ${first.evalCase.id} in the inspector (run ${first.runId})`,
        command: OPEN_INSPECTOR,
        arguments: [{ runId: first.runId, key: keyOf(first) }],
      }),
      new vscode.CodeLens(range, {
        title: sameFile.length > 1 ? `Rerun ${sameFile.length}` : 'Rerun',
        tooltip: `Run ${sameFile.length === 1 ? 'this case' : `these ${sameFile.length} cases`} again as a new run (unchanged requests come from the cache)`,
        command: RERUN_CASE,
        arguments: [rerun],
      }),
    ];
  }

  /** Line 1 of a template: run each eval file that uses it, with its current failures. */
  private async templateLenses(file: string): Promise<vscode.CodeLens[]> {
    const withResults = this.index.resultsForTemplate(file);
    const known = new Set(withResults.map((r) => r.specFile));
    const users = (await this.evalFiles.using(file)).filter((u) => u.suites.some((s) => s.template && path.normalize(s.template) === path.normalize(file)));
    const range = new vscode.Range(0, 0, 0, 0);
    const several = withResults.length + users.filter((u) => !known.has(path.normalize(u.info.file))).length > 1;
    const lenses: vscode.CodeLens[] = [];
    for (const results of withResults) {
      const entries = [...results.entries.values()].filter((e) => e.evalCase.template && path.normalize(e.evalCase.template) === path.normalize(file));
      const failed = entries.filter((e) => isFailure(e.result)).length;
      lenses.push(new vscode.CodeLens(range, {
        title: `Run Evaluation${several ? ` (${results.name})` : ''} · ${failed} failed of ${entries.length} (last run)`,
        tooltip: `Run ${path.basename(results.specFile)}; the counts are its current results with this template`,
        command: RUN_EVALUATION,
        arguments: [vscode.Uri.file(results.specFile)],
      }));
    }
    for (const { info } of users) {
      if (known.has(path.normalize(info.file))) continue;
      lenses.push(new vscode.CodeLens(range, {
        title: `Run Evaluation${several ? ` (${info.name})` : ''}`,
        tooltip: `Run ${path.basename(info.file)}, which uses this template (no run yet)`,
        command: RUN_EVALUATION,
        arguments: [vscode.Uri.file(info.file)],
      }));
    }
    return lenses;
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

export function activateCodeLens(context: vscode.ExtensionContext, index: ResultsIndex, evalFiles: EvalFiles): ResultsCodeLensProvider {
  const provider = new ResultsCodeLensProvider(index, evalFiles);
  context.subscriptions.push(provider, vscode.languages.registerCodeLensProvider({ scheme: 'file' }, provider));
  return provider;
}
