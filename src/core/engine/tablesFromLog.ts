// The suites' tables and the run's totals, fed one logged case at a time: as the run logs each case, or from the run
// log read back; nothing is kept per case (the methods' aggregators keep counts), so memory stays flat.
import { readCaseLines, scanRunLog } from '../run/runLog.js';
import type { CaseLine, RunLogScan } from '../run/runLog.js';
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
  const tables = new TablesCounter(suites, firstLineOfCase(scan));
  for await (const line of readCaseLines(scan)) tables.add(line);
  return tables.finish(calls);
}

/**
 * The suites' tables and the totals fed one case line at a time, in log order, as a reader of the log reads each line
 * (the end of a run from the log, or the run itself as each case is logged). `isFirst`: whether a line is the first
 * one of its case among the lines fed.
 */
export class TablesCounter {
  private readonly tables: Map<string, { plan: SuitePlan; tables: ReturnType<typeof suiteTables>; samples: SampleCounts }>;
  private readonly totals = new TotalsCounter();

  constructor(suites: readonly SuitePlan[], private readonly isFirst: (line: CaseLine) => boolean) {
    this.tables = new Map(suites.map((s) => [s.spec.id, { plan: s, tables: suiteTables(s), samples: new SampleCounts() }]));
  }

  add(line: CaseLine): void {
    const entry = this.tables.get(line.case.suiteId);
    const result = toReportResult(line.result, entry?.plan.suite);
    this.totals.add(result);
    // A case of a suite entry no longer in the eval file (resume checks the file's hash, so only by hand) counts in
    // the totals but belongs to no table.
    if (!entry) return;
    const evalCase = toReportCase(line.case, entry.plan.suite);
    if (this.isFirst(line)) entry.tables.addCase(evalCase);
    entry.tables.add(evalCase, result);
    entry.samples.add(result);
  }

  finish(calls?: CallCounts): RunTables {
    const suiteReports = [...this.tables.values()].map((entry) => entry.samples.apply(entry.tables.finish()));
    return { reports: [...suiteReports, ...combinedReports(suiteReports)], totals: this.totals.totals(calls) };
  }
}

/** What earlier sessions of a resumed run spent, estimated from their logged results; streamed, nothing kept. */
export async function loggedCalls(scan: RunLogScan): Promise<CallCounts> {
  const counter = new TotalsCounter();
  for await (const line of readCaseLines(scan)) counter.add(line.result);
  return counter.estimatedCalls;
}
