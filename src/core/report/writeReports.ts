// Writes the chosen report formats for a run into a folder and says where each went.
import { existsSync } from 'node:fs';
import { mkdir, readFile, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { packageRoot } from '../assets.js';
import { writeCsvReport } from './csvReport.js';
import { writeHtmlReport } from './htmlReportFile.js';
import { writeJsonReport } from './jsonReport.js';
import { writeJunitReport } from './junitReport.js';
import type { RunData } from './runData.js';
import { writeFileStreaming } from './textSink.js';
import type { TextSink } from './textSink.js';
import { writeVerdictsReport } from './verdictsReport.js';
import type { VerdictsReportOptions } from './verdictsReport.js';

export const REPORT_FORMATS = ['json', 'csv', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const WRITERS: Record<ReportFormat, { file: string; write: (run: RunData, sink: TextSink) => Promise<void> }> = {
  json: { file: 'report.json', write: writeJsonReport },
  csv: { file: 'cases.csv', write: writeCsvReport },
  junit: { file: 'junit.xml', write: writeJunitReport },
  html: { file: 'report.html', write: writeStandaloneHtml },
};

/** The inspector itself as one offline page: the built webview bundle plus this run's data. */
async function writeStandaloneHtml(run: RunData, sink: TextSink): Promise<void> {
  await writeHtmlReport(run, sink, await readFile(webviewBundle(), 'utf8'));
}

function webviewBundle(): string {
  return path.join(packageRoot(), 'dist', 'webview.js');
}

/** Each format streamed to its file from the run's cases (read from the run log), so memory does not grow with the run. */
export async function writeReports(run: RunData, outDir: string, formats: readonly ReportFormat[], options: VerdictsReportOptions = {}): Promise<string[]> {
  // Checked first: a missing bundle should fail before any file is written.
  if (formats.includes('html') && !existsSync(webviewBundle())) throw new Error(`the HTML report needs the inspector bundle ${webviewBundle()}: build it with "npm run build"`);
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const format of formats) {
    const { file, write } = WRITERS[format];
    const target = path.join(outDir, file);
    await writeFileStreaming(target, (sink) => write(run, sink));
    written.push(target);
  }
  // A person's verdicts travel with the reports whenever the workspace has some (verdictsReport.ts).
  const verdicts = await writeVerdictsReport(run, outDir, options);
  if (verdicts) written.push(verdicts);
  return written;
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
