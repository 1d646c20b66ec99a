// Counts and usage over a run's results: what the engine writes in the summary line, and what a reader of an interrupted log can still know.
import type { ReportResult } from '../suites/reportView.js';
import type { RunTotals, Usage } from '../model.js';

/** What totals read of a result: the report view holds it, and so does a full CaseResult. */
type TotalsInput = Pick<ReportResult, 'status' | 'pass' | 'judgeUsage' | 'response'>;

/** Call counters only the live clients know; a log read back without its summary estimates them from the results. */
export interface CallCounts {
  modelCalls: number;
  cacheHits: number;
  judgeCalls: number;
}

export function resultTotals(results: readonly TotalsInput[], calls: CallCounts = callsFromResults(results)): RunTotals {
  return {
    cases: results.length,
    success: results.filter((r) => r.status === 'success').length,
    error: results.filter((r) => r.status === 'error').length,
    passed: results.filter((r) => r.pass === true).length,
    failed: results.filter((r) => r.pass === false).length,
    ...calls,
    inputTokens: sum(results, (r) => freshUsage(r, 'inputTokens')),
    outputTokens: sum(results, (r) => freshUsage(r, 'outputTokens')),
    costUsd: totalCost(results),
  };
}

/** The calls the results show: one per fresh response (retries unseen), one hit per cached one, the judge calls recorded per case. */
export function callsFromResults(results: readonly TotalsInput[]): CallCounts {
  return {
    modelCalls: results.filter((r) => r.response && !r.response.cached && !r.response.given).length,
    cacheHits: results.filter((r) => r.response?.cached).length,
    judgeCalls: sum(results, (r) => r.judgeUsage?.calls ?? 0),
  };
}

/** Tokens spent now: cached answers cost nothing this run; the judge's tokens count too. */
function freshUsage(result: TotalsInput, field: 'inputTokens' | 'outputTokens'): number {
  return (result.response?.cached ? 0 : result.response?.usage[field] ?? 0) + (result.judgeUsage?.[field] ?? 0);
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}

/** Cost of fresh calls only; undefined when any price is unknown (a partial sum would read as the whole cost). */
function totalCost(results: readonly TotalsInput[]): number | undefined {
  let total = 0;
  for (const r of results) {
    if (r.response && !r.response.cached) {
      if (r.response.costUsd === undefined) return undefined;
      total += r.response.costUsd;
    }
    if (r.judgeUsage) {
      if (r.judgeUsage.costUsd === undefined) return undefined;
      total += r.judgeUsage.costUsd;
    }
  }
  return total;
}

/**
 * The totals plus judge usage no case result carries (rows prepared with the judge before their cases were built):
 * tokens added, and the cost unknown when either is.
 */
export function withJudgeUsage(totals: RunTotals, usage: Usage & { costUsd?: number }): RunTotals {
  const costUsd = totals.costUsd === undefined || usage.costUsd === undefined ? undefined : totals.costUsd + usage.costUsd;
  return { ...totals, inputTokens: totals.inputTokens + usage.inputTokens, outputTokens: totals.outputTokens + usage.outputTokens, costUsd };
}
