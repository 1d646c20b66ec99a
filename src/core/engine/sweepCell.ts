// The end-to-end part of a sweep: a cell run through the engine like any eval file (its cases, scores, failure split
// and run log), so a setting picked from the retrieval heatmap is checked on answers, not only on rankings.
import { cellEvalSpec } from '../corpus/sweep/endToEnd.js';
import type { SweepCell, SweepGrid } from '../corpus/sweep/grid.js';
import type { EvalSpec } from '../spec/types.js';
import { runEvaluation } from './runEvaluation.js';
import type { RunOptions, RunOutcome } from './runEvaluation.js';

/** Runs the sweep's rag suite at `cell`'s settings: its own run (log, reports), the case results in the outcome. */
export function runSweepCell(spec: EvalSpec, grid: Pick<SweepGrid, 'settings'>, cell: SweepCell, suiteId: string, options: RunOptions): Promise<RunOutcome> {
  return runEvaluation(cellEvalSpec(spec, grid, cell, suiteId), options);
}
