// `rag-inspector sweep <eval file>`: the retrieval part of the eval file's `sweep:` — every cell's retrieval metrics
// with intervals (no model call), the best cell against the current setting — printed, and written as sweep.json and
// sweep.csv (and sweep.html, the inspector's heatmap of it) in the out folder.
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { cellMatches } from '../core/corpus/sweep/grid.js';
import { SWEEP_METRICS } from '../core/corpus/sweep/runSweep.js';
import type { SweepMetric } from '../core/corpus/sweep/runSweep.js';
import { sweepRetrieval } from '../core/engine/sweepRetrieval.js';
import { bestLine, sweepTable } from '../core/corpus/sweep/sweepText.js';
import { defaultSweepFolder, writeSweepFiles } from '../core/report/sweepFiles.js';
import { envCredentials } from '../core/providers/registry.js';
import { IndexProgressLines } from './indexProgress.js';
import { endToEndLine, runSweepCell, sweepCostPlan } from '../core/engine/sweepCell.js';
import { formatReports, formatTotals } from '../core/report/summaryText.js';
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
  /** Check the index's embedding models and reranker before anything is built (off: --no-preflight). */
  preflight: boolean;
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
      'no-preflight': { type: 'boolean' },
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
    preflight: values['no-preflight'] !== true,
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
  const workspaceDir = path.dirname(spec.file);
  const indexLines = new IndexProgressLines(command.quiet);
  let lastLine = '';
  const { report, plan, grid, counters } = await sweepRetrieval(spec, {
    ...(command.suite === undefined ? {} : { suite: command.suite }),
    ...(command.metric === undefined ? {} : { metric: command.metric }),
    concurrency: command.concurrency,
    noCache: command.noCache,
    preflight: command.preflight,
    env: io.env,
    credentials: envCredentials(io.env),
    signal: io.signal,
    onWarning: (message) => print(io.stderr, `sweep: warning: ${message}\n`),
    onPlan: (p) => {
      for (const problem of p.problems) print(io.stderr, `${problem.format()}\n`);
      if (p.unlabelled > 0) print(io.stderr, `sweep: ${p.unlabelled} row${p.unlabelled === 1 ? '' : 's'} without relevant_spans, relevant_ids or graded relevance left out\n`);
      if (!command.quiet) print(io.stderr, `sweep: ${p.cells} cells, ${p.settings} retrieval${p.settings === 1 ? '' : 's'} per question, ${p.questions} questions (suite ${p.suite}, ${p.source})\n`);
    },
    onIndexProgress: (p) => indexLines.show(p),
    onProgress: (p) => {
      if (command.quiet || (p.done !== p.questions && p.done !== 0)) return;
      const line = `sweep: setting ${p.setting}/${p.settings} (${p.key}) ${p.done === 0 ? 'started' : 'done'}\n`;
      if (line !== lastLine) print(io.stderr, line);
      lastLine = line;
    },
  });
  const sweep = spec.sweep!;
  const { calls, cacheHits } = counters;
  print(io.stdout, `${sweepTable(report).join('\n')}\n\n${bestLine(report)}\n`);
  for (const note of report.notes) print(io.stdout, `note: ${note}\n`);
  print(io.stdout, `${report.retrievals} retrievals (${calls} asked of the retriever, ${cacheHits} from the cache); no model calls\n`);
  const out = path.resolve(command.out ?? defaultSweepFolder(spec.file));
  const { written, skipped } = await writeSweepFiles(report, out);
  for (const file of written) print(io.stdout, `wrote ${file}\n`);
  if (skipped) print(io.stderr, `sweep: ${skipped}\n`);
  const failed = report.cells.some((cell) => cell.errors > 0) || plan.problems.length > 0;
  const picked = grid.cells.filter((cell) => (sweep.endToEnd ?? []).some((ref) => cellMatches(cell, ref)));
  if (picked.length === 0) return failed ? 1 : 0;
  // The cost plan comes before anything is spent: in the hint, and again before the runs start.
  const costPlan = await sweepCostPlan(spec, grid, picked, report.suite, io.signal);
  if (!command.endToEnd) {
    print(io.stdout, `endToEnd names ${picked.length} cell${picked.length === 1 ? '' : 's'} (${picked.map((cell) => cell.key).join('; ')}): ${costPlan.text}; add --end-to-end to run them with the models (each a run of its own)\n`);
    return failed ? 1 : 0;
  }
  print(io.stdout, `\n${endToEndLine(picked.length, costPlan)}\n`);
  let runFailed = false;
  for (const cell of picked) {
    const outcome = await runSweepCell(spec, grid, cell, report.suite, {
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
