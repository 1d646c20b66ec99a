// verdicts.json beside the other reports: the person's verdicts on this run's cases and the judge's agreement with
// them per metric. Verdicts live in the workspace (.rag-inspector/verdicts.jsonl), never in the run log. The workspace
// is the nearest folder holding that file from the eval file's folder up to `within` (the CLI: the current folder,
// or the eval file's folder under --contain), never above: another user's verdicts in a shared parent folder are not
// read, and a named pipe there cannot block the report.
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { problemOfError } from '../regularFile.js';
import { VERDICTS_FILE, VerdictStore } from '../verdicts/store.js';
import { VerdictsViewBuilder } from '../verdicts/view.js';
import { writeInOnePass } from './reportPass.js';
import type { ReportWriter } from './reportPass.js';
import type { RunData } from './runData.js';
import { writeFileStreaming } from './textSink.js';

/**
 * The verdicts file for an eval file: looked for in its folder and each parent up to `within` (included); an eval file
 * outside `within` looks in its own folder only. Anything by that name counts (reading it says what is wrong with it).
 */
export async function findVerdictsFile(specFile: string, within: string = path.dirname(specFile)): Promise<string | undefined> {
  const top = path.resolve(within);
  const start = path.dirname(path.resolve(specFile));
  const inside = (folder: string) => folder === top || folder.startsWith(top.endsWith(path.sep) ? top : top + path.sep);
  for (let folder = start; ; folder = path.dirname(folder)) {
    const file = path.join(folder, VERDICTS_FILE);
    if (await lstat(file).then(() => true, () => false)) return file;
    if (!inside(folder) || folder === top || path.dirname(folder) === folder) return undefined;
  }
}

export interface VerdictsReportOptions {
  /** The highest folder the verdicts file is looked for in (see findVerdictsFile); the eval file's folder when unset. */
  verdictsWithin?: string;
  /** A verdicts file that cannot be read is reported here and left out; the other reports are kept. */
  onWarning?: (message: string) => void;
}

/** Writes verdicts.json when the workspace has verdicts; returns its path, or undefined when there are none. */
export async function writeVerdictsReport(run: RunData, outDir: string, options: VerdictsReportOptions = {}): Promise<string | undefined> {
  const writer = await verdictsReportWriter(run, outDir, options);
  if (!writer) return undefined;
  await writeInOnePass(run, [writer]);
  return writer.file;
}

/**
 * verdicts.json as a writer of one pass (reportPass.ts), or undefined when the workspace has no verdicts. Streams: of
 * the run's cases it keeps only the marked ones' verdicts and, per judge metric, a (key, judge, person) triple per
 * case a person labelled (verdicts/view.ts) — never the cases.
 */
export async function verdictsReportWriter(run: RunData, outDir: string, options: VerdictsReportOptions = {}): Promise<(ReportWriter & { file: string }) | undefined> {
  const file = await findVerdictsFile(run.specFile, options.verdictsWithin);
  if (!file) return undefined;
  let index;
  try {
    index = await new VerdictStore(file).latest();
  } catch (error) {
    options.onWarning?.(`verdicts left out of the reports: ${problemOfError(file, error).message} (it should be the inspector's .rag-inspector/verdicts.jsonl)`);
    return undefined;
  }
  if (index.size === 0) return undefined;
  const builder = new VerdictsViewBuilder(index);
  const target = path.join(outDir, 'verdicts.json');
  return {
    file: target,
    async add({ evalCase, result }) {
      if (evalCase) builder.add({ evalCase, result });
    },
    async finish() {
      const view = builder.view();
      await writeFileStreaming(target, async (sink) => {
        await sink.write(`${JSON.stringify({ format: 'rag-inspector/verdicts', version: 1, runId: run.runId, source: file, ...view }, null, 2)}\n`);
      });
    },
  };
}
