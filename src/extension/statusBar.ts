// The status bar item: progress of the running evaluation, or the last run's pass rate; a click opens the inspector.
import * as vscode from 'vscode';
import { BatchTally } from '../core/engine/batchProgress.js';
import type { BatchStanding } from '../core/engine/batchProgress.js';
import type { RunEvent } from '../core/engine/events.js';
import type { RunStatus, RunTotals } from '../core/model.js';

export interface StatusText {
  text: string;
  tooltip: string;
}

/** Pass rate over cases that have a verdict; cases with only errors or no pass/fail do not count either way. */
export function passRate(totals: RunTotals): number | undefined {
  const judged = totals.passed + totals.failed;
  return judged > 0 ? totals.passed / judged : undefined;
}

export function runningText(runId: string, done: number, total: number): StatusText {
  return {
    text: `$(sync~spin) RAG ${done}/${total}`,
    tooltip: `RAG Inspector: run ${runId} — ${done} of ${total} cases done. Click to open the inspector.`,
  };
}

/** While vendor batches are open: their requests done, since no case finishes until results come back. */
export function batchText(runId: string, cases: { done: number; total: number }, batches: BatchStanding): StatusText {
  const which = batches.batches === 1 ? 'its vendor batch' : `${batches.open} of its ${batches.batches} vendor batches`;
  return {
    text: `$(cloud-upload) RAG batch ${batches.done}/${batches.total}`,
    tooltip: `RAG Inspector: run ${runId} is waiting on ${which} (batch mode): ${batches.done} of ${batches.total} requests done at the vendor, ${cases.done} of ${cases.total} cases finished. Results can take up to the vendor's window (24 hours); closing the window keeps them — Resume Interrupted Run collects them. Click to open the inspector.`,
  };
}

export function finishedText(runId: string, status: RunStatus, totals: RunTotals): StatusText {
  const rate = passRate(totals);
  const percent = rate === undefined ? undefined : `${Math.round(rate * 100)}%`;
  const errors = totals.error > 0 ? `, ${totals.error} error${totals.error === 1 ? '' : 's'}` : '';
  const summary = `${totals.passed} passed, ${totals.failed} failed${errors}`;
  if (status === 'cancelled') {
    return { text: `$(circle-slash) RAG cancelled${percent ? ` ${percent}` : ''}`, tooltip: `RAG Inspector: run ${runId} was cancelled after ${totals.cases} cases (${summary}).` };
  }
  if (status === 'error') {
    return { text: '$(error) RAG run failed', tooltip: `RAG Inspector: run ${runId} stopped on an error after ${totals.cases} cases (${summary}). See the RAG Inspector output.` };
  }
  const icon = totals.failed === 0 && totals.error === 0 ? '$(pass)' : '$(warning)';
  return { text: `${icon} RAG ${percent ?? 'done'}`, tooltip: `RAG Inspector: last run ${runId} — ${summary}. Click to open the inspector.` };
}

export class RunStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private runId = '';
  private batches = new BatchTally();
  private cases = { done: 0, total: 0 };

  constructor() {
    this.item = vscode.window.createStatusBarItem('ragInspector.status', vscode.StatusBarAlignment.Left, 50);
    this.item.name = 'RAG Inspector';
    this.item.command = 'ragInspector.openInspector';
  }

  /** What it shows now (for tests; the item itself exposes no way to read back whether it is visible). */
  current: StatusText | undefined;

  onRunEvent(event: RunEvent): void {
    if (event.type === 'run-started') {
      this.runId = event.runId;
      this.batches = new BatchTally();
      this.cases = { done: 0, total: event.total };
      this.show(runningText(event.runId, 0, event.total));
    } else if (event.type === 'batch') {
      const standing = this.batches.add(event);
      this.show(standing.open > 0 ? batchText(this.runId, this.cases, standing) : runningText(this.runId, this.cases.done, this.cases.total));
    } else if (event.type === 'case-finished') {
      this.cases = { done: event.done, total: event.total };
      const standing = this.batches.standing();
      this.show(standing.open > 0 ? batchText(this.runId, this.cases, standing) : runningText(this.runId, event.done, event.total));
    } else if (event.type === 'run-finished') {
      this.show(finishedText(event.runId, event.status, event.totals));
    }
  }

  private show(status: StatusText): void {
    this.current = status;
    this.item.text = status.text;
    this.item.tooltip = status.tooltip;
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

export function activateStatusBar(context: vscode.ExtensionContext, onEvent: vscode.Event<RunEvent>): RunStatusBar {
  const statusBar = new RunStatusBar();
  context.subscriptions.push(statusBar, onEvent((event) => statusBar.onRunEvent(event)));
  return statusBar;
}
