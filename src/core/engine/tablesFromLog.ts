// The suites' tables and the run's totals, computed from the run log when the run ends: while it runs, the engine keeps
// nothing per finished case, so its memory stays flat however many cases there are.
import { readCaseLines, scanRunLog } from '../run/runLog.js';
import type { RunLogScan } from '../run/runLog.js';
import { TotalsCounter } from './totals.js';
import type { CallCounts } from './totals.js';
import type { SuiteReport } from '../suites/contract.js';
import { combinedReports } from '../suites/combinedReports.js';
import { SampleCounts } from '../suites/samplesReport.js';
import { toReportCase, toReportResult } from '../suites/reportView.js';
import type { SuitePlan } from './plan.js';
import type { RunTotals } from '../model.js';
import { firstLineOfCase } from './firstLineOfCase.js';
import { suiteTables } from './suiteTables.js';

export interface RunTables {
  reports: SuiteReport[];
  totals: RunTotals;
}

/**
 * Reads the log's case lines once (a (case, model) logged twice counts once, as its later line) and feeds each to its
 * suite's tables (suiteTables.ts) and to the totals, one line at a time: a method with an aggregator keeps only its
 * counts, so the end of a million-case run holds no per-case view. `calls` are the live clients' counters (retries
 * and cache hits the log cannot show); without them they are estimated from the logged results.
 */
export async function tablesFromLog(logFile: string, suites: readonly SuitePlan[], calls?: CallCounts): Promise<RunTables> {
  const scan = await scanRunLog(logFile);
  const tables = new Map(suites.map((s) => [s.spec.id, { plan: s, tables: suiteTables(s), samples: new SampleCounts() }]));
  const totals = new TotalsCounter();
  const isFirst = firstLineOfCase(scan);
  for await (const line of readCaseLines(scan)) {
    const entry = tables.get(line.case.suiteId);
    const result = toReportResult(line.result, entry?.plan.suite);
    totals.add(result);
    // A case of a suite entry no longer in the eval file (resume checks the file's hash, so only by hand) counts in
    // the totals but belongs to no table.
    if (!entry) continue;
    const evalCase = toReportCase(line.case, entry.plan.suite);
    if (isFirst(line)) entry.tables.addCase(evalCase);
    entry.tables.add(evalCase, result);
    entry.samples.add(result);
  }
  const suiteReports = [...tables.values()].map((entry) => entry.samples.apply(entry.tables.finish()));
  return { reports: [...suiteReports, ...combinedReports(suiteReports)], totals: totals.totals(calls) };
}

/** What earlier sessions of a resumed run spent, estimated from their logged results; streamed, nothing kept. */
export async function loggedCalls(scan: RunLogScan): Promise<CallCounts> {
  const counter = new TotalsCounter();
  for await (const line of readCaseLines(scan)) counter.add(line.result);
  return counter.estimatedCalls;
}
