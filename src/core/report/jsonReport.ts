// The JSON report: the whole run (tables, thresholds, every case with its scores) for other tools to read.
import type { RunData } from './runData.js';

export function renderJsonReport(run: RunData): string {
  return JSON.stringify({
    format: 'rag-inspector-report',
    version: 1,
    runId: run.runId,
    name: run.name,
    specFile: run.specFile,
    createdAt: run.createdAt,
    status: run.status,
    models: run.models,
    totals: run.totals,
    thresholds: run.thresholds,
    problems: run.problems,
    reports: run.reports,
    cases: run.results.map((result) => {
      const evalCase = run.cases.get(result.caseId);
      return {
        caseId: result.caseId,
        suiteId: evalCase?.suiteId,
        testbed: evalCase?.testbed,
        row: evalCase?.row,
        modelKey: result.modelKey,
        question: evalCase?.question,
        status: result.status,
        pass: result.pass,
        response: result.response?.text,
        scores: result.scores,
        error: result.error,
        usage: result.response?.usage,
        latencyMs: result.response?.latencyMs,
        costUsd: result.response?.costUsd,
        cached: result.response?.cached,
        params: evalCase?.params,
      };
    }),
  }, jsonNumbers, 2);
}

/** JSON has no NaN or Infinity; write null so a reader never mistakes "undetermined" for a number. */
function jsonNumbers(_key: string, value: unknown): unknown {
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}
