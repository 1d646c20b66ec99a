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

/**
 * Run totals counted one result at a time, so the end of a run (tablesFromLog) keeps no result; sums are taken in
 * the order the results come, as the array form below takes them.
 */
export class TotalsCounter {
  private cases = 0;
  private success = 0;
  private error = 0;
  private passed = 0;
  private failed = 0;
  private inputTokens = 0;
  private outputTokens = 0;
  /** undefined once any fresh call's price is unknown (a partial sum would read as the whole cost). */
  private costUsd: number | undefined = 0;
  private readonly calls: CallCounts = { modelCalls: 0, cacheHits: 0, judgeCalls: 0 };

  add(r: TotalsInput): void {
    this.cases++;
    if (r.status === 'success') this.success++;
    if (r.status === 'error') this.error++;
    if (r.pass === true) this.passed++;
    if (r.pass === false) this.failed++;
    if (r.response && !r.response.cached && !r.response.given) this.calls.modelCalls++;
    if (r.response?.cached) this.calls.cacheHits++;
    this.calls.judgeCalls += r.judgeUsage?.calls ?? 0;
    this.inputTokens += freshUsage(r, 'inputTokens');
    this.outputTokens += freshUsage(r, 'outputTokens');
    this.costUsd = addCost(this.costUsd, r);
  }

  /** The calls the results show: one per fresh response (retries unseen), one hit per cached one, the judge calls recorded per case. */
  get estimatedCalls(): CallCounts {
    return { ...this.calls };
  }

  totals(calls: CallCounts = this.estimatedCalls): RunTotals {
    const { cases, success, error, passed, failed, inputTokens, outputTokens, costUsd } = this;
    return { cases, success, error, passed, failed, ...calls, inputTokens, outputTokens, costUsd };
  }
}

function counted(results: readonly TotalsInput[]): TotalsCounter {
  const counter = new TotalsCounter();
  for (const result of results) counter.add(result);
  return counter;
}

export function resultTotals(results: readonly TotalsInput[], calls?: CallCounts): RunTotals {
  return counted(results).totals(calls);
}

export function callsFromResults(results: readonly TotalsInput[]): CallCounts {
  return counted(results).estimatedCalls;
}

/** Tokens spent now: cached answers cost nothing this run; the judge's tokens count too. */
function freshUsage(result: TotalsInput, field: 'inputTokens' | 'outputTokens'): number {
  return (result.response?.cached ? 0 : result.response?.usage[field] ?? 0) + (result.judgeUsage?.[field] ?? 0);
}

/** Cost of fresh calls only, added in the order the array form adds them (the response's, then the judge's). */
function addCost(total: number | undefined, r: TotalsInput): number | undefined {
  if (total === undefined) return undefined;
  let sum = total;
  if (r.response && !r.response.cached) {
    if (r.response.costUsd === undefined) return undefined;
    sum += r.response.costUsd;
  }
  if (r.judgeUsage) {
    if (r.judgeUsage.costUsd === undefined) return undefined;
    sum += r.judgeUsage.costUsd;
  }
  return sum;
}

/**
 * The totals plus judge usage no case result carries (rows prepared with the judge before their cases were built):
 * tokens added, and the cost unknown when either is.
 */
export function withJudgeUsage(totals: RunTotals, usage: Usage & { costUsd?: number }): RunTotals {
  const costUsd = totals.costUsd === undefined || usage.costUsd === undefined ? undefined : totals.costUsd + usage.costUsd;
  return { ...totals, inputTokens: totals.inputTokens + usage.inputTokens, outputTokens: totals.outputTokens + usage.outputTokens, costUsd };
}
