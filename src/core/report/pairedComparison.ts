// Two runs of the same cases, compared pair by pair: per suite, model and metric, how many cases the change fixed and
// broke, the change with its paired interval, the exact McNemar p-value, and one word for it — better, worse, or no
// detectable change at this size (pairedRows.ts). Cases present in one run only are listed apart, never paired.
import { caseKey } from '../model.js';
import type { CaseResult } from '../model.js';
import { suiteFor } from '../suites/registry.js';
import { OUTCOME_METRIC, PairedTally } from './pairedRows.js';
import type { PairedRow, PairSide } from './pairedRows.js';
import type { RunData } from './runData.js';

export { OUTCOME_METRIC } from './pairedRows.js';
export type { PairedRow, PairedVerdict } from './pairedRows.js';

export interface PairedComparison {
  /** The significance level the verdicts are taken at. */
  level: number;
  rows: PairedRow[];
  /** (case, model) pairs present in only one of the runs, as "caseId (model)". */
  onlyBefore: string[];
  onlyAfter: string[];
  /** The cases whose overall verdict went from pass to fail, per suite and model, for a report to name. */
  brokenCases: { suiteId: string; modelKey: string; caseId: string }[];
}

export interface CompareOptions {
  /** Significance level, 0.05 by default. */
  level?: number;
}

function sideOf(suiteId: string, result: CaseResult): PairSide {
  const metrics = new Map<string, { pass?: boolean; value: number | null }>();
  for (const score of result.scores) {
    // A judge error is undetermined: neither a pass nor a fail, and its value is no measurement.
    const determined = !score.judgeError && result.status === 'success';
    metrics.set(score.metric, {
      ...(determined && typeof score.pass === 'boolean' ? { pass: score.pass } : {}),
      value: determined && typeof score.value === 'number' && !Number.isNaN(score.value) ? score.value : null,
    });
  }
  return { suiteId, caseId: result.caseId, modelKey: result.modelKey, status: result.status, ...(result.pass !== undefined ? { pass: result.pass } : {}), metrics };
}

async function sidesOf(run: RunData): Promise<Map<string, PairSide>> {
  const sides = new Map<string, PairSide>();
  for await (const { evalCase, result } of run.entries()) {
    sides.set(caseKey(result.caseId, result.modelKey), sideOf(evalCase?.suiteId ?? '', result));
  }
  return sides;
}

/** Metrics a method marks as lower-is-better, by suite id (from the runs' suite reports, which name the method). */
function lowerIsBetterBySuite(runs: readonly RunData[]): Map<string, ReadonlySet<string>> {
  const bySuite = new Map<string, ReadonlySet<string>>();
  for (const run of runs) {
    for (const report of run.reports) bySuite.set(report.suiteId, new Set(suiteFor(report.method)?.lowerIsBetter ?? []));
  }
  return bySuite;
}

/** Compares two runs of the same eval file pair by pair (see the module comment). */
export async function comparePaired(before: RunData, after: RunData, options: CompareOptions = {}): Promise<PairedComparison> {
  const level = options.level ?? 0.05;
  const [beforeSides, afterSides] = await Promise.all([sidesOf(before), sidesOf(after)]);
  const lowerIsBetter = lowerIsBetterBySuite([before, after]);
  const tally = new PairedTally();
  const onlyAfter: string[] = [];
  for (const [key, now] of afterSides) {
    const then = beforeSides.get(key);
    if (then) tally.add(then, now);
    else onlyAfter.push(`${now.caseId} (${now.modelKey})`);
  }
  const onlyBefore = [...beforeSides].filter(([key]) => !afterSides.has(key)).map(([, side]) => `${side.caseId} (${side.modelKey})`);
  const { rows, brokenCases } = tally.finish(level, (suiteId, metric) => lowerIsBetter.get(suiteId)?.has(metric) ?? false);
  return { level, rows, onlyBefore, onlyAfter, brokenCases };
}

/** The case verdicts in one line per suite and model ("noise on openai:gpt-4o: better (p = 0.002, n = 30)"), of `suiteIds` when given. */
export function caseVerdictLines(comparison: PairedComparison, suiteIds?: readonly string[]): string[] {
  return comparison.rows
    .filter((row) => row.metric === OUTCOME_METRIC && (!suiteIds || suiteIds.includes(row.suiteId)))
    .map((row) => `${row.suiteId} on ${row.modelKey}: ${row.sentence}`);
}
