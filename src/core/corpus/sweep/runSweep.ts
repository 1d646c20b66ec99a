// Runs a sweep's retrieval part: each question asked once per query-time setting at that setting's largest k (each
// smaller k reads a prefix of the same ranking), the retrieval metrics of every cell with intervals, and the best
// cell by the chosen metric, tested pair by pair against the current setting. No model is called.
import { caseSeed } from '../../random.js';
import { exactPairedInterval, mcnemarExact, pairedBootstrap } from '../../pairedStats.js';
import { forEachConcurrent } from '../../pool.js';
import type { ReportCell } from '../../reportTable.js';
import type { Retriever, RetrievalRecord, RetrievedItem } from '../../retrieval/contract.js';
import { isLabelled, recordMetrics } from '../../retrieval/metrics.js';
import { createRetrievalMetricsAggregator } from '../../retrieval/metricsAggregator.js';
import type { RetrievalMetricsAggregator } from '../../retrieval/metricsAggregator.js';
import { labelledRetrieval, passagePosition } from '../../retrieval/qrels.js';
import { SWEEP_METRIC_WORDS, SWEEP_METRICS } from '../../retrieval/indexSpec.js';
import type { SweepMetric } from '../../retrieval/indexSpec.js';
import type { QuerySetting, SweepCell, SweepGrid, SweepSettings } from './grid.js';
import type { SweepQuestion } from './questions.js';

export { SWEEP_METRIC_WORDS, SWEEP_METRICS };
export type { SweepMetric };

/** Which ranking each query-time setting is retrieved with: any retriever (a script given the setting's params, the index). */
export type RetrieverForCell = (setting: QuerySetting) => Retriever | Promise<Retriever>;

export interface SweepProgress {
  /** 1-based index of the query-time setting being retrieved, of `settings`. */
  setting: number;
  settings: number;
  key: string;
  /** Questions answered (or failed) so far in this setting, of `questions`. */
  done: number;
  questions: number;
}

export interface SweepOptions {
  grid: SweepGrid;
  questions: readonly SweepQuestion[];
  retrieverForCell: RetrieverForCell;
  /** The measure the best cell is chosen by (default nDCG at the cell's k). */
  metric?: SweepMetric;
  seed: number;
  concurrency?: number;
  signal: AbortSignal;
  onProgress?: (progress: SweepProgress) => void;
  /** Bootstrap resamples (default the retrieval metrics' own). */
  resamples?: number;
}

/** One cell's numbers: each measure's mean over questions with its 95% interval and n. */
export interface SweepCellResult {
  key: string;
  settings: SweepSettings;
  current: boolean;
  best: boolean;
  metrics: Record<SweepMetric, ReportCell>;
  /** Questions whose retrieval failed in this cell's setting (left out of its means), with the first cause. */
  errors: number;
  firstError?: string;
  /** Per question (same order as SweepResult.questions): the first relevant rank within k, null when none. */
  ranks: (number | null)[];
  /** Per question: the chosen metric's value; null when not measured (a failed retrieval, no relevant passage). */
  values: (number | null)[];
}

/** The best cell against the current setting, on the questions both measured. */
export interface PairedVerdict {
  /** hit rate is a yes/no per question: the exact McNemar test; the other measures: a seeded paired bootstrap. */
  test: 'mcnemar-exact' | 'paired-bootstrap';
  n: number;
  /** Mean of best − current over the pairs. */
  difference: number;
  low: number;
  high: number;
  /** McNemar's p-value. */
  p?: number;
  /** The 95% interval leaves out 0 (and for McNemar, p ≤ 0.05). */
  significant: boolean;
}

export interface SweepResult {
  metric: SweepMetric;
  axes: SweepGrid['axes'];
  questions: { id: string; question: string }[];
  cells: SweepCellResult[];
  current: string;
  best?: { key: string; vsCurrent?: PairedVerdict };
  /** Retrievals the sweep asked for (one per question per query-time setting). */
  retrievals: number;
  notes: string[];
}

/** What `rag-inspector sweep` writes (sweep.json) and the inspector's sweep view reads: the result and what it measured. */
export interface SweepReport extends SweepResult {
  /** The eval file's name (its `name:`). */
  name: string;
  evalFile: string;
  suite: string;
  retriever: string;
}

