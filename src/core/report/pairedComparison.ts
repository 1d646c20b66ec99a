// Two runs of the same cases, compared pair by pair: per suite, model and metric, how many cases the change fixed and
// broke, the change with its paired interval, the exact McNemar p-value, and one word for it — better, worse, or no
// detectable change at this size. Cases present in one run only are listed apart, never paired.
import { caseKey, outcomeOf } from '../model.js';
import type { CaseResult } from '../model.js';
import { detectableChange, mcnemarExact, newcombePaired, pairedBootstrap } from '../pairedStats.js';
import type { PairedCounts } from '../pairedStats.js';
import { fnv1a } from '../random.js';
import { suiteFor } from '../suites/registry.js';
import type { RunData } from './runData.js';

/** The row of each suite and model that compares the cases' overall verdicts (what a CI gate looks at). */
export const OUTCOME_METRIC = 'case verdict';

export type PairedVerdict = 'better' | 'worse' | 'no-change';

export interface PairedRow {
  suiteId: string;
  modelKey: string;
  /** `OUTCOME_METRIC` for the cases' overall verdicts, else a score's metric. */
  metric: string;
  /** Verdict metrics are compared on pass / fail (McNemar); continuous ones on their values (paired bootstrap). */
  kind: 'verdict' | 'continuous';
  /** Pairs with a determined value on both sides. */
  n: number;
  /** Pairs left out because either side errored or had no verdict / value (counted, never paired as a fail). */
  undetermined: number;
  /** Verdicts: fail → pass. Continuous: the after value is higher (or lower, for a metric where lower is better). */
  fixed: number;
  /** Verdicts: pass → fail. Continuous: the change went the wrong way. */
  broken: number;
  unchanged: number;
  /** after − before: the change in pass rate, or the mean change of the value. */
  difference: number | null;
  low: number | null;
  high: number | null;
  /** The exact McNemar p-value (verdicts only). */
  pValue?: number;
  /** The smallest change in pass rate this many pairs could show as significant (verdicts only). */
  detectable?: number;
  /** For continuous metrics, true when a lower value is the better one (the method says so). */
  lowerIsBetter?: boolean;
  verdict: PairedVerdict;
  /** The verdict in a sentence, e.g. "better (p = 0.012)". */
  sentence: string;
}

export interface PairedComparison {
  /** The significance level the verdicts are taken at. */
  level: number;
  rows: PairedRow[];
  /** (case, model) keys present in only one of the runs, as "caseId (model)". */
  onlyBefore: string[];
  onlyAfter: string[];
  /** Keys of the cases whose overall verdict went from pass to fail, per suite and model, for a report to name. */
  brokenCases: { suiteId: string; modelKey: string; caseId: string }[];
}

export interface CompareOptions {
  /** Significance level, 0.05 by default. */
  level?: number;
}

/** What one (case, model) contributes: its suite, overall outcome and each metric's verdict or value. */
interface PairSide {
  suiteId: string;
  caseId: string;
  modelKey: string;
  outcome: ReturnType<typeof outcomeOf>;
  metrics: Map<string, { pass?: boolean; value: number | null }>;
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
  return { suiteId, caseId: result.caseId, modelKey: result.modelKey, outcome: outcomeOf(result), metrics };
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
    for (const report of run.reports) {
      bySuite.set(report.suiteId, new Set(suiteFor(report.method)?.lowerIsBetter ?? []));
    }
  }
  return bySuite;
}

interface Tally {
  suiteId: string;
  modelKey: string;
  metric: string;
  counts: PairedCounts;
  undetermined: number;
  /** Continuous metrics: after − before of each pair, and the pairs without a value on both sides. */
  differences: number[];
  missingValues: number;
  /** True once any score of the metric carried a verdict. */
  hasVerdicts: boolean;
}

/** Compares two runs of the same eval file pair by pair (see the module comment). */
export async function comparePaired(before: RunData, after: RunData, options: CompareOptions = {}): Promise<PairedComparison> {
  const level = options.level ?? 0.05;
  const [beforeSides, afterSides] = await Promise.all([sidesOf(before), sidesOf(after)]);
  const lowerIsBetter = lowerIsBetterBySuite([before, after]);
  const tallies = new Map<string, Tally>();
  const tallyOf = (side: PairSide, metric: string): Tally => {
    const id = `${side.suiteId}\u0000${side.modelKey}\u0000${metric}`;
    let tally = tallies.get(id);
    if (!tally) {
      tally = { suiteId: side.suiteId, modelKey: side.modelKey, metric, counts: { bothPass: 0, broken: 0, fixed: 0, bothFail: 0 }, undetermined: 0, differences: [], missingValues: 0, hasVerdicts: false };
      tallies.set(id, tally);
    }
    return tally;
  };
  const brokenCases: PairedComparison['brokenCases'] = [];
  const onlyAfter: string[] = [];
  for (const [key, now] of afterSides) {
    const then = beforeSides.get(key);
    if (!then) {
      onlyAfter.push(`${now.caseId} (${now.modelKey})`);
      continue;
    }
    const outcome = tallyOf(now, OUTCOME_METRIC);
    outcome.hasVerdicts = true;
    addVerdictPair(outcome, verdictOf(then.outcome), verdictOf(now.outcome));
    if (then.outcome === 'pass' && now.outcome === 'fail') brokenCases.push({ suiteId: now.suiteId, modelKey: now.modelKey, caseId: now.caseId });
    for (const metric of new Set([...then.metrics.keys(), ...now.metrics.keys()])) {
      const tally = tallyOf(now, metric);
      const a = then.metrics.get(metric);
      const b = now.metrics.get(metric);
      if (a?.pass !== undefined || b?.pass !== undefined) tally.hasVerdicts = true;
      addVerdictPair(tally, a?.pass, b?.pass);
      if (a?.value != null && b?.value != null) tally.differences.push(b.value - a.value);
      else tally.missingValues += 1;
    }
  }
  const onlyBefore = [...beforeSides].filter(([key]) => !afterSides.has(key)).map(([, side]) => `${side.caseId} (${side.modelKey})`);
  const rows = [...tallies.values()].map((tally) => rowOf(tally, level, lowerIsBetter.get(tally.suiteId)?.has(tally.metric) ?? false));
  rows.sort((x, y) => x.suiteId.localeCompare(y.suiteId) || x.modelKey.localeCompare(y.modelKey) || Number(y.metric === OUTCOME_METRIC) - Number(x.metric === OUTCOME_METRIC) || x.metric.localeCompare(y.metric));
  return { level, rows, onlyBefore, onlyAfter, brokenCases };
}

