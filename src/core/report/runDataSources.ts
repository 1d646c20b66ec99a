// Builds a RunData from a run log on disk: the summary read once, the cases streamed on demand.
import type { RunOutcome } from '../engine/runEvaluation.js';
import { readCaseLines, scanRunLog } from '../run/runLog.js';
import type { LogOpener } from '../run/runLog.js';
import type { RunData } from './runData.js';
import { outcomeStatus } from '../model.js';
import type { CaseResult, RunTotals } from '../model.js';
import { TotalsCounter } from '../engine/totals.js';

/** The report view of a run that just finished in this process: its log, which holds every case. */
export function runDataFromOutcome(outcome: RunOutcome): Promise<RunData> {
  return runDataFromLog(outcome.logFile);
}

/**
 * The report view of a run read back from its log. The summary line holds the tables as they were computed; an
 * interrupted run has none, so its cases are shown with counts from the results and a problem saying how to finish it.
 * The log is scanned once here (the line that counts per case and model); `entries()` reads it again each time, through
 * `openLog` when given (a test counts the reads).
 */
export async function runDataFromLog(file: string, options: { openLog?: LogOpener } = {}): Promise<RunData> {
  const scan = await scanRunLog(file);
  const summary = scan.summary;
  const entries = async function* () {
    for await (const line of readCaseLines(scan, options.openLog)) yield { evalCase: line.case, result: line.result };
  };
  const logProblems = scan.problems.map((p) => ({ file, line: p.line, message: `run log: ${p.message}` }));
  const interrupted = summary ? [] : [{ file, message: 'this run was interrupted: it has no summary, so the tables are missing', hint: `finish it with: rag-inspector run ${scan.header.spec.file} --resume ${scan.header.runId}` }];
  return {
    runId: scan.header.runId,
    name: scan.header.spec.name,
    specFile: scan.header.spec.file,
    createdAt: scan.header.createdAt,
    status: outcomeStatus(scan.status, summary?.totals),
    models: scan.header.models,
    totals: summary?.totals ?? await countedTotals(entries()),
    reports: summary?.reports ?? [],
    thresholds: summary?.thresholds ?? [],
    problems: [...(summary?.problems ?? []), ...logProblems, ...interrupted],
    caseCount: scan.winners.size,
    entries,
    logFile: file,
  };
}

/** Totals of an interrupted run, counted one logged result at a time (none kept). */
async function countedTotals(entries: AsyncIterable<{ result: CaseResult }>): Promise<RunTotals> {
  const counter = new TotalsCounter();
  for await (const { result } of entries) counter.add(result);
  return counter.totals();
}