/** The retrieval part of a sweep. Cancellation (the signal) is rethrown; a failed retrieval is counted on its cells. */
export async function runSweep(options: SweepOptions): Promise<SweepResult> {
  const { grid, questions, signal } = options;
  const metric = options.metric ?? 'ndcg';
  const index = new Map(questions.map((q, i) => [q, i]));
  const perCell = new Map<SweepCell, CellWork>();
  for (const cell of grid.cells) {
    perCell.set(cell, {
      aggregator: createRetrievalMetricsAggregator({ suiteId: cell.key, ks: [cell.settings.k], seed: options.seed, ...(options.resamples ? { resamples: options.resamples } : {}) }),
      ranks: questions.map(() => null),
      values: questions.map(() => null),
      errors: 0,
    });
  }
  let retrievals = 0;
  let unplaced = 0;
  const noRelevant = new Set<string>();

  for (const [s, setting] of grid.settings.entries()) {
    if (signal.aborted) throw signal.reason;
    let retriever: Retriever;
    try {
      retriever = await options.retrieverForCell(setting);
    } catch (error) {
      // A setting whose retriever cannot be made (an index that cannot be built) fails its cells, not the sweep.
      if (signal.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      for (const cell of setting.cells) {
        const work = perCell.get(cell) as CellWork;
        work.errors += questions.length;
        work.firstError ??= message;
      }
      continue;
    }
    let done = 0;
    const progress = () => options.onProgress?.({ setting: s + 1, settings: grid.settings.length, key: setting.key, done, questions: questions.length });
    progress();
    await forEachConcurrent(questions, options.concurrency ?? 8, signal, async (question) => {
      let items: RetrievedItem[];
      try {
        retrievals++;
        items = (await retriever.retrieve({ question: question.question, k: setting.maxK }, signal)).items;
      } catch (error) {
        if (signal.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        for (const cell of setting.cells) {
          const work = perCell.get(cell) as CellWork;
          work.errors++;
          work.firstError ??= `${question.id}: ${message}`;
        }
        return;
      } finally {
        done++;
        progress();
      }
      if (question.labels.source === 'span') unplaced += items.slice(0, setting.maxK).filter((item) => !passagePosition(item.metadata)).length;
      const at = index.get(question) as number;
      for (const cell of setting.cells) {
        const k = cell.settings.k;
        // The cell's ranking is the first k of the setting's one retrieval.
        const record: RetrievalRecord = { retriever: retriever.identity, k, ...labelledRetrieval(items.slice(0, k), k, question.labels) };
        const work = perCell.get(cell) as CellWork;
        work.aggregator.add(record);
        if (!isLabelled(record)) continue;
        const measured = recordMetrics(record, [k]);
        if (!measured) {
          noRelevant.add(question.id);
          continue;
        }
        work.ranks[at] = measured.firstRelevantRank;
        work.values[at] = metricValue(measured, metric);
      }
    });
    if (signal.aborted) throw signal.reason;
  }

  const cells = grid.cells.map((cell): SweepCellResult => {
    const work = perCell.get(cell) as CellWork;
    return {
      key: cell.key,
      settings: cell.settings,
      current: cell.current,
      best: false,
      metrics: cellMetrics(work.aggregator, cell),
      errors: work.errors,
      ...(work.firstError === undefined ? {} : { firstError: work.firstError }),
      ranks: work.ranks,
      values: work.values,
    };
  });
  const current = cells.find((cell) => cell.current) as SweepCellResult;
  const best = bestCell(cells, metric);
  if (best) best.best = true;
  const notes = [...grid.notes];
  if (noRelevant.size > 0) notes.push(`${noRelevant.size} question${noRelevant.size === 1 ? '' : 's'} whose labels call nothing relevant left out of every mean (as trec_eval does).`);
  if (unplaced > 0) notes.push(`${unplaced} retrieved passage${unplaced === 1 ? '' : 's'} had no { file, startChar, endChar } in its metadata: relevant_spans cannot judge them, so they count as not relevant. Have the retriever return each passage's file and character range.`);
  const byIds = questions.filter((q) => q.labels.source !== 'span').length;
  if (byIds > 0 && grid.axes.some(({ axis }) => axis === 'chunkSize' || axis === 'overlap')) {
    notes.push(`${byIds} question${byIds === 1 ? ' is' : 's are'} labelled by document ids, which name the chunks of one chunking: across the chunk sizes swept they find nothing else. Label them with relevant_spans (file and character range) to compare chunkings.`);
  }
  const failed = cells.filter((cell) => cell.errors > 0);
  if (failed.length > 0) notes.push(`Retrieval failed for some questions in ${failed.length} cell${failed.length === 1 ? '' : 's'} (left out of those cells' means), e.g. ${failed[0]?.key}: ${failed[0]?.firstError}.`);
  return {
    metric,
    axes: grid.axes,
    questions: questions.map(({ id, question }) => ({ id, question })),
    cells,
    current: current.key,
    ...(best ? { best: { key: best.key, ...pairedAgainst(best, current, metric, options.seed) } } : {}),
    retrievals,
    notes,
  };
}

interface CellWork {
  aggregator: RetrievalMetricsAggregator;
  ranks: (number | null)[];
  values: (number | null)[];
  errors: number;
  firstError?: string;
}

function metricValue(measured: NonNullable<ReturnType<typeof recordMetrics>>, metric: SweepMetric): number {
  switch (metric) {
    case 'recall': return measured.recall[0] as number;
    case 'precision': return measured.precision[0] as number;
    case 'hit_rate': return measured.hitRate[0] as number;
    case 'ndcg': return measured.ndcg[0] as number;
    case 'mrr': return measured.reciprocalRank;
    case 'r_precision': return measured.rPrecision;
  }
}

/** The aggregator's one table (a row per measure at the cell's k, in SWEEP_METRICS' order) as the cell's metrics. */
function cellMetrics(aggregator: RetrievalMetricsAggregator, cell: SweepCell): Record<SweepMetric, ReportCell> {
  const table = aggregator.finish().tables.find((t) => t.id === `${cell.key}-retrieval`);
  const empty: ReportCell = { value: null, n: 0 };
  return Object.fromEntries(SWEEP_METRICS.map((name, row) => [name, table?.rows[row]?.cells[0] ?? empty])) as Record<SweepMetric, ReportCell>;
}

/**
 * The cell with the highest mean of `metric`: the current setting when it ties for it (nothing to change), else the
 * first in grid order among equals; undefined when none was measured.
 */
export function bestCell(cells: readonly SweepCellResult[], metric: SweepMetric): SweepCellResult | undefined {
  let best: SweepCellResult | undefined;
  for (const cell of cells) {
    const value = cell.metrics[metric].value;
    if (typeof value !== 'number') continue;
    const top = best?.metrics[metric].value as number | undefined;
    if (top === undefined || value > top || (value === top && cell.current)) best = cell;
  }
  return best;
}

/** The paired test of `best` against `current` on the questions both measured; nothing when they are the same cell. */
function pairedAgainst(best: SweepCellResult, current: SweepCellResult, metric: SweepMetric, seed: number): { vsCurrent?: PairedVerdict } {
  if (best === current) return {};
  const pairs: [number, number][] = [];
  best.values.forEach((value, i) => {
    const before = current.values[i];
    if (value !== null && value !== undefined && before !== null && before !== undefined) pairs.push([before, value]);
  });
  if (pairs.length === 0) return {};
  if (metric === 'hit_rate') {
    const counts = { bothPass: 0, broken: 0, fixed: 0, bothFail: 0 };
    for (const [before, after] of pairs) {
      if (before > 0 && after > 0) counts.bothPass++;
      else if (before > 0) counts.broken++;
      else if (after > 0) counts.fixed++;
      else counts.bothFail++;
    }
    const p = mcnemarExact(counts.broken, counts.fixed);
    const interval = exactPairedInterval(counts);
    const difference = (counts.fixed - counts.broken) / pairs.length;
    return { vsCurrent: { test: 'mcnemar-exact', n: pairs.length, difference, low: interval?.low ?? difference, high: interval?.high ?? difference, p, significant: p <= 0.05 } };
  }
  const interval = pairedBootstrap(pairs.map(([before, after]) => after - before), caseSeed(seed, `sweep\u0000${best.key}\u0000${current.key}`));
  if (!interval) return {};
  return { vsCurrent: { test: 'paired-bootstrap', n: pairs.length, difference: interval.difference, low: interval.low, high: interval.high, significant: interval.low > 0 || interval.high < 0 } };
}
