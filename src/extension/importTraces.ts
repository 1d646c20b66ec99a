// "Import Traces as Dataset": the Explorer's way to `rag-inspector import-traces` — a trace file (OTLP JSON, Phoenix
// or Langfuse export) becomes `<name>.dataset.jsonl` beside it, with every skipped line or trace in the log.
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { describeError } from '../core/errors.js';
import { importTraces, toJsonLines } from '../core/traces/importTraces.js';
import type { Logger } from './outputChannel.js';

export const IMPORT_TRACES_COMMAND = 'ragInspector.importTraces';
const TITLE = 'RAG Inspector: Import Traces as Dataset';
/** The CLI's default --seed; the command applies no filters, so it only matters for equal output. */
const SEED = 2333;

export type ImportTracesOutcome = { status: 'written'; out: string; rows: number; problems: number } | 'cancelled' | 'no-file' | 'failed';

/** `<dir>/<name>.dataset.jsonl`, never the trace file itself. */
export function datasetPathOf(traceFile: string): string {
  return path.join(path.dirname(traceFile), `${path.basename(traceFile, path.extname(traceFile))}.dataset.jsonl`);
}

export async function importTracesCommand(logger: Logger, arg?: unknown): Promise<ImportTracesOutcome> {
  const given = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
  if (!given || given.scheme !== 'file') {
    void vscode.window.showErrorMessage(`${TITLE}: select a trace file (.json, .jsonl) in the Explorer or open one.`);
    return 'no-file';
  }
  const out = datasetPathOf(given.fsPath);
  if (existsSync(out)) {
    const replace = await vscode.window.showWarningMessage(`${path.basename(out)} already exists. Replace it?`, { modal: true }, 'Replace');
    if (replace !== 'Replace') return 'cancelled';
  }
  try {
    const outcome = await importTraces(given.fsPath, { where: [], seed: SEED });
    for (const problem of outcome.problems) logger.warn(`Import Traces: ${problem.format()}`);
    if (outcome.rows.length === 0) throw new Error(`no RAG interactions in ${outcome.traces} trace(s) (each needs a RETRIEVER span and a question)`);
    await writeFile(out, toJsonLines(outcome.rows), 'utf8');
    logger.info(`Import Traces: ${outcome.rows.length} row(s) from ${outcome.traces} trace(s) of ${given.fsPath} written to ${out}.`);
    const text = `${TITLE}: ${outcome.rows.length} row(s) written to ${path.basename(out)}${outcome.problems.length ? `; ${outcome.problems.length} line(s) or trace(s) skipped` : ''}.`;
    const buttons = outcome.problems.length ? ['Open File', 'Show Problems'] : ['Open File'];
    void Promise.resolve(outcome.problems.length ? vscode.window.showWarningMessage(text, ...buttons) : vscode.window.showInformationMessage(text, ...buttons)).then(async (answer) => {
      if (answer === 'Open File') await vscode.window.showTextDocument(vscode.Uri.file(out), { preview: false });
      if (answer === 'Show Problems') logger.show();
    });
    return { status: 'written', out, rows: outcome.rows.length, problems: outcome.problems.length };
  } catch (error) {
    logger.error(error instanceof Error ? error : String(error));
    void vscode.window.showErrorMessage(`${TITLE}: ${describeError(error)}`);
    return 'failed';
  }
}

export function activateImportTraces(context: vscode.ExtensionContext, logger: Logger): void {
  context.subscriptions.push(vscode.commands.registerCommand(IMPORT_TRACES_COMMAND, (arg?: unknown) => importTracesCommand(logger, arg)));
}
