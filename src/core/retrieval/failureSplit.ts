// Where a suite's failures come from: the share of each model's failed cases per cause, with Wilson intervals, as a
// report table and a bar chart per model whose bars open the cases of that cause.
import type { BarChartSpec, ReportCell, ReportTable } from '../reportTable.js';
import { wilson } from '../stats.js';
import { FAILURE_CAUSES, type FailureCause } from './contract.js';

/** Each cause in a few words, for the report's notes (a row's label stays the cause id, which the bar's filter needs). */
export const FAILURE_CAUSE_WORDS: Readonly<Record<FailureCause, string>> = {
  'not-retrieved': 'no relevant passage among the retriever\'s candidates',
  'ranked-out': 'a relevant passage was retrieved but ranked below the cut-off k',
  'retrieved-not-used': 'a relevant passage was sent and the model ignored it (Explain finds it inert)',
  distracted: 'a sent passage misled the model (Explain finds it harms)',
  position: 'the case passes when the relevant passage is moved first',
  generation: 'the relevant passage was sent and the model still answered wrong',
  undetermined: 'the evidence to decide is not there (never guessed)',
};

export interface FailureSplit {
  tables: ReportTable[];
  charts: BarChartSpec[];
  notes: string[];
}

export interface FailureSplitAggregator {
  /** One failed case of `modelKey` and its cause. */
  add(modelKey: string, cause: FailureCause): void;
  finish(): FailureSplit;
}

/** The table id of a suite's failure split (the bar charts point at it). */
export function failureSplitTableId(suiteId: string): string {
  return `${suiteId}-failure-causes`;
}

/**
 * Counts failed cases per (model, cause) — a few numbers, whatever the run's size. Rows are the causes that occur, in
 * FAILURE_CAUSES order (retrieval's first, then Explain's); columns the models, sorted so they do not move between
 * runs; each cell the share of that model's failed cases with its 95% Wilson interval and n = its failed cases.
 */
export function createFailureSplitAggregator(suiteId: string): FailureSplitAggregator {
  const counts = new Map<string, Map<FailureCause, number>>();
  return {
    add(modelKey, cause) {
      let byCause = counts.get(modelKey);
      if (!byCause) counts.set(modelKey, (byCause = new Map()));
      byCause.set(cause, (byCause.get(cause) ?? 0) + 1);
    },
    finish() {
      if (counts.size === 0) return { tables: [], charts: [], notes: [] };
      const models = [...counts.keys()].sort();
      const failed = models.map((model) => [...(counts.get(model)?.values() ?? [])].reduce((a, b) => a + b, 0));
      const occurring = FAILURE_CAUSES.filter((cause) => models.some((model) => counts.get(model)?.has(cause)));
      const rows = occurring.map((cause) => ({
        label: cause,
        cells: models.map((model, column): ReportCell => {
          const interval = wilson(counts.get(model)?.get(cause) ?? 0, failed[column] as number);
          return { value: interval.value, low: interval.low, high: interval.high, n: interval.n };
        }),
      }));
      const tableId = failureSplitTableId(suiteId);
      const notes = [
        'Share of each model\'s failed cases per cause, with a 95% Wilson interval; n is the model\'s failed cases.',
        ...occurring.map((cause) => `${cause}: ${FAILURE_CAUSE_WORDS[cause]}.`),
      ];
      const table: ReportTable = { id: tableId, title: 'Where the failures come from', columns: models, rows, notes };
      const charts = models.map((model, column): BarChartSpec => ({
        kind: 'bar',
        tableId,
        title: models.length === 1 ? 'Where the failures come from' : `Where the failures come from: ${model}`,
        xTitle: 'share of failed cases',
        column,
        filter: { field: 'cause' },
      }));
      return { tables: [table], charts, notes: [] };
    },
  };
}
