// `rag-inspector import-traces <file|folder> --out dataset.jsonl`: production traces become an eval dataset.
import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { importTraces, toJsonLines } from '../core/traces/importTraces.js';
import type { TraceFilters } from '../core/traces/filters.js';
import { UsageError } from './args.js';
import { print } from './terminal.js';
import { refuseOverwritingInput } from './outputFile.js';

export interface ImportTracesCommand {
  target: string;
  out: string;
  filters: TraceFilters;
}

const EXAMPLE = 'rag-inspector import-traces traces.jsonl --out dataset.jsonl';

export function parseImportTraces(argv: string[]): ImportTracesCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      since: { type: 'string' },
      until: { type: 'string' },
      where: { type: 'string', multiple: true },
      'score-below': { type: 'string' },
      sample: { type: 'string' },
      seed: { type: 'string' },
    },
  });
  const [target, extra] = positionals;
  if (!target) throw new UsageError(`import-traces needs a trace file or folder: ${EXAMPLE}`);
  if (extra) throw new UsageError(`import-traces takes one file or folder, got also '${extra}' (a folder imports every trace file in it)`);
  if (!values.out) throw new UsageError(`import-traces needs --out <dataset.jsonl>: ${EXAMPLE}`);
  const scoreBelow = values['score-below'] === undefined ? undefined : pair('--score-below', values['score-below']);
  return {
    target,
    out: values.out,
    filters: {
      since: values.since === undefined ? undefined : time('--since', values.since),
      until: values.until === undefined ? undefined : time('--until', values.until),
      where: (values.where ?? []).map((text) => pair('--where', text)),
      scoreBelow: scoreBelow && { name: scoreBelow.key, threshold: number('--score-below', scoreBelow.value) },
      sample: values.sample === undefined ? undefined : whole('--sample', values.sample, 1),
      seed: values.seed === undefined ? 2333 : whole('--seed', values.seed, 0),
    },
  };
}

export interface ImportIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** Exit 0 when every trace imported, 1 when some lines or traces were skipped (listed; the file is still written). */
export async function runImportTraces(argv: string[], io: ImportIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const command = parseImportTraces(argv);
  const out = path.resolve(command.out);
  refuseOverwritingInput(command.target, out, `--out ${command.out} is a trace file being imported: name a new file for the dataset, so the traces are never overwritten`);
  const outcome = await importTraces(command.target, command.filters);
  for (const problem of outcome.problems) print(io.stderr, `warning: ${problem.format()}\n`);
  if (outcome.rows.length === 0) {
    print(io.stderr, `rag-inspector: no rows to write: ${outcome.interactions} RAG interaction(s) in ${outcome.traces} trace(s)${outcome.interactions ? ', none passed the filters' : ''}; ${out} not written\n`);
    return 2;
  }
  await writeFile(out, toJsonLines(outcome.rows), 'utf8');
  const filtered = outcome.interactions - outcome.rows.length;
  print(io.stdout, `Read ${outcome.spans} span(s) in ${outcome.traces} trace(s) from ${outcome.files.length} file(s); ${outcome.interactions} RAG interaction(s)${filtered ? `, ${filtered} left out by the filters` : ''}.\n`);
  print(io.stdout, `Wrote ${outcome.rows.length} row(s) to ${out}${outcome.problems.length ? `; ${outcome.problems.length} problem(s) above` : ''}.\n`);
  print(io.stdout, 'Run them with a ragas or llm-eval suite (dataset: that file); the rows hold the recorded responses.\n');
  return outcome.problems.length > 0 ? 1 : 0;
}

function pair(flag: string, text: string): { key: string; value: string } {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${text}: write it as name=value`);
  return { key: text.slice(0, at), value: text.slice(at + 1) };
}

function time(flag: string, text: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new UsageError(`${flag} ${text}: not a date or time; use ISO 8601, e.g. 2026-11-01 or 2026-11-01T12:00:00Z`);
  return ms;
}

function number(flag: string, text: string): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value)) throw new UsageError(`${flag}: '${text}' is not a number`);
  return value;
}

function whole(flag: string, text: string, min: number): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) throw new UsageError(`${flag} must be a whole number of at least ${min}, got '${text}'`);
  return value;
}
