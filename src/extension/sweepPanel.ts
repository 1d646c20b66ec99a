// The sweep panel: a locked-down webview running the inspector bundle on one sweep's data, embedded in the page the
// way sweep.html embeds it (the bundle's sweep view draws the heatmap and table; no messages either way).
import * as vscode from 'vscode';
import type { SweepReport } from '../core/corpus/sweep/runSweep.js';
import { REPORT_DATA_ELEMENT_ID } from '../core/report/html.js';
import { sweepDataText } from '../core/report/sweepFiles.js';
import { inspectorHtml, makeNonce, panelOptions } from './panel.js';

export const SWEEP_VIEW_TYPE = 'ragInspector.sweep';

/** The inspector panel's page (its CSP and nonce) with the sweep's data element: JSON, never run, escaped so no text can end it. */
export function sweepHtml(webview: vscode.Webview, extensionUri: vscode.Uri, report: SweepReport): string {
  return inspectorHtml(webview, extensionUri, makeNonce(), `\n<script type="application/json" id="${REPORT_DATA_ELEMENT_ID}">${sweepDataText(report)}</script>`);
}

/** One panel per sweep shown (a sweep is a result to compare with the next, not a live view). */
export function showSweepPanel(extensionUri: vscode.Uri, report: SweepReport): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(SWEEP_VIEW_TYPE, `Sweep: ${report.name}`, vscode.ViewColumn.Active, panelOptions(extensionUri));
  panel.webview.html = sweepHtml(panel.webview, extensionUri, report);
  return panel;
}
