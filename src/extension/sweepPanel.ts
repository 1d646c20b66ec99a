// The sweep panel: a locked-down webview running the inspector bundle on one sweep's data (the bundle's sweep view
// draws the heatmap and table), and the host's side of its end-to-end part: the cells the user picks priced with the
// CLI's cost plan, asked about above the limit, run through the engine one after another with progress and cancel,
// and each cell's run (found again on disk when the sweep is shown later) sent back as accuracy and failure split.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { cellMatches } from '../core/corpus/sweep/grid.js';
import type { SweepGrid } from '../core/corpus/sweep/grid.js';
import { cellEvalSpec } from '../core/corpus/sweep/endToEnd.js';
import type { SweepReport } from '../core/corpus/sweep/runSweep.js';
import { endToEndLine, runSweepCell, sweepCostPlan } from '../core/engine/sweepCell.js';
import { describeError } from '../core/errors.js';
import type { Credentials } from '../core/providers/registry.js';
import { REPORT_DATA_ELEMENT_ID } from '../core/report/html.js';
import { finishedCellRun } from '../core/report/sweepCellRun.js';
import type { SweepCellRun } from '../core/report/sweepCellRun.js';
import { sweepDataText } from '../core/report/sweepFiles.js';
import type { EvalSpec } from '../core/spec/types.js';
import { CancelSweepCells, OpenSweepCellRun, PROTOCOL_VERSION, Ready, RunSweepCells, SweepCellRuns } from '../protocol.js';
import { withCancellableProgress } from './cancellableProgress.js';
import { confirmSweepCost } from './costGuard.js';
import { maxCostWithoutConfirm } from './launch.js';
import { RunInProgressError } from './runController.js';
import type { RunController } from './runController.js';
import type { Logger } from './outputChannel.js';
import { answerWebview, inspectorHtml, makeNonce, panelOptions } from './panel.js';
import type { InspectorData } from './sessionRuns.js';
import { onCommand } from './webviewDispatch.js';

export const SWEEP_VIEW_TYPE = 'ragInspector.sweep';

const TITLE = 'Sweep end to end';

/** The inspector panel's page (its CSP and nonce) with the sweep's data element: JSON, never run, escaped so no text can end it. */
export function sweepHtml(webview: vscode.Webview, extensionUri: vscode.Uri, report: SweepReport): string {
  return inspectorHtml(webview, extensionUri, makeNonce(), `\n<script type="application/json" id="${REPORT_DATA_ELEMENT_ID}">${sweepDataText(report)}</script>`);
}

export interface SweepPanelDeps {
  extensionUri: vscode.Uri;
  logger: Logger;
  /** Keys for the cells' models, embeddings and reranker (SecretStorage). */
  credentials: Credentials;
  /** Every run on disk: a cell's earlier end-to-end run (the CLI's too) is found there by the name its eval file gives it. */
  runs: Pick<InspectorData, 'listRuns' | 'getRun'>;
  /** The one run at a time: the cells hold it while they run, so no other run starts meanwhile and Cancel Run stops them. */
  controller: Pick<RunController, 'active' | 'hold'>;
}

/** What the panel shows and runs from: the sweep's eval file as loaded, its grid and the retrieval part's report. */
export interface SweepSource {
  spec: EvalSpec;
  grid: SweepGrid;
  report: SweepReport;
}

/** One panel per sweep shown (a sweep is a result to compare with the next, not a live view). */
export class SweepPanel implements vscode.Disposable {
  private ready = false;
  private readonly runs = new Map<string, SweepCellRun>();
  private running: AbortController | undefined;
  private message: string | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(readonly panel: vscode.WebviewPanel, private readonly deps: SweepPanelDeps, private readonly source: SweepSource) {
    this.disposables.push(
      answerWebview(panel, [
        onCommand(Ready, ({ protocolVersion }) => this.onReady(protocolVersion)),
        onCommand(RunSweepCells, ({ cells }) => this.runCells(cells)),
        onCommand(CancelSweepCells, () => { this.running?.abort(new Error('cancelled')); }),
        onCommand(OpenSweepCellRun, ({ runId }) => vscode.commands.executeCommand('ragInspector.openInspector', { runId })),
      ], deps.logger),
      panel.onDidDispose(() => this.dispose()),
      // A hidden panel loses its page; shown again, it says ready and is sent the state afresh.
      panel.onDidChangeViewState(() => { if (!panel.visible) this.ready = false; }),
    );
    panel.webview.html = sweepHtml(panel.webview, deps.extensionUri, source.report);
    // The cells' earlier runs, read from disk once as the panel opens.
    void this.readEarlierRuns();
  }

