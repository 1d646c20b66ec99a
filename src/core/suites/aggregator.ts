// A method's array `report` as a thin wrapper over its aggregator (contract.ts, SuiteAggregator): one implementation
// of the tables, fed either from arrays (tests, a caller with a few cases in memory) or line by line from a run log.
import type { SuiteAggregator, SuiteReport } from './contract.js';
import type { ReportCase, ReportResult } from './reportView.js';
import { NumberColumn } from '../numberColumn.js';

export { NumberColumn };

/** What `report(cases, results)` returns, computed by feeding `aggregator` every case, then every result in order. */
export function reportThrough(aggregator: SuiteAggregator, cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[]): SuiteReport {
  for (const evalCase of cases.values()) aggregator.addCase(evalCase);
  for (const result of results) aggregator.add(cases.get(result.caseId), result);
  return aggregator.finish();
}

/** A method's aggregator over results that have their case; `finish` learns how many results had none. */
export interface JoinedAggregator {
  addCase(evalCase: ReportCase): void;
  add(evalCase: ReportCase, result: ReportResult): void;
  finish(orphans: number): SuiteReport;
}

/** A result whose case is unknown (a log line without its case) is left out of every table and counted. */
export function joined(inner: JoinedAggregator): SuiteAggregator {
  let orphans = 0;
  return {
    addCase: (evalCase) => inner.addCase(evalCase),
    add(evalCase, result) {
      if (evalCase) inner.add(evalCase, result);
      else orphans++;
    },
    finish: () => inner.finish(orphans),
  };
}

/** The note a report adds when some results had no case. */
export function orphansNote(orphans: number): string[] {
  return orphans > 0 ? [`${orphans} result(s) had no matching case and were left out.`] : [];
}

/**
 * The values a mean reads, with the undetermined ones (null) only counted: a mean and its interval filter them out,
 * so they need no place in the order, which matters only to the sum of the numbers (NaN kept: the mean drops it).
 */
export class MeanValues {
  private readonly numbers = new NumberColumn();
  private nulls = 0;

  add(value: number | null): void {
    if (value === null) this.nulls++;
    else this.numbers.push(value);
  }

  /** What meanCell / meanWithInterval take: the numbers in order, then a null per undetermined value. */
  values(): (number | null)[] {
    const values: (number | null)[] = this.numbers.toArray();
    for (let i = 0; i < this.nulls; i++) values.push(null);
    return values;
  }
}

/**
 * The models a report has columns for, in one fixed order (sorted), so a table's columns do not move between runs of
 * the same eval file: results are logged as they finish, and whichever model answered first must not decide.
 */
export function modelColumns(modelKeys: Iterable<string>): string[] {
  return [...new Set(modelKeys)].sort();
}
