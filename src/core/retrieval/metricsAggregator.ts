// A suite's retrieval metrics, built one question at a time: the means over questions of recall, precision, hit rate
// and nDCG at each k, MRR and R-precision, each with a seeded bootstrap interval and n, as report tables, a line chart
// of the metrics by k, and named metrics that eval-file thresholds test ("recall@5", "ndcg@10", "mrr").
import { NumberColumn } from '../numberColumn.js';
import { caseSeed, mulberry32 } from '../random.js';
import type { ChartSpec, ReportCell, ReportMetric, ReportTable } from '../reportTable.js';
import type { LabelSource, RetrievalRecord } from './contract.js';
import { isLabelled, recordMetrics, type QuestionMetrics, type RelevanceOptions } from './metrics.js';

/** Resamples of the percentile bootstrap over questions (enough for a 95% interval's second digit). */
export const BOOTSTRAP_RESAMPLES = 1000;

export interface RetrievalMetricsOptions extends RelevanceOptions {
  suiteId: string;
  /** The cut-offs the user lists, e.g. [1, 3, 5, 10]; sorted and deduplicated here. */
  ks: readonly number[];
  /** The run's seed: the intervals are the same on every run of the same questions. */
  seed: number;
  /**
   * The models under test. Retrieval does not depend on them, but an eval-file threshold is checked per model, so
   * each named metric is repeated for each; without models, a metric's modelKey is the retriever's identity.
   */
  models?: readonly string[];
  resamples?: number;
}

export interface RetrievalMetricsReport {
  tables: ReportTable[];
  charts: ChartSpec[];
  metrics: ReportMetric[];
  notes: string[];
}

export interface RetrievalMetricsAggregator {
  /** One question's retrieval (add each question once, not once per model). */
  add(record: RetrievalRecord): void;
  finish(): RetrievalMetricsReport;
}

/** The measures taken at each k, in the table's order: [field, name of the metric, words in the table]. */
const AT_K: readonly (readonly [keyof Pick<QuestionMetrics, 'recall' | 'precision' | 'hitRate' | 'ndcg'>, string, string])[] = [
  ['recall', 'recall', 'Recall'],
  ['precision', 'precision', 'Precision'],
  ['hitRate', 'hit_rate', 'Hit rate'],
  ['ndcg', 'ndcg', 'nDCG'],
];

/** How many numbers a question keeps: each measure at each k, then MRR and R-precision. */
const width = (ks: readonly number[]) => AT_K.length * ks.length + 2;

/**
 * Percentile bootstrap intervals (95%) of the mean of each measure over the questions: `values` holds each question's
 * measures in a row (`width` numbers). One set of resamples serves every measure, drawn with the project's seeded
 * generator, so a run gives the same intervals every time, and the work is one draw per question and resample.
 */
