// The two cells every method's tables are made of: a proportion with its Wilson interval, and a mean with its interval.
import { meanWithInterval, wilson } from '../stats.js';
import type { ReportCell } from './contract.js';

/** hits / n with a 95% Wilson interval; `undetermined` cases (errors, unparsable verdicts) are counted apart from n. */
export function wilsonCell(hits: number, n: number, undetermined: number): ReportCell {
  const interval = wilson(hits, n);
  return { value: interval.value, low: interval.low, high: interval.high, n, undetermined };
}

/** The mean of the determined values with its 95% interval (none for fewer than two); nulls counted as undetermined. */
export function meanCell(values: readonly (number | null)[]): ReportCell {
  const summary = meanWithInterval(values);
  const cell: ReportCell = { value: summary.value, n: summary.n, undetermined: summary.undetermined };
  if (summary.low !== null && summary.high !== null) {
    cell.low = summary.low;
    cell.high = summary.high;
  }
  return cell;
}
