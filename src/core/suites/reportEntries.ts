// Pairs each result with the case it ran, the first step of every method's report.
import type { ReportCase, ReportResult } from './reportView.js';

export interface ReportEntry {
  evalCase: ReportCase;
  result: ReportResult;
}

/** Results whose case is unknown (a log line without its case) are counted apart, so a report can say so. */
export function joinEntries(cases: ReadonlyMap<string, ReportCase>, results: readonly ReportResult[]): { entries: ReportEntry[]; orphans: number } {
  const entries: ReportEntry[] = [];
  let orphans = 0;
  for (const result of results) {
    const evalCase = cases.get(result.caseId);
    if (evalCase) entries.push({ evalCase, result });
    else orphans++;
  }
  return { entries, orphans };
}

export function entriesForModel(entries: readonly ReportEntry[], modelKey: string): ReportEntry[] {
  return entries.filter((e) => e.result.modelKey === modelKey);
}

/**
 * The models a report has columns for, in one fixed order (sorted), so a table's columns do not move between runs of
 * the same eval file: results are logged as they finish, and whichever model answered first must not decide.
 */
export function modelsOf(entries: readonly { result: { modelKey: string } }[]): string[] {
  return [...new Set(entries.map((e) => e.result.modelKey))].sort();
}
