// A suite's retrieval metrics, built one question at a time: the means over questions of recall, precision, hit rate
// and nDCG at each k, MRR and R-precision, each with a seeded bootstrap interval and n, as report tables, a line chart
// of the metrics by k, and named metrics that eval-file thresholds test ("recall@5", "ndcg@10", "mrr").
import { NumberColumn } from '../numberColumn.js';
import { pairedBootstrap } from '../pairedStats.js';
import { caseSeed } from '../random.js';
import type { ChartSpec, ReportCell, ReportMetric, ReportTable } from '../reportTable.js';
import type { LabelSource, RetrievalRecord } from './contract.js';
import { isLabelled, qrelsOf, questionMetrics, rankedIds, type QuestionMetrics, type RelevanceOptions } from './metrics.js';

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

/** The per-question numbers of one retriever, column by column (8 bytes a value, never the records). */
class RetrieverColumns {
  readonly atK: NumberColumn[][] = AT_K.map(() => []);
  readonly reciprocalRank = new NumberColumn();
  readonly rPrecision = new NumberColumn();

  constructor(ks: readonly number[]) {
    for (const columns of this.atK) for (let i = 0; i < ks.length; i++) columns.push(new NumberColumn());
  }
}

/** A mean over questions with its percentile bootstrap interval (seeded by the run's seed and the metric's name). */
function bootstrapCell(values: NumberColumn, seed: number, name: string, resamples: number): ReportCell {
  const numbers = values.toArray();
  const interval = pairedBootstrap(numbers, caseSeed(seed, name), 0.05, resamples);
  if (!interval) return { value: null, n: 0 };
  return { value: interval.difference, low: interval.low, high: interval.high, n: numbers.length };
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export function createRetrievalMetricsAggregator(options: RetrievalMetricsOptions): RetrievalMetricsAggregator {
  const ks = [...new Set(options.ks)].filter((k) => Number.isInteger(k) && k > 0).sort((a, b) => a - b);
  const resamples = options.resamples ?? BOOTSTRAP_RESAMPLES;
  const byRetriever = new Map<string, RetrieverColumns>();
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
      const metrics = questionMetrics(rankedIds(record), qrelsOf(record), ks, options);
      if (!metrics) {
        noRelevant++;
        return;
      }
      if (record.relevant === undefined) retrievedOnly++;
      if (record.candidates.length === 0) nothingRetrieved++;
      for (const passage of record.candidates) if (passage.labelSource) labelSources.add(passage.labelSource);
      let columns = byRetriever.get(record.retriever);
      if (!columns) byRetriever.set(record.retriever, (columns = new RetrieverColumns(ks)));
      AT_K.forEach(([field], m) => ks.forEach((_, i) => columns.atK[m]?.[i]?.push(metrics[field][i] as number)));
      columns.reciprocalRank.push(metrics.reciprocalRank);
      columns.rPrecision.push(metrics.rPrecision);
    },

    finish() {
      const retrievers = [...byRetriever.keys()].sort();
      const tables: ReportTable[] = [];
      const charts: ChartSpec[] = [];
      const metrics: ReportMetric[] = [];
      const cellsOf = (columns: RetrieverColumns, retriever: string) => {
        const rows: { name: string; label: string; cell: ReportCell }[] = [];
        AT_K.forEach(([, name, words], m) =>
          ks.forEach((k, i) => {
            const column = columns.atK[m]?.[i] as NumberColumn;
            rows.push({ name: `${name}@${k}`, label: `${words}@${k}`, cell: bootstrapCell(column, options.seed, `${retriever}\u0000${name}@${k}`, resamples) });
          }),
        );
        rows.push({ name: 'mrr', label: 'MRR', cell: bootstrapCell(columns.reciprocalRank, options.seed, `${retriever}\u0000mrr`, resamples) });
        rows.push({ name: 'r_precision', label: 'R-precision', cell: bootstrapCell(columns.rPrecision, options.seed, `${retriever}\u0000r_precision`, resamples) });
        return rows;
      };
      const perRetriever = retrievers.map((retriever) => ({ retriever, rows: cellsOf(byRetriever.get(retriever) as RetrieverColumns, retriever) }));

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
        notes.push(`Retrieval metrics as trec_eval defines them, averaged over questions; ranks as the retriever returned them (ties keep its order). Intervals: 95% percentile bootstrap over questions, ${resamples.toLocaleString('en-US')} resamples, seeded by the run's seed.`);
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
