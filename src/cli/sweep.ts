// `rag-inspector sweep <eval file>`: the retrieval part of the eval file's `sweep:` — every cell's retrieval metrics
// with intervals (no model call), the best cell against the current setting — printed, and written as sweep.json and
// sweep.csv (and sweep.html, the inspector's heatmap of it) in the out folder.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { sweepBaseOf } from '../core/corpus/sweep/base.js';
import { paramsPerCell } from '../core/corpus/sweep/cellRetriever.js';
import { cellMatches, expandGrid } from '../core/corpus/sweep/grid.js';
import { readSweepQuestions } from '../core/corpus/sweep/questions.js';
import { runSweep, SWEEP_METRICS } from '../core/corpus/sweep/runSweep.js';
import type { SweepMetric, SweepReport, SweepResult } from '../core/corpus/sweep/runSweep.js';
import { bestLine, sweepTable } from '../core/corpus/sweep/sweepText.js';
import { writeSweepFiles } from '../core/report/sweepFiles.js';
import { indexRetrieverOf, runRetriever } from '../core/engine/retriever.js';
import { indexOfSetting, sweepBaseOfIndex } from '../core/corpus/sweep/indexCells.js';
import type { RetrieverForCell } from '../core/corpus/sweep/runSweep.js';
import { envCredentials } from '../core/providers/registry.js';
import type { IndexSpec } from '../core/retrieval/indexSpec.js';
import { cachedRetriever } from '../core/run/retrievalCache.js';
import type { CountedRetriever, RetrieverCounters } from '../core/run/retrievalCache.js';
import type { EvalSpec } from '../core/spec/types.js';
import { IndexProgressLines } from './indexProgress.js';
import { runSweepCell } from '../core/engine/sweepCell.js';
import { formatReports, formatTotals } from '../core/report/summaryText.js';
import { InputError, InputErrors } from '../core/errors.js';
import { loadEvalSpec } from '../core/spec/load.js';
import { UsageError } from './args.js';
import { print } from './terminal.js';

export interface SweepCommand {
  evalFile: string;
  out?: string;
  metric?: SweepMetric;
  suite?: string;
  concurrency: number;
  noCache: boolean;
  quiet: boolean;
  /** Also run the cells `sweep.endToEnd` names through the engine (model calls). */
  endToEnd: boolean;
}

const EXAMPLE = 'rag-inspector sweep examples/sweep/sweep.eval.yaml';

export function parseSweep(argv: string[]): SweepCommand {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      metric: { type: 'string' },
      suite: { type: 'string' },
      concurrency: { type: 'string' },
      'no-cache': { type: 'boolean' },
      quiet: { type: 'boolean' },
      'end-to-end': { type: 'boolean' },
    },
  });
  const [evalFile, extra] = positionals;
  if (!evalFile) throw new UsageError(`sweep needs an eval file with a sweep: block: ${EXAMPLE}`);
  if (extra) throw new UsageError(`sweep takes one eval file, got also '${extra}'`);
  if (values.metric !== undefined && !(SWEEP_METRICS as readonly string[]).includes(values.metric)) throw new UsageError(`--metric must be one of ${SWEEP_METRICS.join(', ')}, got '${values.metric}'`);
  const concurrency = values.concurrency === undefined ? 8 : Number(values.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError(`--concurrency must be a whole number ≥ 1, got '${values.concurrency}'`);
  return {
    evalFile,
    ...(values.out === undefined ? {} : { out: values.out }),
    ...(values.metric === undefined ? {} : { metric: values.metric as SweepMetric }),
    ...(values.suite === undefined ? {} : { suite: values.suite }),
    concurrency,
    noCache: values['no-cache'] === true,
    quiet: values.quiet === true,
    endToEnd: values['end-to-end'] === true,
  };
}

