// A run's list items and reports with its stored explanation applied: an explained failed rag case lists Explain's
// cause, and each rag suite's failure split is counted again from the listed causes. Used wherever a run on disk is
// listed (the panel's run log index, inspectorRun, the HTML and JSON reports).
import { outcomeOf } from '../model.js';
import type { CaseResult, EvalCase, InputProblem } from '../model.js';
import { describeError } from '../errors.js';
import { explanationFileOfRunLog, readExplanation } from '../explain/explainRun.js';
import type { CaseExplanation, RunExplanation } from '../explain/model.js';
import { createFailureSplitAggregator, failureSplitTableId, type FailureSplitAggregator } from '../retrieval/failureSplit.js';
import type { SuiteReport } from '../suites/contract.js';
import { explanationsByCase, failureCauseOf } from './failureCauses.js';
import type { RunLogIndex } from './runLogIndex.js';
import type { CaseListItem } from './viewModel.js';

/** Said under a failure split counted with Explain's evidence. */
export const EXPLAINED_SPLIT_NOTE = 'Causes include Explain\'s evidence: an explained failed case counts with the cause Explain found, the others with the one recorded when they ran.';

/** The run's stored explanation (.rag-inspector/explanations/<run-id>.json beside its log), when it was explained. */
export async function explanationOfRunLog(logFile: string | undefined, runId: string): Promise<{ explanation?: RunExplanation; problem?: InputProblem }> {
  if (!logFile) return {};
  const file = explanationFileOfRunLog(logFile, runId);
  try {
    const explanation = await readExplanation(file);
    return explanation ? { explanation } : {};
  } catch (error) {
    // A run without its explanation is still the run; say why it is missing.
    return { problem: { file, message: `the run's explanation could not be read: ${describeError(error)}`, hint: 'explain the run again (rag-inspector explain)' } };
  }
}

/**
 * Applies one run's explanation to its list items, case by case (a run streams), and counts each rag suite's failure
 * split from the items it was given. Without an explanation, items and reports come back unchanged.
 */
export class ExplainedItems {
  private readonly explained: Map<string, CaseExplanation>;
  private readonly splits = new Map<string, FailureSplitAggregator>();

  constructor(explanation: RunExplanation | undefined, private readonly reportsOfRun: SuiteReport[]) {
    this.explained = explanationsByCase(explanation);
    if (this.explained.size === 0) return;
    for (const report of reportsOfRun) {
      if (report.tables.some((t) => t.id === failureSplitTableId(report.suiteId))) this.splits.set(report.suiteId, createFailureSplitAggregator(report.suiteId));
    }
  }

  /** Whether this item's case must be read in full to know its cause: an explained failed case. */
  needsEntry(item: CaseListItem): boolean {
    return this.explained.has(item.key) && outcomeOf(item) === 'fail';
  }

  /** The item with Explain's cause when its case was explained (`entry`: its full line, read when needsEntry). */
  item(item: CaseListItem, entry?: { evalCase: EvalCase | undefined; result: CaseResult }): CaseListItem {
    const explanation = this.explained.get(item.key);
    const found = explanation && entry ? failureCauseOf(entry.evalCase, entry.result, explanation) : undefined;
    const out = found?.from === 'explanation' && found.finding.cause !== item.cause ? { ...item, cause: found.finding.cause } : item;
    // The rag report's own rule: a failed case without a readable cause counts as undetermined.
    if (outcomeOf(out) === 'fail') this.splits.get(out.suiteId)?.add(out.modelKey, out.cause ?? 'undetermined');
    return out;
  }

  /** The run's reports with each rag suite's failure split (same table id, so the bars' filter holds) counted from the items. */
  reports(): SuiteReport[] {
    return this.reportsOfRun.map((report) => {
      const split = this.splits.get(report.suiteId);
      if (!split) return report;
      const tableId = failureSplitTableId(report.suiteId);
      const { tables, charts } = split.finish();
      const refined = tables.map((t) => ({ ...t, notes: [...(t.notes ?? []), EXPLAINED_SPLIT_NOTE] }));
      return {
        ...report,
        tables: report.tables.flatMap((t) => (t.id === tableId ? refined : [t])),
        charts: [...(report.charts ?? []).filter((c) => c.tableId !== tableId), ...charts],
      };
    });
  }
}

/**
 * The list items and reports of a run with its explanation applied: the explanation read once, and only the explained
 * failed cases read in full (`readEntries`: by their byte ranges in the log, never the whole log again). Never throws:
 * `problem` says why the recorded causes are shown instead.
 */
export async function explainedRunItems(
  logFile: string,
  runId: string,
  listed: readonly CaseListItem[],
  reports: SuiteReport[],
  readEntries: (keys: string[]) => Promise<Map<string, { evalCase: EvalCase | undefined; result: CaseResult }>>,
): Promise<{ items: CaseListItem[]; reports: SuiteReport[]; problem?: InputProblem }> {
  const { explanation, problem } = await explanationOfRunLog(logFile, runId);
  const explained = new ExplainedItems(explanation, reports);
  const keys = listed.filter((item) => explained.needsEntry(item)).map((item) => item.key);
  try {
    const entries = keys.length === 0 ? new Map() : await readEntries(keys);
    const items = listed.map((item) => explained.item(item, entries.get(item.key)));
    return { items, reports: explained.reports(), ...(problem ? { problem } : {}) };
  } catch (error) {
    // The run is still shown, with the causes recorded when it ran; say why Explain's are missing.
    return { items: [...listed], reports, problem: { file: logFile, message: `Explain's causes cannot be shown: the explained cases could not be read (${describeError(error)})`, hint: 'open the run again' } };
  }
}

/** explainedRunItems for an indexed run log (the panel's runs on disk). */
export function explainedIndexItems(index: RunLogIndex, runId: string): ReturnType<typeof explainedRunItems> {
  return explainedRunItems(index.file, runId, [...index.entries.values()].map((indexed) => indexed.item), index.summary?.reports ?? [], (keys) => index.readEntries(keys));
}