function bootstrapCells(values: readonly number[], width: number, seed: number, resamples: number): ReportCell[] {
  const n = values.length / width;
  if (n === 0) return Array.from({ length: width }, () => ({ value: null, n: 0 }));
  const means = Array.from({ length: width }, () => new Float64Array(resamples));
  const sums = new Float64Array(width);
  // A resample as how often it drew each question (the same draws as picking n indices), then one pass in order:
  // the per-question rows are read front to back, not at random, which keeps a large run's resampling in cache.
  const drawn = new Uint32Array(n);
  const random = mulberry32(seed);
  for (let r = 0; r < resamples; r++) {
    drawn.fill(0);
    for (let i = 0; i < n; i++) {
      const at = Math.floor(random() * n);
      drawn[at] = (drawn[at] as number) + 1;
    }
    sums.fill(0);
    for (let i = 0; i < n; i++) {
      const times = drawn[i] as number;
      if (times === 0) continue;
      const row = i * width;
      for (let m = 0; m < width; m++) sums[m] = (sums[m] as number) + times * (values[row + m] as number);
    }
    for (let m = 0; m < width; m++) (means[m] as Float64Array)[r] = (sums[m] as number) / n;
  }
  const at = (sorted: Float64Array, q: number) => sorted[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] as number;
  return means.map((resampled, m) => {
    let total = 0;
    for (let i = 0; i < n; i++) total += values[i * width + m] as number;
    resampled.sort();
    return { value: total / n, low: at(resampled, 0.025), high: at(resampled, 0.975), n };
  });
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function createRetrievalMetricsAggregator(options: RetrievalMetricsOptions): RetrievalMetricsAggregator {
  const ks = [...new Set(options.ks)].filter((k) => Number.isInteger(k) && k > 0).sort((a, b) => a - b);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const byRetriever = new Map<string, NumberColumn>();
  const labelSources = new Set<LabelSource>();
  let unlabelled = 0;
  let noRelevant = 0;
  let retrievedOnly = 0;
  let nothingRetrieved = 0;

  return {
    add(record) {
      if (!isLabelled(record)) {
        unlabelled++;
        return;
      }
      const metrics = recordMetrics(record, ks, options);
      if (!metrics) {
        noRelevant++;
        return;
      }
      if (record.relevant === undefined) retrievedOnly++;
      if (record.candidates.length === 0) nothingRetrieved++;
      for (const passage of record.candidates) if (passage.labelSource) labelSources.add(passage.labelSource);
      let values = byRetriever.get(record.retriever);
      if (!values) byRetriever.set(record.retriever, (values = new NumberColumn()));
      for (const [field] of AT_K) for (const value of metrics[field]) values.push(value);
      values.push(metrics.reciprocalRank);
      values.push(metrics.rPrecision);
    },

    finish() {
      const retrievers = [...byRetriever.keys()].sort();
      const tables: ReportTable[] = [];
      const charts: ChartSpec[] = [];
      const metrics: ReportMetric[] = [];
      const cellsOf = (values: NumberColumn, retriever: string) => {
        const cells = bootstrapCells(values.toArray(), width(ks), caseSeed(options.seed, `retrieval\u0000${retriever}`), resamples);
        const names = [
          ...AT_K.flatMap(([, name, words]) => ks.map((k) => ({ name: `${name}@${k}`, label: `${words}@${k}` }))),
          { name: 'mrr', label: 'MRR' },
          { name: 'r_precision', label: 'R-precision' },
        ];
        return names.map((row, m) => ({ ...row, cell: cells[m] as ReportCell }));
      };
      const perRetriever = retrievers.map((retriever) => ({ retriever, rows: cellsOf(byRetriever.get(retriever) as NumberColumn, retriever) }));

      if (perRetriever.length > 0) {
        const first = perRetriever[0]?.rows ?? [];
        tables.push({
          id: `${options.suiteId}-retrieval`,
          title: 'Retrieval',
          columns: retrievers,
          rows: first.map((row, r) => ({ label: row.label, cells: perRetriever.map(({ rows }) => rows[r]?.cell as ReportCell) })),
        });
        perRetriever.forEach(({ retriever, rows }, index) => {
          // The line chart's table: a series per measure, a column per k; the same cells as the table above.
          const tableId = `${options.suiteId}-retrieval-by-k${retrievers.length === 1 ? '' : `-${index + 1}`}`;
          tables.push({
            id: tableId,
            title: retrievers.length === 1 ? 'Retrieval by k' : `Retrieval by k: ${retriever}`,
            columns: ks.map(String),
            rows: AT_K.map(([, , words], m) => ({ label: words, cells: ks.map((_, i) => rows[m * ks.length + i]?.cell as ReportCell) })),
          });
          charts.push({ kind: 'line', tableId, title: tables[tables.length - 1]?.title ?? '', xTitle: 'k (passages)', yTitle: 'mean over questions', min: 0, max: 1 });
          for (const modelKey of options.models ?? [retriever]) {
            for (const row of rows) metrics.push({ suiteId: options.suiteId, modelKey, name: row.name, value: row.cell.value as number | null, n: row.cell.n ?? 0 });
          }
        });
      }

      const notes: string[] = [];
      if (perRetriever.length > 0) {
        notes.push(`Retrieval metrics as trec_eval defines them, averaged over questions; ranks as the retriever returned them (ties keep its order). Intervals: 95% percentile bootstrap over questions, ${resamples.toLocaleString('en-US')} resamples (shared by every measure), seeded by the run's seed.`);
      }
      if (noRelevant > 0) notes.push(`${plural(noRelevant, 'question')} with no relevant passage in the labels left out of every mean (as trec_eval does).`);
      if (unlabelled > 0) notes.push(`${plural(unlabelled, 'question')} without any relevance label left out.`);
      if (nothingRetrieved > 0) notes.push(`${plural(nothingRetrieved, 'question')} where the retriever returned nothing: counted as 0.`);
      const sources = [...labelSources].sort();
      if (sources.length > 0) notes.push(`Relevance labels from: ${sources.join(', ')}.`);
      if (retrievedOnly > 0) {
        notes.push(`For ${plural(retrievedOnly, 'question')} the labels judge only the retrieved passages: recall, nDCG and R-precision count only the relevant passages the retriever found, so they read high.`);
      }
      return { tables, charts, metrics, notes };
    },
  };
}
