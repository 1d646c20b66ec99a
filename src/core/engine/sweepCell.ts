// The end-to-end part of a sweep: a cell run through the engine like any eval file (its cases, scores, failure split
// and run log), so a setting picked from the retrieval heatmap is checked on answers, not only on rankings. The CLI's
// `sweep --end-to-end` and VS Code's sweep panel both price the picked cells and run them here.
import { cellEvalSpec } from '../corpus/sweep/endToEnd.js';
import type { SweepCell, SweepGrid } from '../corpus/sweep/grid.js';
import type { EvalSpec } from '../spec/types.js';
import { estimateCost, formatUsd } from './costEstimate.js';
import { runEvaluation } from './runEvaluation.js';
import type { RunOptions, RunOutcome } from './runEvaluation.js';

/** Runs the sweep's rag suite at `cell`'s settings: its own run (log, reports), the case results in the outcome. */
export function runSweepCell(spec: EvalSpec, grid: Pick<SweepGrid, 'settings'>, cell: SweepCell, suiteId: string, options: RunOptions): Promise<RunOutcome> {
  return runEvaluation(cellEvalSpec(spec, grid, cell, suiteId), options);
}

/** What the picked cells may cost together, and the words both front ends show before anything is spent. */
export interface SweepCostPlan {
  /** estimateCost's upper bound summed over the cells' runs (every call fresh). */
  usd: number;
  calls: number;
  unpriced: string[];
  /** "cost plan: up to $0.12 for 40 priced model calls" (and the models without a price). */
  text: string;
}

/** Prices each picked cell's run as the engine would run it; nothing is sent. */
export async function sweepCostPlan(spec: EvalSpec, grid: Pick<SweepGrid, 'settings'>, cells: readonly SweepCell[], suiteId: string, signal: AbortSignal): Promise<SweepCostPlan> {
  let usd = 0;
  let calls = 0;
  const unpriced = new Set<string>();
  for (const cell of cells) {
    const estimate = await estimateCost(cellEvalSpec(spec, grid, cell, suiteId), undefined, signal);
    usd += estimate.usd;
    calls += estimate.calls;
    for (const model of estimate.unpriced) unpriced.add(model);
  }
  const priced = calls === 0 ? 'no priced model call' : `up to ${formatUsd(usd)} for ${calls} priced model call${calls === 1 ? '' : 's'}`;
  const text = unpriced.size === 0 ? `cost plan: ${priced}` : `cost plan: ${priced}; no price known for ${[...unpriced].join(', ')} (add it under prices:)`;
  return { usd, calls, unpriced: [...unpriced], text };
}

/** "End to end: 2 cells, cost plan: …" — the CLI's line before the runs start, and the cost question's words in VS Code. */
export function endToEndLine(cells: number, plan: SweepCostPlan): string {
  return `End to end: ${cells} cell${cells === 1 ? '' : 's'}, ${plan.text}`;
}
