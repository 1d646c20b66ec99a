// The sweep panel: a locked-down webview running the inspector bundle on one sweep's data, embedded in the page the
// way sweep.html embeds it (the bundle's sweep view draws the heatmap and table; no messages either way).
import * as vscode from 'vscode';
import type { SweepReport } from '../core/corpus/sweep/runSweep.js';
import { REPORT_DATA_ELEMENT_ID } from '../core/report/html.js';
import { sweepDataText } from '../core/report/sweepFiles.js';
import { contentSecurityPolicy, makeNonce, panelOptions } from './panel.js';

export const SWEEP_VIEW_TYPE = 'ragInspector.sweep';

/** The page: the inspector's CSP and nonce; the data element is JSON (never run), escaped so no text can end it. */
export function sweepHtml(webview: vscode.Webview, extensionUri: vscode.Uri, report: SweepReport): string {
  const nonce = makeNonce();
  const script = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'));
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(webview, extensionUri, nonce)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>Sweep</title>
<script type="application/json" id="${REPORT_DATA_ELEMENT_ID}">${sweepDataText(report)}</script>
</head>
<body>
<script type="module" nonce="${nonce}" src="${script.toString()}"></script>
</body>
</html>`;
}

/** One panel per sweep shown (a sweep is a result to compare with the next, not a live view). */
export function showSweepPanel(extensionUri: vscode.Uri, report: SweepReport): vscode.WebviewPanel {
  const panel = vscode.window.createWebviewPanel(SWEEP_VIEW_TYPE, `Sweep: ${report.name}`, vscode.ViewColumn.Active, panelOptions(extensionUri));
  panel.webview.html = sweepHtml(panel.webview, extensionUri, report);
  return panel;
}
