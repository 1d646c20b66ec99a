// Writes the chosen report formats for a run into a folder and says where each went.
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { packageRoot } from '../assets.js';
import { csvReportWriter } from './csvReport.js';
import { htmlReportWriter } from './htmlReportFile.js';
import { jsonReportWriter } from './jsonReport.js';
import { junitReportWriter } from './junitReport.js';
import { spoolsIn, writeInOnePass } from './reportPass.js';
import type { ReportWriter, SpoolFactory } from './reportPass.js';
import type { RunData } from './runData.js';
import { writeFileStreaming } from './textSink.js';
import type { TextSink } from './textSink.js';
import { verdictsReportWriter } from './verdictsReport.js';
import type { VerdictsReportOptions } from './verdictsReport.js';

export const REPORT_FORMATS = ['json', 'csv', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Each format's file and its writer of one pass (reportPass.ts); the HTML's is given the inspector bundle. */
const WRITERS: Record<ReportFormat, { file: string; writer: (run: RunData, sink: TextSink, spool: SpoolFactory, bundle: string) => ReportWriter }> = {
  json: { file: 'report.json', writer: (run, sink, spool) => jsonReportWriter(run, sink, spool) },
  csv: { file: 'cases.csv', writer: (_run, sink, spool) => csvReportWriter(sink, spool) },
  junit: { file: 'junit.xml', writer: (run, sink, spool) => junitReportWriter(run, sink, spool) },
  // The inspector itself as one offline page: the built webview bundle plus this run's data.
  html: { file: 'report.html', writer: (run, sink, spool, bundle) => htmlReportWriter(run, sink, bundle, {}, spool) },
};

/** dist/webview.js: the inspector bundle every offline page (report.html, sweep.html) embeds. */
export function webviewBundle(): string {
  return path.join(packageRoot(), 'dist', 'webview.js');
}

/**
 * Every format asked for, and the person's verdicts, from one pass over the run's cases (read once from the run log):
 * each case goes to every writer, each file is streamed (and replaced whole at the end, atomicFile.ts), and what a
 * writer must place after the totals waits in a spool beside the reports, so memory does not grow with the run.
 */
export interface WriteReportsOptions extends VerdictsReportOptions {
  /** Readers of the same pass (the CLI counts the error causes it prints), so the log is still read once. */
  alongside?: readonly ReportWriter[];
}

export async function writeReports(run: RunData, outDir: string, formats: readonly ReportFormat[], options: WriteReportsOptions = {}): Promise<string[]> {
  // Checked first: a missing bundle should fail before any file is written.
  if (formats.includes('html') && !existsSync(webviewBundle())) throw new Error(`the HTML report needs the inspector bundle ${webviewBundle()}: build it with "npm run build"`);
  await mkdir(outDir, { recursive: true });
  const bundle = formats.includes('html') ? await readFile(webviewBundle(), 'utf8') : '';
  const spool = spoolsIn(outDir);
  formats = [...new Set(formats)];
  const targets = formats.map((format) => path.join(outDir, WRITERS[format].file));
  // A person's verdicts travel with the reports whenever the workspace has some (verdictsReport.ts).
  const verdicts = await verdictsReportWriter(run, outDir, options);
  await withFileSinks(targets, async (sinks) => {
    const writers = formats.map((format, i) => WRITERS[format].writer(run, sinks[i]!, spool, bundle));
    await writeInOnePass(run, [...writers, ...(verdicts ? [verdicts] : []), ...(options.alongside ?? [])]);
  });
  return verdicts ? [...targets, verdicts.file] : targets;
}

/** Opens a streamed file per name (writeFileStreaming), all at once, for `body` to write to together. */
async function withFileSinks(files: readonly string[], body: (sinks: TextSink[]) => Promise<void>, sinks: TextSink[] = []): Promise<void> {
  if (sinks.length === files.length) return body(sinks);
  await writeFileStreaming(files[sinks.length]!, (sink) => withFileSinks(files, body, [...sinks, sink]));
}

/**
 * Why reports cannot go into `outDir` (it, or the folder it would be made in, is a file), or undefined when they can.
 * Checked before a run starts, so a wrong --out fails before the first model call is paid, not after the last.
 */
export async function reportFolderProblem(outDir: string): Promise<string | undefined> {
  for (let folder = path.resolve(outDir); ; folder = path.dirname(folder)) {
    const info = await stat(folder).catch(() => undefined);
    if (info) return info.isDirectory() ? undefined : `${folder} is ${info.isFile() ? 'a file' : 'not a folder'}, so the reports cannot be written into ${path.resolve(outDir)}: name a folder (new or existing)`;
    if (path.dirname(folder) === folder) return undefined;
  }
}

export function parseFormats(text: string): ReportFormat[] {
  const formats = text.split(',').map((f) => f.trim()).filter(Boolean);
  for (const format of formats) {
    if (!(REPORT_FORMATS as readonly string[]).includes(format)) {
      throw new Error(`unknown report format '${format}': use ${REPORT_FORMATS.join(', ')} (comma-separated)`);
    }
  }
  return formats as ReportFormat[];
}
