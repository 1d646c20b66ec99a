// The paired verdict's rows, from pairs of sides (a case on one model in two runs): pure, so the CLI (from run logs),
// the reports and the inspector (from its case lists) count and word them the same way.
import { caseKey, outcomeOf } from '../model.js';
import type { Outcome } from '../model.js';
import { detectableChange, exactPairedInterval, mcnemarExact, pairedBootstrap } from '../pairedStats.js';
import type { PairedCounts } from '../pairedStats.js';
import { fnv1a } from '../random.js';

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
  /** Verdicts: fail → pass. Continuous: the value moved the better way (down, for a metric where lower is better). */
  fixed: number;
  /** Verdicts: pass → fail. Continuous: the value moved the worse way. */
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
  /** The verdict in a sentence, e.g. "better (p = 0.012, n = 120)". */
  sentence: string;
}

/** One (case, model) of one run as the comparison sees it: its suite, overall outcome and, where known, each metric. */
export interface PairSide {
  suiteId: string;
  caseId: string;
  modelKey: string;
  status: 'success' | 'error';
  pass?: boolean;
  metrics?: ReadonlyMap<string, { pass?: boolean; value: number | null }>;
}

export interface PairedRows {
  rows: PairedRow[];
  /** Cases whose overall verdict went from pass to fail, for a report to name. */
  brokenCases: { suiteId: string; modelKey: string; caseId: string }[];
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

/**
 * Counts pairs as they are added and words the rows at the end. `lowerIsBetter(suiteId, metric)` says which
 * continuous metrics improve downwards.
 */
export class PairedTally {
  private readonly tallies = new Map<string, Tally>();
  private readonly broken: PairedRows['brokenCases'] = [];

  add(then: PairSide, now: PairSide): void {
    const thenOutcome = outcomeOf(then);
    const nowOutcome = outcomeOf(now);
    const outcome = this.tallyOf(now, OUTCOME_METRIC);
    outcome.hasVerdicts = true;
    addVerdictPair(outcome, verdictOf(thenOutcome), verdictOf(nowOutcome));
    if (thenOutcome === 'pass' && nowOutcome === 'fail') this.broken.push({ suiteId: now.suiteId, modelKey: now.modelKey, caseId: now.caseId });
    if (!then.metrics || !now.metrics) return;
    for (const metric of new Set([...then.metrics.keys(), ...now.metrics.keys()])) {
      const tally = this.tallyOf(now, metric);
      const a = then.metrics.get(metric);
      const b = now.metrics.get(metric);
      if (a?.pass !== undefined || b?.pass !== undefined) tally.hasVerdicts = true;
      addVerdictPair(tally, a?.pass, b?.pass);
      if (a?.value != null && b?.value != null) tally.differences.push(b.value - a.value);
      else tally.missingValues += 1;
    }
  }

  finish(level: number, lowerIsBetter: (suiteId: string, metric: string) => boolean = () => false): PairedRows {
    const rows = [...this.tallies.values()].map((tally) => rowOf(tally, level, lowerIsBetter(tally.suiteId, tally.metric)));
    rows.sort((x, y) => x.suiteId.localeCompare(y.suiteId) || x.modelKey.localeCompare(y.modelKey) || Number(y.metric === OUTCOME_METRIC) - Number(x.metric === OUTCOME_METRIC) || x.metric.localeCompare(y.metric));
    return { rows, brokenCases: this.broken };
  }

  private tallyOf(side: PairSide, metric: string): Tally {
    const id = `${side.suiteId}\u0000${side.modelKey}\u0000${metric}`;
    let tally = this.tallies.get(id);
    if (!tally) {
      tally = { suiteId: side.suiteId, modelKey: side.modelKey, metric, counts: { bothPass: 0, broken: 0, fixed: 0, bothFail: 0 }, undetermined: 0, differences: [], missingValues: 0, hasVerdicts: false };
      this.tallies.set(id, tally);
    }
    return tally;
  }
}

export interface PairedVerdicts extends PairedRows {
  /** How many (case, model) pairs only one of the runs has: listed apart, never paired. */
  onlyBefore: number;
  onlyAfter: number;
}

/** The paired verdict of two runs held as case lists (the inspector's): case verdicts per suite and model. */
export function pairedVerdicts(before: Iterable<PairSide>, after: Iterable<PairSide>, level = 0.05): PairedVerdicts {
  const earlier = new Map<string, PairSide>();
  for (const side of before) earlier.set(caseKey(side.caseId, side.modelKey), side);
  const tally = new PairedTally();
  let onlyAfter = 0;
  let paired = 0;
  for (const side of after) {
    const then = earlier.get(caseKey(side.caseId, side.modelKey));
    if (!then) { onlyAfter += 1; continue; }
    paired += 1;
    tally.add(then, side);
  }
  return { ...tally.finish(level), onlyBefore: earlier.size - paired, onlyAfter };
}

function verdictOf(outcome: Outcome): boolean | undefined {
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
    const interval = exactPairedInterval(tally.counts, level);
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
