// Writes the chosen report formats for a run into a folder and says where each went.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { packageRoot } from '../assets.js';
import { renderCsvReport } from './csvReport.js';
import { renderHtmlReport } from './html.js';
import { inspectorRun } from './inspectorRun.js';
import { renderJsonReport } from './jsonReport.js';
import { renderJunitReport } from './junitReport.js';
import type { RunData } from './runData.js';

export const REPORT_FORMATS = ['json', 'csv', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const RENDERERS: Record<ReportFormat, { file: string; render: (run: RunData) => string }> = {
  json: { file: 'report.json', render: renderJsonReport },
  csv: { file: 'cases.csv', render: renderCsvReport },
  junit: { file: 'junit.xml', render: renderJunitReport },
  html: { file: 'report.html', render: renderStandaloneHtml },
};

/** The inspector itself as one offline page: the built webview bundle plus this run's data. */
function renderStandaloneHtml(run: RunData): string {
  const bundle = path.join(packageRoot(), 'dist', 'webview.js');
  if (!existsSync(bundle)) throw new Error(`the HTML report needs the inspector bundle ${bundle}: build it with "npm run build"`);
  const { detail, cases } = inspectorRun(run);
  return renderHtmlReport(detail, [...cases.values()], readFileSync(bundle, 'utf8'));
}

export async function writeReports(run: RunData, outDir: string, formats: readonly ReportFormat[]): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const format of formats) {
    const { file, render } = RENDERERS[format];
    const target = path.join(outDir, file);
    await writeFile(target, render(run), 'utf8');
    written.push(target);
  }
  return written;
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
