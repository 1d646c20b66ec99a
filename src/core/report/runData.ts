// Everything a report needs about one run, whether it just finished or was read back from its log.
import type { InputProblem, RunTotals, ThresholdOutcome } from '../engine/events.js';
import type { RunOutcome } from '../engine/runEvaluation.js';
import { InputError } from '../errors.js';
import { readRunLog } from '../run/runLog.js';
import type { CaseResult, EvalCase, RunStatus } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';

export interface RunData {
  runId: string;
  name: string;
  specFile: string;
  createdAt: string;
  status: RunStatus;
  models: string[];
  totals: RunTotals;
  reports: SuiteReport[];
  thresholds: ThresholdOutcome[];
  problems: InputProblem[];
  cases: ReadonlyMap<string, EvalCase>;
  results: readonly CaseResult[];
}

/** Why a case failed, in one line: the first failing score's explanation, or the error. */
export function failureMessage(result: CaseResult): string {
  if (result.status === 'error' && result.error) {
    return `${result.error.stage} error (${result.error.kind}): ${result.error.message}`;
  }
  const judgeError = result.scores.find((s) => s.judgeError);
  if (judgeError) return `${judgeError.metric}: judge error — ${judgeError.judgeError}`;
  const failed = result.scores.find((s) => s.pass === false);
  if (failed) return `${failed.metric}${failed.label ? ` (${failed.label})` : ''}: ${failed.explanation ?? 'failed'}`;
  return 'passed';
}

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
