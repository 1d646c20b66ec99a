// A run in the inspector's shapes (viewModel.ts): what Export and Compare read. Holds every case: for a run that fits in
// memory; the standalone HTML report streams instead (htmlReportFile.ts).
import type { CaseDetail, RunDetail } from './viewModel.js';
import { caseListItem } from './caseItems.js';
import type { RunData } from './runData.js';
import { caseKey } from '../model.js';
import { ErrorCauseTally, errorCausesOf } from '../errorCauses.js';
import { ExplainedItems, explanationOfRunLog } from './explainedItems.js';

/** The causes of the run's errored cases, read from its entries (only errored results are kept). */
export async function errorCausesOfRun(run: RunData): Promise<ReturnType<typeof errorCausesOf>> {
  const errored = [];
  for await (const { result } of run.entries()) if (result.status === 'error') errored.push(result);
  return errorCausesOf(errored);
}

export interface InspectorRun {
  detail: RunDetail;
  /** Every case in full, keyed like the list items. */
  cases: Map<string, CaseDetail>;
}

export async function inspectorRun(run: RunData): Promise<InspectorRun> {
  const cases = new Map<string, CaseDetail>();
  const items = [];
  const causes = new ErrorCauseTally();
  const explained = await explanationOfRunLog(run.logFile, run.runId);
  const explainedItems = new ExplainedItems(explained.explanation, run.reports);
  for await (const { evalCase, result } of run.entries()) {
    if (!evalCase) continue; // a result without its case cannot be shown; the log reader reports such lines
    items.push(explainedItems.item(caseListItem(evalCase, result), { evalCase, result }));
    causes.add(result);
    cases.set(caseKey(result.caseId, result.modelKey), { runId: run.runId, evalCase, result });
  }
  // errorCauses before cases: the streamed report (htmlReportFile.ts) writes the fields in this order.
  const detail = runDetailOf(run);
  const problems = explained.problem ? [explained.problem, ...detail.problems] : detail.problems;
  return { detail: { ...detail, reports: explainedItems.reports(), problems, errorCauses: causes.list(), cases: items }, cases };
}

/** The run's detail without its case list. */
export function runDetailOf(run: RunData): Omit<RunDetail, 'cases'> {
  return {
    listing: { runId: run.runId, name: run.name, createdAt: run.createdAt, status: run.status, models: run.models, totals: run.totals },
    reports: run.reports,
    thresholds: run.thresholds,
    problems: run.problems,
  };
}
