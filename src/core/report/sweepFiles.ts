// A sweep's files in the out folder: sweep.json (the whole result), sweep.csv (a row per cell) and sweep.html — the
// inspector bundle with the sweep's data, which draws a heatmap over two chosen settings and a table, each cell opening
// its per-question ranks; offline, under the same hash CSP as the HTML report.
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import { writeFileAtomically } from '../atomicFile.js';
import type { SweepReport } from '../corpus/sweep/runSweep.js';
import { sweepCsvRows } from '../corpus/sweep/sweepText.js';
import { escapeJsonForHtml, htmlReportFrame } from './html.js';
import { webviewBundle } from './writeReports.js';

/** Same as webview/api/staticData.ts's SWEEP_DATA_FORMAT (core may not import the webview). */
const SWEEP_DATA_FORMAT = 'rag-inspector/sweep';
const SWEEP_DATA_VERSION = 1;

/** The data element's text for a sweep (sweep.html, VS Code's sweep panel): escaped so no document text can end the element. */
export function sweepDataText(report: SweepReport): string {
  return escapeJsonForHtml(JSON.stringify({ format: SWEEP_DATA_FORMAT, version: SWEEP_DATA_VERSION, sweep: report }));
}

export function renderSweepHtml(report: SweepReport, webviewBundleJs: string): string {
  const { before, after } = htmlReportFrame(`sweep of ${report.name}`, webviewBundleJs);
  return `${before}${sweepDataText(report)}${after}`;
}

/** Where a sweep is written when no folder is named: a new folder under the eval file's .rag-inspector/reports. */
export function defaultSweepFolder(evalFile: string, now = new Date()): string {
  return path.join(path.dirname(evalFile), '.rag-inspector', 'reports', `sweep-${now.toISOString().replace(/[:.]/g, '-')}`);
}

/** Writes the three files (each replaced whole) and returns their paths; the page only when the bundle is built. */
export async function writeSweepFiles(report: SweepReport, outDir: string): Promise<{ written: string[]; skipped?: string }> {
  await mkdir(outDir, { recursive: true });
  const json = path.join(outDir, 'sweep.json');
  const csv = path.join(outDir, 'sweep.csv');
  await writeFileAtomically(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFileAtomically(csv, stringify(sweepCsvRows(report)));
  const bundle = webviewBundle();
  if (!existsSync(bundle)) return { written: [json, csv], skipped: `sweep.html needs the inspector bundle ${bundle}: build it with "npm run build"` };
  const html = path.join(outDir, 'sweep.html');
  await writeFileAtomically(html, renderSweepHtml(report, await readFile(bundle, 'utf8')));
  return { written: [json, csv, html] };
}
