// The rag report, built case by case: accuracy per model with Wilson intervals and n, the retrieval metrics over the
// questions (once per question, whatever the number of models), and where the failures come from (the cause scores).
import type { FailureCause } from '../../retrieval/contract.js';
import { FAILURE_CAUSES } from '../../retrieval/contract.js';
import { createFailureSplitAggregator } from '../../retrieval/failureSplit.js';
import { createRetrievalMetricsAggregator } from '../../retrieval/metricsAggregator.js';
import { joined, modelColumns, orphansNote, reportThrough } from '../aggregator.js';
import type { ReportTable, SuiteAggregator, SuiteReport } from '../contract.js';
import { wilsonCell } from '../reportCells.js';
import type { ReportCase, ReportResult } from '../reportView.js';
import { ragCaseParams } from './cases.js';
import type { RagParams } from './params.js';
import { RAG_METHOD } from './params.js';

interface Tally {
  hits: number;
  n: number;
  undetermined: number;
}

export function createRagAggregator(params: RagParams, suiteId: string): SuiteAggregator {
  const tallies = new Map<string, Tally>();
  // Made at the first case, which carries the run's seed: the same questions give the same intervals on every run.
  let metrics: ReturnType<typeof createRetrievalMetricsAggregator> | undefined;
  const metricsFor = (seed: number) => (metrics ??= createRetrievalMetricsAggregator({ suiteId, ks: params.ks, seed }));
  const split = createFailureSplitAggregator(suiteId);
  let retrievalErrors = 0;
  return joined({
    addCase(evalCase: ReportCase) {
      const { retrieval, runSeed } = ragCaseParams(evalCase);
      if (retrieval) metricsFor(runSeed).add(retrieval);
    },
    add(_evalCase: ReportCase, result: ReportResult) {
      const tally = tallies.get(result.modelKey) ?? { hits: 0, n: 0, undetermined: 0 };
      tallies.set(result.modelKey, tally);
      if (result.error?.stage === 'retrieval') retrievalErrors++;
      const correct = result.scores.find((s) => s.metric === 'correct');
      if (result.status !== 'success' || !correct || correct.value === null) {
        tally.undetermined++;
        return;
      }
      tally.n++;
      if (correct.pass) tally.hits++;
      else {
        const cause = result.scores.find((s) => s.metric === 'cause')?.label;
        split.add(result.modelKey, (FAILURE_CAUSES as readonly string[]).includes(cause ?? '') ? cause as FailureCause : 'undetermined');
      }
    },
    finish(orphans: number): SuiteReport {
      const models = modelColumns(tallies.keys());
      const accuracy: ReportTable = {
        id: 'accuracy',
        title: 'Answer accuracy',
        columns: models,
        rows: [{ label: 'accuracy', cells: models.map((m) => { const t = tallies.get(m) as Tally; return wilsonCell(t.hits, t.n, t.undetermined); }) }],
      };
      const retrieval = metricsFor(0).finish();
      const failures = split.finish();
      const notes = [
        params.score === 'judge' ? 'Correctness decided by the eval file\'s judge (prompts/rag/judge.prompt).' : 'Correctness by RGB\'s answer match: any alternative of the answer as a lowercase substring of the response.',
        `The first ${params.k} of ${params.candidates} candidates were sent to the model.`,
        ...(retrievalErrors > 0 ? [`${retrievalErrors} case(s) ended in a retrieval error and are counted as undetermined; --resume <run> --retry-errors asks the retriever again.`] : []),
        ...retrieval.notes,
        ...failures.notes,
        ...orphansNote(orphans),
      ];
      return {
        suiteId,
        method: RAG_METHOD,
        tables: [accuracy, ...retrieval.tables, ...failures.tables],
        metrics: [
          ...models.map((m) => { const t = tallies.get(m) as Tally; return { suiteId, modelKey: m, name: 'accuracy', value: t.n ? t.hits / t.n : null, n: t.n, undetermined: t.undetermined }; }),
          ...retrieval.metrics,
        ],
        notes,
        scoring: params.score === 'judge' ? 'judge' : 'answer match',
        charts: [...retrieval.charts, ...failures.charts],
      };
    },
  });
}

export function ragReport(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[], params: RagParams, suiteId: string): SuiteReport {
  return reportThrough(createRagAggregator(params, suiteId), cases, results);
}
