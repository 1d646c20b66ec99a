// One suite's tables at the end of a run, fed line by line: through the method's aggregator when it has one (nothing
// kept per case), else the report view of every case and result, handed to its array `report` at the end.
import type { SuiteAggregator } from '../suites/contract.js';
import type { ReportCase, ReportResult } from '../suites/reportView.js';
import { reviewNote } from '../corpus/questions/appliedReview.js';
import type { SuitePlan } from './plan.js';

export function suiteTables(plan: SuitePlan): SuiteAggregator {
  return withReviewNote(plan, plan.suite.createAggregator?.(plan.params, plan.spec.id) ?? heldViews(plan));
}

/** A suite run on reviewed questions says in its report how many a person dropped (never left out silently). */
function withReviewNote(plan: SuitePlan, tables: SuiteAggregator): SuiteAggregator {
  if (!plan.review) return tables;
  return {
    addCase: (evalCase) => tables.addCase(evalCase),
    add: (evalCase, result) => tables.add(evalCase, result),
    finish: () => {
      const report = tables.finish();
      const note = reviewNote(plan.review);
      return note ? { ...report, notes: [...report.notes, note] } : report;
    },
  };
}

/** A method without an aggregator: the slim view of every case (~1–2 KB each) until its report is computed. */
function heldViews(plan: SuitePlan): SuiteAggregator {
  const cases = new Map<string, ReportCase>();
  const results: ReportResult[] = [];
  return {
    addCase: (evalCase) => cases.set(evalCase.id, evalCase),
    add: (_evalCase, result) => results.push(result),
    finish: () => plan.suite.report(cases, results, plan.params, plan.spec.id),
  };
}