export interface SweepIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/** Exit 0 when every cell was measured, 1 when some retrievals failed or rows were skipped (listed), 2 on an error. */
export async function runSweepCommand(argv: string[], io: SweepIo): Promise<number> {
  const command = parseSweep(argv);
  const spec = await loadEvalSpec(path.resolve(command.evalFile));
  if (!spec.sweep) throw new InputErrors([new InputError({ file: spec.file }, 'the eval file has no sweep: block', 'add the settings to try, e.g. sweep: { chunkSize: [128, 256], k: [1, 3, 5] }')]);
  const sweep = spec.sweep;
  const read = await readSweepQuestions(spec, command.suite ?? spec.sweep.suite, io.signal);
  for (const problem of read.problems) print(io.stderr, `${problem.format()}\n`);
  if (read.unlabelled > 0) print(io.stderr, `sweep: ${read.unlabelled} row${read.unlabelled === 1 ? '' : 's'} without relevant_spans, relevant_ids or graded relevance left out\n`);
  if (read.questions.length === 0) throw new UsageError(`suite "${read.suite.id}" has no question with relevance labels to measure: give rows relevant_spans: [{file, start, end}] or relevant_ids`);

  const workspaceDir = path.dirname(spec.file);
  const stateDir = path.join(workspaceDir, '.rag-inspector');
  const cacheDir = command.noCache ? undefined : path.join(stateDir, 'cache', 'retrieval');
  const grid = expandGrid(spec.sweep, spec.index ? sweepBaseOfIndex(spec.index, read.params.k) : sweepBaseOf(spec, read.params.k));
  const source = spec.index ? indexCells(spec, spec.index, stateDir, cacheDir, command, io.env) : scriptCells(runRetriever(spec, cacheDir, false, io.env));
  if (!command.quiet) print(io.stderr, `sweep: ${grid.cells.length} cells, ${grid.settings.length} retrieval${grid.settings.length === 1 ? '' : 's'} per question, ${read.questions.length} questions (suite ${read.suite.id}, ${source.identity})\n`);
  let result: SweepResult;
  try {
    let lastLine = '';
    result = await runSweep({
      grid,
      questions: read.questions,
      retrieverForCell: source.forCell,
      ...(command.metric ?? spec.sweep.metric ? { metric: command.metric ?? spec.sweep.metric } : {}),
      seed: spec.seed,
      concurrency: command.concurrency,
      signal: io.signal,
      onProgress: (p) => {
        if (command.quiet || (p.done !== p.questions && p.done !== 0)) return;
        const line = `sweep: setting ${p.setting}/${p.settings} (${p.key}) ${p.done === 0 ? 'started' : 'done'}\n`;
        if (line !== lastLine) print(io.stderr, line);
        lastLine = line;
      },
    });
  } finally {
    await source.close();
  }
  const { calls, cacheHits } = source.counters();
  print(io.stdout, `${sweepTable(result).join('\n')}\n\n${bestLine(result)}\n`);
  for (const note of result.notes) print(io.stdout, `note: ${note}\n`);
  print(io.stdout, `${result.retrievals} retrievals (${calls} asked of the retriever, ${cacheHits} from the cache); no model calls\n`);
  const out = path.resolve(command.out ?? path.join(stateDir, 'reports', `sweep-${new Date().toISOString().replace(/[:.]/g, '-')}`));
  const report: SweepReport = { name: spec.name, evalFile: spec.file, suite: read.suite.id, retriever: source.identity, ...result };
  const { written, skipped } = await writeSweepFiles(report, out);
  for (const file of written) print(io.stdout, `wrote ${file}\n`);
  if (skipped) print(io.stderr, `sweep: ${skipped}\n`);
  const failed = result.cells.some((cell) => cell.errors > 0) || read.problems.length > 0;
  const picked = grid.cells.filter((cell) => (sweep.endToEnd ?? []).some((ref) => cellMatches(cell, ref)));
  if (picked.length === 0) return failed ? 1 : 0;
  if (!command.endToEnd) {
    print(io.stdout, `endToEnd names ${picked.length} cell${picked.length === 1 ? '' : 's'} (${picked.map((cell) => cell.key).join('; ')}): add --end-to-end to run them with the models (each a run of its own)\n`);
    return failed ? 1 : 0;
  }
  let runFailed = false;
  for (const cell of picked) {
    const outcome = await runSweepCell(spec, grid, cell, read.suite.id, {
      signal: io.signal,
      credentials: envCredentials(io.env),
      workspaceDir,
      noCache: command.noCache,
      retrieverEnv: io.env,
      onEvent: (event) => {
        if (!command.quiet && event.type === 'run-started') print(io.stderr, `end to end, ${cell.key}: run ${event.runId}, ${event.total} case runs\n`);
      },
    });
    print(io.stdout, `\nEnd to end, ${cell.key}:\n${formatReports(outcome.reports)}\n${formatTotals(outcome.totals)}\nlog: ${outcome.logFile} (rag-inspector report ${outcome.logFile} writes its reports)\n`);
    runFailed ||= outcome.status === 'error' || outcome.totals.error > 0;
  }
  return failed || runFailed ? 1 : 0;
}

/** Where a sweep's retrievals come from, with what it asked and what it closes. */
interface CellSource {
  identity: string;
  forCell: RetrieverForCell;
  counters(): RetrieverCounters;
  close(): Promise<void>;
}

/** The user's script or service: one retriever (one process), each setting sent as params. */
function scriptCells(retriever: CountedRetriever): CellSource {
  return { identity: `retriever ${retriever.identity}`, forCell: paramsPerCell(retriever), counters: () => retriever.counters, close: async () => retriever.close?.() };
}

/**
 * The eval file's index with each setting's values: settings are retrieved one after another, so the previous
 * setting's index is closed when the next one opens (an index shared on disk is found built, never built twice).
 */
function indexCells(spec: EvalSpec, index: IndexSpec, stateDir: string, cacheDir: string | undefined, command: SweepCommand, env: NodeJS.ProcessEnv): CellSource {
  const counters: RetrieverCounters = { calls: 0, cacheHits: 0 };
  let open: CountedRetriever | undefined;
  const progress = new IndexProgressLines(command.quiet);
  const closeOpen = async () => {
    if (!open) return;
    counters.calls += open.counters.calls;
    counters.cacheHits += open.counters.cacheHits;
    const closing = open;
    open = undefined;
    await closing.close?.();
  };
  return {
    identity: `index of ${index.folder}`,
    forCell: async (setting) => {
      await closeOpen();
      open = cachedRetriever(indexRetrieverOf(indexOfSetting(index, setting), spec, env, { stateDir, credentials: envCredentials(env), ...(command.noCache ? { noCache: true } : {}), onProgress: (p) => progress.show(p) }), cacheDir);
      return open;
    },
    counters: () => (open ? { calls: counters.calls + open.counters.calls, cacheHits: counters.cacheHits + open.counters.cacheHits } : counters),
    close: closeOpen,
  };
}
