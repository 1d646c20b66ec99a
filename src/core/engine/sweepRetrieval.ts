// The retrieval part of an eval file's `sweep:` from the loaded spec to the report: the questions read, the grid
// expanded, every query-time setting retrieved (the eval file's index per setting, or its retriever given the
// setting as params) and measured. (engine: it opens retrievers the way a run does.) The CLI's `sweep` and VS Code's Sweep Retrieval Settings both call this.
import * as path from 'node:path';
import type { IndexProgress } from '../corpus/contract.js';
import { indexRetrieverOf, runRetriever } from './retriever.js';
import { InputError, InputErrors } from '../errors.js';
import type { Credentials } from '../providers/registry.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import { cachedRetriever } from '../run/retrievalCache.js';
import type { CountedRetriever, RetrieverCounters } from '../run/retrievalCache.js';
import type { EvalSpec } from '../spec/types.js';
import { sweepBaseOf } from '../corpus/sweep/base.js';
import { paramsPerCell } from '../corpus/sweep/cellRetriever.js';
import { expandGrid } from '../corpus/sweep/grid.js';
import type { SweepGrid } from '../corpus/sweep/grid.js';
import { indexOfSetting, sweepBaseOfIndex } from '../corpus/sweep/indexCells.js';
import { readSweepQuestions } from '../corpus/sweep/questions.js';
import { runSweep } from '../corpus/sweep/runSweep.js';
import { preflightIndexes } from './indexPreflight.js';
import type { RetrieverForCell, SweepMetric, SweepProgress, SweepReport } from '../corpus/sweep/runSweep.js';

export interface SweepRetrievalOptions {
  /** The rag suite to measure; the sweep's own `suite:`, else the file's first, by default. */
  suite?: string;
  /** The measure the best cell is chosen by; the sweep's `metric:` by default. */
  metric?: SweepMetric;
  concurrency: number;
  /** Neither read nor write the retrieval and embedding caches. */
  noCache: boolean;
  /** Check the index's embedding models and reranker first (engine/indexPreflight.ts); on unless false. */
  preflight?: boolean;
  /** The environment a command retriever is started with. */
  env: NodeJS.ProcessEnv;
  /** Keys for the index's embeddings and reranker (env vars in the CLI, SecretStorage in VS Code). */
  credentials: Credentials;
  signal: AbortSignal;
  /** Once the questions are read and the grid expanded, before the first retrieval. */
  onPlan?: (plan: SweepPlan) => void;
  onProgress?: (progress: SweepProgress) => void;
  /** An index being built (or brought up to date) for a setting's chunking. */
  onIndexProgress?: (progress: IndexProgress) => void;
  /** A doubt of the pre-run check that does not stop the sweep (a reranker answering 503 at first). */
  onWarning?: (message: string) => void;
}

export interface SweepPlan {
  cells: number;
  /** Query-time settings: each question is retrieved once per setting (its largest k serves the smaller ones). */
  settings: number;
  questions: number;
  suite: string;
  /** What answers the retrievals: "retriever <identity>" or "index of <folder>". */
  source: string;
  /** Rows that could not be read (each at its file:line): left out, the others measured. */
  problems: InputError[];
  /** Rows without relevance labels, left out. */
  unlabelled: number;
}

export interface SweepRetrievalOutcome {
  report: SweepReport;
  plan: SweepPlan;
  grid: SweepGrid;
  /** Retrievals asked of the retriever and answered from the cache. */
  counters: RetrieverCounters;
}

/** Throws InputErrors (the file and how to fix it) when there is no sweep or no labelled question to measure. */
export async function sweepRetrieval(spec: EvalSpec, options: SweepRetrievalOptions): Promise<SweepRetrievalOutcome> {
  if (!spec.sweep) throw new InputErrors([new InputError({ file: spec.file }, 'the eval file has no sweep: block', 'add the settings to try, e.g. sweep: { chunkSize: [128, 256], k: [1, 3, 5] }')]);
  const read = await readSweepQuestions(spec, options.suite ?? spec.sweep.suite, options.signal);
  if (read.questions.length === 0) {
    throw new InputErrors([...read.problems, new InputError({ file: spec.file }, `suite "${read.suite.id}" has no question with relevance labels to measure`, 'give rows relevant_spans: [{file, start, end}] or relevant_ids')]);
  }
  const stateDir = path.join(path.dirname(spec.file), '.rag-inspector');
  const cacheDir = options.noCache ? undefined : path.join(stateDir, 'cache', 'retrieval');
  const grid = expandGrid(spec.sweep, spec.index ? sweepBaseOfIndex(spec.index, read.k) : sweepBaseOf(spec, read.k));
  // The report's notes are what both surfaces show under the sweep (CLI lines, the panel's list).
  if (read.reviewNote) grid.notes.push(read.reviewNote);
  const source = spec.index ? indexCells(spec, spec.index, stateDir, cacheDir, options) : scriptCells(runRetriever(spec, cacheDir, false, options.env));
  const plan: SweepPlan = { cells: grid.cells.length, settings: grid.settings.length, questions: read.questions.length, suite: read.suite.id, source: source.identity, problems: read.problems, unlabelled: read.unlabelled };
  options.onPlan?.(plan);
  if (spec.index && options.preflight !== false) {
    // Every setting's embedding model and reranker reached once before any index is built (engine/indexPreflight.ts).
    const settings = grid.settings.map((setting) => indexOfSetting(spec.index!, setting));
    const { warnings } = await preflightIndexes(spec.index, settings, { credentials: options.credentials, env: options.env, signal: options.signal, timeoutMs: spec.timeoutMs });
    for (const warning of warnings) options.onWarning?.(warning);
  }
  try {
    const metric = options.metric ?? spec.sweep.metric;
    const result = await runSweep({
      grid,
      questions: read.questions,
      retrieverForCell: source.forCell,
      ...(metric ? { metric } : {}),
      seed: spec.seed,
      concurrency: options.concurrency,
      signal: options.signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    const report: SweepReport = { name: spec.name, evalFile: spec.file, suite: read.suite.id, retriever: source.identity, ...result };
    return { report, plan, grid, counters: source.counters() };
  } finally {
    await source.close();
  }
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
function indexCells(spec: EvalSpec, index: IndexSpec, stateDir: string, cacheDir: string | undefined, options: SweepRetrievalOptions): CellSource {
  const counters: RetrieverCounters = { calls: 0, cacheHits: 0 };
  let open: CountedRetriever | undefined;
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
      const context = { stateDir, credentials: options.credentials, ...(options.noCache ? { noCache: true } : {}), ...(options.onIndexProgress ? { onProgress: options.onIndexProgress } : {}) };
      open = cachedRetriever(indexRetrieverOf(indexOfSetting(index, setting), spec, options.env, context), cacheDir);
      return open;
    },
    counters: () => (open ? { calls: counters.calls + open.counters.calls, cacheHits: counters.cacheHits + open.counters.cacheHits } : counters),
    close: closeOpen,
  };
}
