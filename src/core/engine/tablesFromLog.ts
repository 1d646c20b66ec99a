// The suites' tables and the run's totals, computed from the run log when the run ends: while it runs, the engine keeps
// nothing per finished case, so its memory stays flat however many cases there are.
import { readCaseLines, scanRunLog } from '../run/runLog.js';
import type { RunLogScan } from '../run/runLog.js';
import { resultTotals, callsFromResults } from './totals.js';
import type { CallCounts } from './totals.js';
import type { SuiteReport } from '../suites/contract.js';
import { combinedReports } from '../suites/combinedReports.js';
import { withSampleStability } from '../suites/samplesReport.js';
import { toReportCase, toReportResult } from '../suites/reportView.js';
import type { ReportCase, ReportResult } from '../suites/reportView.js';
import type { SuitePlan } from './plan.js';
import type { RunTotals } from '../model.js';

/** The slim report view of one suite entry's finished cases (prompts, documents and response text dropped). */
interface SuiteViews {
  cases: Map<string, ReportCase>;
  results: ReportResult[];
}

export interface RunTables {
  reports: SuiteReport[];
  totals: RunTotals;
}

/**
 * Reads the log's case lines once (a (case, model) logged twice counts once, as its later line) into the report view
 * and hands each suite its own. The views exist only for this call: about a kilobyte per case, for a few seconds at
 * the end of a 100,000-case run, instead of for the whole run. `calls` are the live clients' counters (retries and
 * cache hits the log cannot show); without them they are estimated from the logged results.
 */
export async function tablesFromLog(logFile: string, suites: readonly SuitePlan[], calls?: CallCounts): Promise<RunTables> {
  const views = new Map<string, SuiteViews>(suites.map((s) => [s.spec.id, { cases: new Map(), results: [] }]));
  const suiteOf = new Map(suites.map((s) => [s.spec.id, s.suite]));
  const all: ReportResult[] = [];
  for await (const line of readCaseLines(await scanRunLog(logFile))) {
    const suite = suiteOf.get(line.case.suiteId);
    const view = views.get(line.case.suiteId);
    const result = toReportResult(line.result, suite);
    all.push(result);
    // A case of a suite entry no longer in the eval file (resume checks the file's hash, so only by hand) counts in
    // the totals but belongs to no table.
    if (!suite || !view) continue;
    if (!view.cases.has(line.case.id)) view.cases.set(line.case.id, toReportCase(line.case, suite));
    view.results.push(result);
  }
  const suiteReports = suites.map((s) => {
    const view = views.get(s.spec.id)!;
    return withSampleStability(s.suite.report(view.cases, view.results, s.params, s.spec.id), view.results);
  });
  return { reports: [...suiteReports, ...combinedReports(suiteReports)], totals: resultTotals(all, calls) };
}

/** What earlier sessions of a resumed run spent, estimated from their logged results; streamed, nothing kept. */
export async function loggedCalls(scan: RunLogScan): Promise<CallCounts> {
  const counts: CallCounts = { modelCalls: 0, cacheHits: 0, judgeCalls: 0 };
  for await (const line of readCaseLines(scan)) {
    const one = callsFromResults([line.result]);
    counts.modelCalls += one.modelCalls;
    counts.cacheHits += one.cacheHits;
    counts.judgeCalls += one.judgeCalls;
  }
  return counts;
}
