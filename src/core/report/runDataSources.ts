// Builds a RunData from a run that just finished in this process, or from a run log on disk.
import type { RunOutcome } from '../engine/runEvaluation.js';
import { InputError } from '../errors.js';
import type { EvalCase } from '../model.js';
import { readRunLog } from '../run/runLog.js';
import type { RunData } from './runData.js';

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

/** The report view of a run read back from its log (the summary line holds the tables as they were computed). */
export async function runDataFromLog(file: string): Promise<RunData> {
  const log = await readRunLog(file);
  const summary = log.summary;
  if (!summary) {
    throw new InputError({ file }, 'this run has no summary line: it was interrupted', 'finish it first with rag-inspector run <eval file> --resume <run-id>');
  }
  const cases = new Map<string, EvalCase>();
  for (const line of log.cases) cases.set(line.case.id, line.case);
  return {
    runId: log.header.runId,
    name: log.header.spec.name,
    specFile: log.header.spec.file,
    createdAt: log.header.createdAt,
    status: summary.status,
    models: log.header.models,
    totals: summary.totals,
    reports: summary.reports,
    thresholds: summary.thresholds,
    problems: summary.problems,
    cases,
    results: log.cases.map((line) => line.result),
  };
}
