// Export Report: a logged run's standalone HTML report (the inspector bundle with the run's data) and core's JSON, CSV and
// JUnit reports, into a folder; and its cases as OpenInference traces to an OTLP endpoint (Phoenix, Langfuse, a collector).
import { existsSync } from 'node:fs';
import { readFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../core/errors.js';
import { writeHtmlReport } from '../core/report/htmlReportFile.js';
import { writeFileStreaming } from '../core/report/textSink.js';
import { runDataFromLog } from '../core/report/runDataSources.js';
import { otlpHeaderValues, otlpSettingsOf, sendRunTraces } from '../core/report/runTraces.js';
import { writeReports } from '../core/report/writeReports.js';
import type { ReportFormat } from '../core/report/writeReports.js';
import { findRun, pickRun, workspaceRunsOrReport } from './compare.js';
import type { StoredRun } from './compare.js';
import type { ExportSummary } from '../core/traces/otlpExport.js';
import type { Logger } from './outputChannel.js';
import type { UntrustedWorkspaceGate } from './untrustedWorkspace.js';

export const EXPORT_FORMATS = ['html', 'json', 'csv', 'junit', 'otlp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The formats written as files into a folder (OTLP is sent, not written). */
type FileFormat = Exclude<ExportFormat, 'otlp'>;

export const HTML_REPORT_FILE = 'report.html';
/** What core's writeReports names each file; listed here to ask before overwriting them. */
const FILE_OF: Record<FileFormat, string> = { html: HTML_REPORT_FILE, json: 'report.json', csv: 'cases.csv', junit: 'junit.xml' };

const FORMAT_ITEMS: (vscode.QuickPickItem & { format: ExportFormat })[] = [
  { format: 'html', label: 'HTML', description: HTML_REPORT_FILE, detail: 'The inspector as one offline page: every case, its documents and scores', picked: true },
  { format: 'json', label: 'JSON', description: FILE_OF.json, detail: 'The whole run for other tools: tables, thresholds, every case with its scores', picked: true },
  { format: 'csv', label: 'CSV', description: FILE_OF.csv, detail: 'One row per case and model, one column per metric', picked: true },
  { format: 'junit', label: 'JUnit XML', description: FILE_OF.junit, detail: 'Each case as a test, for CI systems', picked: true },
  { format: 'otlp', label: 'OpenTelemetry traces', description: 'OTLP/HTTP', detail: 'Each case as an OpenInference trace, sent to the eval file\'s export.otlp endpoint or one you enter (Phoenix, Langfuse, a collector)' },
];

/** Phoenix's OTLP/HTTP traces endpoint, the usual local one: offered when the eval file names none. */
const SUGGESTED_OTLP_ENDPOINT = 'http://localhost:6006/v1/traces';

export interface ExportArgs {
  /** A run id or log path; default: asked, the latest run preselected. */
  run?: string;
  formats?: ExportFormat[];
  /** Absolute folder; default: asked. */
  folder?: string;
  /** Where `otlp` sends; default: the eval file's export.otlp endpoint, else asked. */
  otlpEndpoint?: string;
}

export type ExportOutcome = 'cancelled' | 'no-runs' | 'not-found' | 'failed' | { runId: string; folder?: string; files: string[]; traces?: ExportSummary };

/** The built inspector UI the HTML report embeds; the extension ships it in dist/. */
export async function readWebviewBundle(extensionUri: vscode.Uri): Promise<string> {
  return readFile(path.join(extensionUri.fsPath, 'dist', 'webview.js'), 'utf8');
}

/** Writes the chosen formats of one logged run into `folder` and returns the files written, in format order. */
export async function exportRun(run: StoredRun, formats: readonly FileFormat[], folder: string, extensionUri: vscode.Uri): Promise<string[]> {
  await mkdir(folder, { recursive: true });
  const written: string[] = [];
  if (formats.includes('html')) {
    // Read first: a missing bundle should fail the export before any file is written.
    const bundle = await readWebviewBundle(extensionUri);
    const data = await runDataFromLog(run.file);
    const target = path.join(folder, HTML_REPORT_FILE);
    await writeFileStreaming(target, (sink) => writeHtmlReport(data, sink, bundle));
    written.push(target);
  }
  const coreFormats = formats.filter((f): f is ReportFormat & FileFormat => f !== 'html');
  if (coreFormats.length > 0) {
    const data = await runDataFromLog(run.file);
    // Verdicts are read from the eval file's VS Code workspace folder, never above it (verdictsReport.ts).
    const verdictsWithin = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(data.specFile))?.uri.fsPath;
    written.push(...await writeReports(data, folder, coreFormats, verdictsWithin ? { verdictsWithin } : {}));
  }
  return written;
}

export async function exportReportCommand(extensionUri: vscode.Uri, logger: Logger, arg: unknown, untrusted?: UntrustedWorkspaceGate): Promise<ExportOutcome> {
  const args = (typeof arg === 'object' && arg !== null ? arg : {}) as ExportArgs;
  const runs = await workspaceRunsOrReport();
  if (!runs) return 'failed';
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('RAG Inspector: there is no run to export yet. Run an evaluation first.');
    return 'no-runs';
  }
  const run = args.run ? findRun(runs, args.run) : await pickRun('Export Report (1/3)', 'Which run? (Enter: the latest)', runs, runs[0]);
  if (args.run && !run) {
    void vscode.window.showErrorMessage(`RAG Inspector: no run ${args.run} in this workspace's .rag-inspector/runs.`);
    return 'not-found';
  }
  if (!run) return 'cancelled';

  const formats = args.formats ?? (await vscode.window.showQuickPick(FORMAT_ITEMS, {
    title: 'Export Report (2/3)', placeHolder: 'Formats to write', canPickMany: true,
  }))?.map((i) => i.format);
  if (!formats || formats.length === 0) return 'cancelled';
  const fileFormats = formats.filter((f): f is FileFormat => f !== 'otlp');

  // The endpoint first: a question declined there should not leave files half written.
  const traceTarget = formats.includes('otlp') ? await chooseTraceTarget(run, args, logger, untrusted) : undefined;
  if (traceTarget === 'cancelled') return 'cancelled';
  if (fileFormats.length === 0) return sendTraces(run, traceTarget!, logger, []);

  const folder = args.folder ?? (await vscode.window.showOpenDialog({
    title: 'Export Report (3/3): folder to write the reports into',
    openLabel: 'Export Here',
    canSelectFiles: false,
    canSelectFolders: true,
    canSelectMany: false,
    defaultUri: vscode.Uri.file(path.dirname(run.specFile)),
  }))?.[0]?.fsPath;
  if (!folder) return 'cancelled';

  const existing = fileFormats.map((f) => FILE_OF[f]).filter((name) => existsSync(path.join(folder, name)));
  if (!args.folder && existing.length > 0) {
    const answer = await vscode.window.showWarningMessage(`${existing.join(', ')} already exist in ${folder}. Replace them?`, { modal: true }, 'Replace');
    if (answer !== 'Replace') return 'cancelled';
  }

  try {
    const files = await exportRun(run, fileFormats, folder, extensionUri);
    logger.info(`Export Report: run ${run.runId} → ${files.join(', ')}`);
    void offerToOpen(files, folder);
    if (traceTarget) return { ...(await sendTraces(run, traceTarget, logger, files)), folder };
    return { runId: run.runId, folder, files };
  } catch (error) {
    logger.error(`Export Report: ${describeError(error)}`);
    void vscode.window.showErrorMessage(`RAG Inspector: the export failed: ${describeError(error)}`);
    return 'failed';
  }
}

