// Builds a RunData from a run that just finished in this process, or from a run log on disk.
import type { RunOutcome } from '../engine/runEvaluation.js';
import type { EvalCase } from '../model.js';
import { readRunLog } from '../run/runLog.js';
import type { RunData } from './runData.js';
import { resultTotals } from './totals.js';

/** The report view of a run that just finished in this process. */
export function runDataFromOutcome(outcome: RunOutcome): RunData {
  return {
    runId: outcome.runId,
    name: outcome.spec.name,
    specFile: outcome.spec.file,
    createdAt: outcome.createdAt,
    status: outcome.status,
    models: outcome.spec.models.map((m) => `${m.provider}:${m.model}`),
    totals: outcome.totals,
    reports: outcome.reports,
    thresholds: outcome.thresholds,
    problems: outcome.plan.problems,
    cases: outcome.cases,
    results: outcome.results,
  };
}

/**
 * The report view of a run read back from its log. The summary line holds the tables as they were computed; an
 * interrupted run has none, so its cases are shown with counts from the results and a problem saying how to finish it.
 */
export async function runDataFromLog(file: string): Promise<RunData> {
  const log = await readRunLog(file);
  const summary = log.summary;
  const cases = new Map<string, EvalCase>();
  for (const line of log.cases) cases.set(line.case.id, line.case);
  const results = log.cases.map((line) => line.result);
  const logProblems = log.problems.map((p) => ({ file, line: p.line, message: `run log: ${p.message}` }));
  const interrupted = summary ? [] : [{ file, message: 'this run was interrupted: it has no summary, so the tables are missing', hint: `finish it with: rag-inspector run ${log.header.spec.file} --resume ${log.header.runId}` }];
  return {
    runId: log.header.runId,
    name: log.header.spec.name,
    specFile: log.header.spec.file,
    createdAt: log.header.createdAt,
    status: log.status,
    models: log.header.models,
    totals: summary?.totals ?? resultTotals(results),
    reports: summary?.reports ?? [],
    thresholds: summary?.thresholds ?? [],
    problems: [...(summary?.problems ?? []), ...logProblems, ...interrupted],
    cases,
    results,
  };
}
