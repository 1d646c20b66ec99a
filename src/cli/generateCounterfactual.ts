// `rag-inspector generate-counterfactual`: writes IF-RAG counterfactual data for a QA dataset into a new file to review.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readDataset } from '../core/data/readDataset.js';
import { createGeneratorClient } from '../core/engine/clients.js';
import { envCredentials } from '../core/providers/registry.js';
import { generateCounterfactuals, toJsonLines } from '../core/suites/ifrag/counterfactual.js';
import type { CounterfactualOutcome, GenerationSummary } from '../core/suites/ifrag/counterfactual.js';
import { readIfRagRow } from '../core/suites/ifrag/rows.js';
import { looksLikeStressRow, stressRowForGeneration } from '../core/suites/stress/counterfactual.js';
import type { GenerateCounterfactualCommand } from './args.js';
import { refuseOverwritingInput } from './outputFile.js';
import { createProgress } from './progress.js';
import type { DatasetRow } from '../core/model.js';
import { print } from './terminal.js';

const EXIT_OK = 0;
const EXIT_SOME_FAILED = 1;
const EXIT_CANCELLED = 130;

export interface CommandIo {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
}

interface ReadRows {
  rows: DatasetRow[];
  /** Lines that could not be read at all: they cannot be copied to the new file, so they are listed as failures. */
  unreadable: string[];
}

async function readRows(file: string, signal: AbortSignal): Promise<ReadRows> {
  const read: ReadRows = { rows: [], unreadable: [] };
  for await (const item of readDataset(file, { signal })) {
    if (item.ok) read.rows.push(item.row);
    else read.unreadable.push(item.error.format());
  }
  return read;
}

function rowName(outcome: CounterfactualOutcome): string {
  const id = outcome.row.data.id;
  return `${outcome.row.ref.file}:${outcome.row.ref.line}${typeof id === 'string' || typeof id === 'number' ? ` (id ${id})` : ''}`;
}

function summaryText(summary: GenerationSummary, unreadable: readonly string[], out: string): string {
  const failures = summary.outcomes.flatMap((o) => (o.status === 'failed' ? [`  ${rowName(o)}: ${o.reason}`] : []));
  const lines = [
    `Generated counterfactual data for ${summary.generated} row(s); ${summary.kept} already had it; ${summary.failed + unreadable.length} failed.`,
    `Wrote ${out} — review it before use: failed rows are kept without counterfactual data and with counterfactualError.`,
  ];
  if (failures.length > 0) lines.push('Failed rows:', ...failures);
  if (unreadable.length > 0) lines.push('Unreadable rows (not in the new file):', ...unreadable.map((u) => `  ${u}`));
  return `${lines.join('\n')}\n`;
}

export async function runGenerateCounterfactual(command: GenerateCounterfactualCommand, io: CommandIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const dataset = path.resolve(command.dataset);
  const out = path.resolve(command.out);
  refuseOverwritingInput(dataset, out, '--out must name a new file: the generated data is for review, so the dataset is never overwritten');
  const client = await createGeneratorClient(command.model, { credentials: envCredentials(io.env), concurrency: command.concurrency, seed: command.seed, env: io.env });
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.on('SIGINT', onSigint);
  const progress = createProgress(io.stderr, command.quiet);
  try {
    const { rows, unreadable } = await readRows(dataset, controller.signal);
    if (rows.length === 0) throw new Error(`no usable rows in ${dataset}${unreadable[0] ? `: ${unreadable[0]}` : ''}`);
    for (const problem of unreadable) progress.note(`warning: ${problem}`);
    progress.note(`generating counterfactual data for ${rows.length} row(s) with ${client.key}`);
    const summary = await generateCounterfactuals({
      rows,
      client,
      signal: controller.signal,
      seed: command.seed,
      concurrency: command.concurrency,
      // RAGAS-style rows (the stress method's) are read for their answer-bearing passages; IF-RAG rows as before.
      readRow: (row) => (looksLikeStressRow(row.data) ? stressRowForGeneration(row) : readIfRagRow(row)),
      onProgress: ({ done, total, failed }) => progress.update(done, total, failed),
    });
    progress.finish();
    await writeFile(out, toJsonLines(summary), 'utf8');
    print(io.stdout, summaryText(summary, unreadable, out));
    return summary.failed + unreadable.length > 0 ? EXIT_SOME_FAILED : EXIT_OK;
  } catch (error) {
    if (!controller.signal.aborted) throw error;
    progress.finish();
    print(io.stderr, 'cancelled: nothing was written\n');
    return EXIT_CANCELLED;
  } finally {
    process.off('SIGINT', onSigint);
  }
}