function verdictOf(outcome: PairSide['outcome']): boolean | undefined {
  return outcome === 'pass' ? true : outcome === 'fail' ? false : undefined;
}

function addVerdictPair(tally: Tally, then: boolean | undefined, now: boolean | undefined): void {
  if (then === undefined || now === undefined) {
    tally.undetermined += 1;
    return;
  }
  if (then && now) tally.counts.bothPass += 1;
  else if (then) tally.counts.broken += 1;
  else if (now) tally.counts.fixed += 1;
  else tally.counts.bothFail += 1;
}

function rowOf(tally: Tally, level: number, lowerIsBetter: boolean): PairedRow {
  const base = { suiteId: tally.suiteId, modelKey: tally.modelKey, metric: tally.metric };
  if (tally.hasVerdicts) {
    const { bothPass, broken, fixed, bothFail } = tally.counts;
    const n = bothPass + broken + fixed + bothFail;
    const interval = newcombePaired(tally.counts, level);
    const pValue = mcnemarExact(broken, fixed);
    const detectable = detectableChange(n, broken + fixed, level);
    const verdict: PairedVerdict = pValue <= level && fixed !== broken ? (fixed > broken ? 'better' : 'worse') : 'no-change';
    return {
      ...base, kind: 'verdict', n, undetermined: tally.undetermined, fixed, broken, unchanged: bothPass + bothFail,
      difference: interval?.difference ?? null, low: interval?.low ?? null, high: interval?.high ?? null,
      pValue, ...(detectable !== undefined ? { detectable } : {}), verdict,
      sentence: verdictSentence(verdict, n, pValue, detectable),
    };
  }
  const differences = tally.differences;
  const sign = lowerIsBetter ? -1 : 1;
  const fixed = differences.filter((d) => sign * d > 0).length;
  const broken = differences.filter((d) => sign * d < 0).length;
  // The seed is the row's own name, so the same two runs always give the same interval.
  const interval = pairedBootstrap(differences, fnv1a(`${tally.suiteId}\u0000${tally.modelKey}\u0000${tally.metric}`), level);
  const improved = interval !== undefined && sign * interval.low > 0 && sign * interval.high > 0;
  const worsened = interval !== undefined && sign * interval.low < 0 && sign * interval.high < 0;
  const verdict: PairedVerdict = improved ? 'better' : worsened ? 'worse' : 'no-change';
  const n = differences.length;
  return {
    ...base, kind: 'continuous', n, undetermined: tally.missingValues, fixed, broken, unchanged: n - fixed - broken,
    difference: interval?.difference ?? null, low: interval?.low ?? null, high: interval?.high ?? null,
    ...(lowerIsBetter ? { lowerIsBetter } : {}), verdict,
    sentence: continuousSentence(verdict, n, interval, level),
  };
}

function formatP(p: number): string {
  return p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(3)}`;
}

function percent(x: number): string {
  return `${(x * 100).toFixed(1)} points`;
}

function verdictSentence(verdict: PairedVerdict, n: number, pValue: number, detectable: number | undefined): string {
  if (verdict !== 'no-change') return `${verdict} (${formatP(pValue)}, n = ${n})`;
  if (detectable === undefined) return `no detectable change at this size (n = ${n}: too few pairs for any change to be significant)`;
  return `no detectable change at this size (n = ${n}; a change of ±${percent(detectable)} in pass rate would be detectable)`;
}

function continuousSentence(verdict: PairedVerdict, n: number, interval: { low: number; high: number } | undefined, level: number): string {
  if (!interval) return 'no pairs with a value on both sides';
  const confidence = `${Math.round((1 - level) * 100)}%`;
  const range = `[${interval.low.toFixed(3)}, ${interval.high.toFixed(3)}]`;
  if (verdict !== 'no-change') return `${verdict} (${confidence} interval of the mean change ${range}, n = ${n})`;
  return `no detectable change at this size (n = ${n}; the ${confidence} interval of the mean change is ${range})`;
}