type TraceTarget = { endpoint: string; headers: Record<string, string>; batchSize?: number };

/**
 * Where the traces go: the endpoint passed, the eval file's export.otlp, or one the user enters. An endpoint the eval
 * file of an untrusted workspace chose is used only after the user allows it (as a model's baseUrl is), and that
 * file's headers — environment variables it names, possibly keys — are not sent from an untrusted workspace at all.
 */
async function chooseTraceTarget(run: StoredRun, args: ExportArgs, logger: Logger, untrusted: UntrustedWorkspaceGate | undefined): Promise<TraceTarget | 'cancelled'> {
  const settings = await otlpSettingsOf(run.specFile);
  const endpoint = args.otlpEndpoint ?? settings?.endpoint ?? await vscode.window.showInputBox({
    title: 'Export Report: OTLP traces endpoint',
    prompt: 'Each case is sent as an OpenInference trace (OTLP/HTTP JSON). Phoenix listens on port 6006, an OpenTelemetry Collector on 4318.',
    value: SUGGESTED_OTLP_ENDPOINT,
    validateInput: (text) => (URL.canParse(text) ? undefined : 'Enter a URL, e.g. http://localhost:4318/v1/traces'),
  });
  if (!endpoint) return 'cancelled';
  const fileChoseIt = args.otlpEndpoint === undefined && endpoint === settings?.endpoint;
  const trusted = untrusted?.trusted ?? true;
  if (fileChoseIt && untrusted && !(await untrusted.endpointAllowed(endpoint, 'trace export', run.specFile))) {
    logger.warn(`Export Report: ${endpoint} was not allowed; no traces were sent.`);
    return 'cancelled';
  }
  const fileHeaders = settings && fileChoseIt && trusted ? settings.headers : {};
  if (settings && Object.keys(settings.headers).length > 0 && !trusted) logger.info('Export Report: the eval file\'s export.otlp headers are not sent from an untrusted workspace.');
  return { endpoint, headers: otlpHeaderValues(fileHeaders, process.env, (message) => logger.warn(message)), batchSize: settings?.batchSize };
}

/** Sends the run's traces with a progress notification; a failed export is reported, never thrown. */
async function sendTraces(run: StoredRun, target: TraceTarget, logger: Logger, files: string[]): Promise<{ runId: string; files: string[]; traces: ExportSummary }> {
  const summary = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `RAG Inspector: sending run ${run.runId} as traces to ${target.endpoint}` },
    async () => sendRunTraces(await runDataFromLog(run.file), target),
  );
  for (const warning of summary.warnings) logger.warn(`Export Report: ${warning}`);
  const line = `${summary.sent} case(s) sent as traces to ${summary.endpoint}${summary.notSent ? `, ${summary.notSent} not sent` : ''}`;
  logger.info(`Export Report: run ${run.runId}: ${line}`);
  if (summary.notSent > 0 || summary.sent === 0) void vscode.window.showWarningMessage(`RAG Inspector: ${line}.${summary.warnings[0] ? ` ${summary.warnings[0]}` : ''}`);
  else void vscode.window.showInformationMessage(`RAG Inspector: ${line}.`);
  return { runId: run.runId, files, traces: summary };
}

async function offerToOpen(files: string[], folder: string): Promise<void> {
  const html = files.find((f) => path.basename(f) === HTML_REPORT_FILE);
  const actions = html ? ['Open HTML Report', 'Reveal Folder'] : ['Reveal Folder'];
  const answer = await vscode.window.showInformationMessage(`RAG Inspector: wrote ${files.map((f) => path.basename(f)).join(', ')} to ${folder}.`, ...actions);
  if (answer === 'Open HTML Report' && html) await vscode.env.openExternal(vscode.Uri.file(html));
  if (answer === 'Reveal Folder') await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(folder));
}
