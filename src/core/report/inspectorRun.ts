// A run in the inspector's shapes (protocol.ts): what the standalone HTML report embeds and what Export and Compare read.
import type { CaseDetail, RunDetail } from '../../protocol.js';
import { caseKey, caseListItem } from './caseItems.js';
import type { RunData } from './runData.js';

export interface InspectorRun {
  detail: RunDetail;
  /** Every case in full, keyed like the list items. */
  cases: Map<string, CaseDetail>;
}

export function inspectorRun(run: RunData): InspectorRun {
  const cases = new Map<string, CaseDetail>();
  const items = [];
  for (const result of run.results) {
    const evalCase = run.cases.get(result.caseId);
    if (!evalCase) continue; // a result without its case cannot be shown; the log reader reports such lines
    items.push(caseListItem(evalCase, result));
    cases.set(caseKey(result.caseId, result.modelKey), { runId: run.runId, evalCase, result });
  }
  return {
    detail: {
      listing: { runId: run.runId, name: run.name, createdAt: run.createdAt, status: run.status, models: run.models, totals: run.totals },
      reports: run.reports,
      thresholds: run.thresholds,
      problems: run.problems,
      cases: items,
    },
    cases,
  };
}
