// Counts and usage over a run's results: what the engine writes in the summary line, and what a reader of an interrupted log can still know.
import type { ReportResult } from '../suites/reportView.js';
import { isTruncated } from '../model.js';
import type { FailedAttemptSpend, RunTotals, Usage } from '../model.js';

/**
 * What totals read of a result: the report view holds it, and so does a full CaseResult, which also has the attempts
 * its call made (retries, and a call that failed after them) for estimating the calls of a log's earlier sessions.
 */
type TotalsInput = Pick<ReportResult, 'status' | 'pass' | 'judgeUsage' | 'response' | 'scores'> & { attempts?: number };

/** Call counters only the live clients know; a log read back without its summary estimates them from the results. */
export interface CallCounts {
  modelCalls: number;
  cacheHits: number;
  judgeCalls: number;
  /** Tokens of failed attempts only the live clients saw; absent when none (a log read back cannot show them). */
  failedAttempts?: FailedAttemptSpend;
}

/**
 * Run totals counted one result at a time, so the end of a run (tablesFromLog) keeps no result; sums are taken in
 * the order the results come, as the array form below takes them.
 */
export class TotalsCounter {
  /** The totals so far in RunTotals' key order (the summary line and report.json keep it); costUsd undefined once any fresh call's price is unknown. */
  private readonly sums: RunTotals = { cases: 0, success: 0, error: 0, passed: 0, failed: 0, modelCalls: 0, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };

  add(r: TotalsInput): void {
    const t = this.sums;
    t.cases++;
    if (r.status === 'success') t.success++;
    if (r.status === 'error') t.error++;
    if (r.pass === true) t.passed++;
    if (r.pass === false) t.failed++;
    if (isTruncated(r.response)) t.truncated = (t.truncated ?? 0) + 1;
    if (r.scores.some((score) => score.judgeError !== undefined)) t.judgeErrors = (t.judgeErrors ?? 0) + 1;
    t.modelCalls += modelCallsOf(r);
    if (r.response?.cached) t.cacheHits++;
    t.judgeCalls += r.judgeUsage?.calls ?? 0;
    t.inputTokens += freshUsage(r, 'inputTokens');
    t.outputTokens += freshUsage(r, 'outputTokens');
    t.costUsd = addCost(t.costUsd, r);
  }

  /**
   * The calls the results show, counted as the live clients count them (every provider call): each fresh call's
   * attempts when the result records them (one per fresh response otherwise), one hit per cached answer, the judge
   * calls recorded per case.
   */
  get estimatedCalls(): CallCounts {
    const { modelCalls, cacheHits, judgeCalls } = this.sums;
    return { modelCalls, cacheHits, judgeCalls };
  }

  /** The totals, with the live clients' call counters when given (retries and cache hits the results cannot show). */
  totals(calls: CallCounts = this.estimatedCalls): RunTotals {
    return { ...this.sums, ...calls };
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

/** Provider calls behind a result: its attempts, unless its answer came from the cache or the dataset (no call). */
function modelCallsOf(r: TotalsInput): number {
  if (r.response?.cached || r.response?.given) return 0;
  if (r.attempts !== undefined) return Math.max(0, r.attempts);
  return r.response ? 1 : 0;
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
