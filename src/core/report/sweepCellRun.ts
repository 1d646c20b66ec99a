// A sweep cell's end-to-end run in a few numbers for the sweep view: answer accuracy with its interval and where the
// failures come from, per model, read from the run's rag report (the tables the inspector and the CLI show).
import type { ReportCell } from '../reportTable.js';
import type { RunStatus, RunTotals } from '../model.js';
import type { SuiteReport } from '../suites/contract.js';
import { failureSplitTableId } from '../retrieval/failureSplit.js';

/** One model's answers at the cell's settings. */
export interface SweepCellModel {
  model: string;
  /** Share of correct answers, its 95% Wilson interval, n and the undetermined left out. */
  accuracy: ReportCell;
  /** Share of the failed cases per cause (not-retrieved, ranked-out, …), in the failure split's order. */
  split: Array<{ cause: string; share: ReportCell }>;
}

/** Where a cell's end-to-end run stands: on disk (done, failed, cancelled) or going now. */
export interface SweepCellRun {
  cellKey: string;
  /** 'running' while this window runs it; 'failed' when it stopped before a run was written (`problem` says why). */
  state: 'running' | 'finished' | 'failed';
  runId?: string;
  createdAt?: string;
  /** The run's status: a run whose cases errored is 'completed-with-errors', never 'success'. */
  status?: RunStatus;
  cases?: number;
  /** Cases that ended in an error: their answers are not in the accuracy. */
  errors?: number;
  done?: number;
  models: SweepCellModel[];
  /** In words the user can act on: why the cell has no result, or what its errors were. */
  problem?: string;
}

/** The cell's numbers from its run's reports (the sweep's rag suite); empty models when the suite has no report. */
export function cellModels(reports: readonly SuiteReport[], suiteId: string): SweepCellModel[] {
  const report = reports.find((r) => r.suiteId === suiteId);
  const accuracy = report?.tables.find((t) => t.id === 'accuracy');
  if (!report || !accuracy) return [];
  const split = report.tables.find((t) => t.id === failureSplitTableId(suiteId));
  return accuracy.columns.map((model, column) => ({
    model,
    accuracy: accuracy.rows[0]?.cells[column] ?? { value: null },
    split: split ? split.rows.flatMap((row) => {
      const share = row.cells[split.columns.indexOf(model)];
      return share && typeof share.value === 'number' && share.value > 0 ? [{ cause: row.label, share }] : [];
    }) : [],
  }));
}

/** A run of the cell, read back: its numbers, and whatever kept it from a clean end said as a problem (never a silent success). */
export function finishedCellRun(cellKey: string, run: { runId: string; createdAt: string; status: RunStatus; totals?: RunTotals; interrupted?: true }, reports: readonly SuiteReport[], suiteId: string): SweepCellRun {
  const errors = run.totals?.error ?? 0;
  const problem = run.status === 'cancelled' ? 'cancelled before every case ran; the accuracy is over the finished cases only'
    : run.status === 'error' ? 'the run stopped with an error; open it for the cause'
      : run.status === 'started' ? (run.interrupted ? 'the run did not finish (interrupted); Resume Interrupted Run finishes it' : 'the run has not finished yet (still going, or stopped elsewhere); show the sweep again when it has')
        : errors > 0 ? `${errors} of ${run.totals?.cases ?? errors} case(s) ended in an error and are not in the accuracy; open the run for their causes`
          : run.totals?.judgeErrors ? `${run.totals.judgeErrors} judge answer(s) could not be read: undetermined, not in the accuracy`
            : undefined;
  return {
    cellKey,
    state: 'finished',
    runId: run.runId,
    createdAt: run.createdAt,
    status: run.status,
    ...(run.totals ? { cases: run.totals.cases, errors } : {}),
    models: cellModels(reports, suiteId),
    ...(problem ? { problem } : {}),
  };
}