  /** The cells' end-to-end state as last sent to the view. */
  get cellRuns(): SweepCellRun[] {
    return [...this.runs.values()];
  }

  private onReady(version: number): void {
    if (version !== PROTOCOL_VERSION) {
      void vscode.window.showErrorMessage(`RAG Inspector: the sweep view speaks protocol ${String(version)} but the extension speaks ${PROTOCOL_VERSION}. Rebuild with "npm run build" and reopen the panel.`);
      return;
    }
    this.ready = true;
    this.post();
  }

  /** The whole state each time: a few cells, and a view that reloaded needs all of it. */
  private post(): void {
    if (!this.ready) return;
    const { spec, grid } = this.source;
    const named = grid.cells.filter((cell) => (spec.sweep?.endToEnd ?? []).some((ref) => cellMatches(cell, ref))).map((cell) => cell.key);
    void this.panel.webview.postMessage(SweepCellRuns.create({ runs: this.cellRuns, running: this.running !== undefined, named, ...(this.message ? { message: this.message } : {}) }));
  }

  private set(run: SweepCellRun): void {
    this.runs.set(run.cellKey, run);
    this.post();
  }

  private runName(key: string): string | undefined {
    const { spec, grid, report } = this.source;
    const cell = grid.cells.find((c) => c.key === key);
    try {
      return cell ? cellEvalSpec(spec, grid, cell, report.suite).name : undefined;
    } catch {
      return undefined; // a sweep whose cells cannot run end to end has no earlier runs to find
    }
  }

  /** The newest run of each cell among the runs on disk; one that cannot be read says so in its cell. */
  private async readEarlierRuns(): Promise<void> {
    let listings;
    try {
      listings = await this.deps.runs.listRuns();
    } catch (error) {
      this.deps.logger.warn(`${TITLE}: the earlier runs could not be listed: ${describeError(error)}`);
      return;
    }
    const byName = new Map<string, string>();
    for (const cell of this.source.grid.cells) {
      const name = this.runName(cell.key);
      if (name) byName.set(name, cell.key);
    }
    for (const listing of listings) {
      const key = byName.get(listing.name);
      if (key === undefined || this.runs.has(key)) continue;
      try {
        const detail = await this.deps.runs.getRun(listing.runId);
        this.runs.set(key, finishedCellRun(key, detail.listing, detail.reports, this.source.report.suite));
      } catch (error) {
        this.runs.set(key, { cellKey: key, state: 'failed', runId: listing.runId, models: [], problem: `its run ${listing.runId} could not be read: ${describeError(error)}` });
      }
    }
    this.post();
  }

  /** Prices the cells, asks above the limit (declined: nothing is sent), then runs them one after another. */
  private async runCells(keys: string[]): Promise<void> {
    if (this.running) {
      void vscode.window.showWarningMessage('RAG Inspector: cells of this sweep are already running end to end; cancel them or wait for them to finish.');
      return;
    }
    // Another run (or another sweep's cells) going: said before anything is priced.
    const active = this.deps.controller.active;
    if (active) {
      this.message = `Not started: ${new RunInProgressError(active.specFile).message}.`;
      this.post();
      return;
    }
    const { spec, grid, report } = this.source;
    const cells = keys.map((key) => {
      const cell = grid.cells.find((c) => c.key === key);
      if (!cell) throw new Error(`the sweep has no cell "${key}"; run Sweep Retrieval Settings again`);
      return cell;
    });
    const controller = new AbortController();
    this.running = controller;
    this.message = undefined;
    this.post();
    try {
      const plan = await sweepCostPlan(spec, grid, cells, report.suite, controller.signal);
      const line = endToEndLine(cells.length, plan);
      this.deps.logger.info(`${TITLE}: ${line} (${cells.map((cell) => cell.key).join('; ')})`);
      if (!(await confirmSweepCost(TITLE, plan, line, maxCostWithoutConfirm()))) {
        this.message = `Not started: the cost plan was declined; nothing was sent (${plan.text}).`;
        this.deps.logger.info(`${TITLE}: ${this.message}`);
        return;
      }
      // Below the limit nothing is asked, so the plan is shown in the panel while the cells run.
      this.message = `${line}.`;
      this.post();
      const cancelled = await this.deps.controller.hold(spec.file, async (held) => await withCancellableProgress(`${TITLE} — ${path.basename(spec.file)}`, undefined, async (report, signal) => {
        // The notification's Cancel, Cancel Run (the held slot) and the panel's Cancel stop the same cells.
        for (const stop of [signal, held]) stop.addEventListener('abort', () => controller.abort(stop.reason), { once: true });
        if (held.aborted) controller.abort(held.reason);
        for (const [index, cell] of cells.entries()) {
          if (controller.signal.aborted) return true;
          const at = `cell ${index + 1}/${cells.length} (${cell.key})`;
          report(`${at}: starting`, true);
          await this.runCell(cell.key, controller.signal, (done, total) => report(`${at}: ${done}/${total} cases`, done === total));
        }
        return controller.signal.aborted;
      }));
      this.message = cancelled ? 'Cancelled: the finished cells are kept, and the stopped cell shows its finished cases.' : `Ran ${cells.length} cell${cells.length === 1 ? '' : 's'} end to end (${plan.text}).`;
    } catch (error) {
      this.message = `The cells could not be run: ${describeError(error)}`;
      this.deps.logger.error(`${TITLE}: ${describeError(error)}`);
    } finally {
      this.running = undefined;
      this.post();
    }
  }

  /** One cell's run through the engine (the CLI's runSweepCell); its end in its cell, an error in words. */
  private async runCell(key: string, signal: AbortSignal, onCases: (done: number, total: number) => void): Promise<void> {
    const { spec, grid, report } = this.source;
    const cell = grid.cells.find((c) => c.key === key)!;
    let current: SweepCellRun = { cellKey: key, state: 'running', models: [], done: 0 };
    this.set(current);
    try {
      const outcome = await runSweepCell(spec, grid, cell, report.suite, {
        signal,
        credentials: this.deps.credentials,
        // Where the sweep built its indexes and the CLI writes its runs: beside the eval file.
        workspaceDir: path.dirname(spec.file),
        onEvent: (event) => {
          if (event.type === 'run-started') this.set(current = { ...current, runId: event.runId, cases: event.total });
          if (event.type === 'case-finished') {
            onCases(event.done, event.total);
            this.set(current = { ...current, done: event.done });
          }
        },
      });
      this.set(finishedCellRun(key, outcome, outcome.reports, report.suite));
      this.deps.logger.info(`${TITLE}, ${key}: run ${outcome.runId} ${outcome.status}, ${outcome.totals.passed}/${outcome.totals.cases} passed, ${outcome.totals.error} error(s); log ${outcome.logFile}`);
    } catch (error) {
      const problem = signal.aborted ? 'cancelled before its run was written' : describeError(error);
      this.deps.logger.error(`${TITLE}, ${key}: ${problem}`);
      this.set({ ...current, state: 'failed', problem });
    }
  }

  /** Cells running go on (their notification has Cancel): their runs land on disk, and the sweep shown again finds them. */
  dispose(): void {
    this.ready = false;
    for (const d of this.disposables.splice(0)) d.dispose();
    this.panel.dispose();
  }
}

/** Opens the sweep in a new panel (or in `panel`, a caller's own: a test records what is posted). */
export function showSweepPanel(deps: SweepPanelDeps, source: SweepSource, panel?: vscode.WebviewPanel): SweepPanel {
  const shown = panel ?? vscode.window.createWebviewPanel(SWEEP_VIEW_TYPE, `Sweep: ${source.report.name}`, vscode.ViewColumn.Active, panelOptions(deps.extensionUri));
  return new SweepPanel(shown, deps, source);
}
