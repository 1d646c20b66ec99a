// The counts RGB's tables are made of (and stress's, which reuses them), kept per (model, scope, metric) and filled one
// result at a time: a report over a million cases holds a few hundred counters, not the cases.
import type { ReportResult, ReportScore } from '../reportView.js';
import { NEITHER_VERDICT } from './judge.js';

/** A proportion over results: hits / determined, with model errors and judge errors kept apart. */
export interface Tally {
  hits: number;
  n: number;
  undetermined: number;
  /** Whether any result carried the metric at all (false: e.g. no judge configured). */
  present: boolean;
  /** Judge answers that matched neither verdict (judge.ts, NEITHER_VERDICT), counted in n as the reference counts them. */
  unmatched?: number;
}

export function emptyTally(): Tally {
  return { hits: 0, n: 0, undetermined: 0, present: false };
}

export function scoreOf(result: ReportResult, metric: string): ReportScore | undefined {
  return result.scores.find((score) => score.metric === metric);
}

/** One result into a metric's tally: an error is undetermined, a null score undetermined, a 1 a hit. */
export function countInto(tally: Tally, result: ReportResult, metric: string): void {
  if (result.status !== 'success') {
    tally.undetermined++;
    return;
  }
  const score = scoreOf(result, metric);
  if (!score) return;
  tally.present = true;
  if (score.value === null) tally.undetermined++;
  else {
    tally.n++;
    if (score.value === 1) tally.hits++;
    if (score.label === NEITHER_VERDICT) tally.unmatched = (tally.unmatched ?? 0) + 1;
  }
}

/**
 * A CR-style rate: among results flagged by `flag`, how many `good` accepts. Its undetermined and present come from
 * the flag's own tally (RGB evalue.py: `correct_tt / fact_tt if fact_tt > 0 else 0`).
 */
export interface Conditional {
  flag: string;
  good: (result: ReportResult) => boolean;
}

interface Counts {
  tallies: Map<string, Tally>;
  flagged: Map<string, { hits: number; n: number }>;
}

/** Tallies per (model, scope) for a fixed list of metrics and conditional rates; scopes are the caller's names. */
export class TallyBook {
  private readonly counts = new Map<string, Counts>();

  constructor(private readonly metrics: readonly string[], private readonly conditionals: readonly Conditional[] = []) {}

  add(modelKey: string, scopes: readonly string[], result: ReportResult): void {
    for (const scope of scopes) {
      const key = `${modelKey}\u0000${scope}`;
      let counts = this.counts.get(key);
      if (!counts) {
        counts = { tallies: new Map(this.metrics.map((m) => [m, emptyTally()])), flagged: new Map(this.conditionals.map((c) => [c.flag, { hits: 0, n: 0 }])) };
        this.counts.set(key, counts);
      }
      for (const metric of this.metrics) countInto(counts.tallies.get(metric)!, result, metric);
      if (result.status !== 'success') continue;
      for (const conditional of this.conditionals) {
        if (scoreOf(result, conditional.flag)?.value !== 1) continue;
        const flagged = counts.flagged.get(conditional.flag)!;
        flagged.n++;
        if (conditional.good(result)) flagged.hits++;
      }
    }
  }

  /** The tally of `metric` over the model's results in `scope` (empty when there were none). */
  tally(modelKey: string, scope: string, metric: string): Tally {
    const tally = this.counts.get(`${modelKey}\u0000${scope}`)?.tallies.get(metric);
    return tally ? { ...tally } : emptyTally();
  }

  /** The conditional rate keyed by its flag, with the flag's undetermined and present. */
  conditional(modelKey: string, scope: string, flag: string): Tally {
    const flagged = this.counts.get(`${modelKey}\u0000${scope}`)?.flagged.get(flag) ?? { hits: 0, n: 0 };
    const flagTally = this.tally(modelKey, scope, flag);
    return { hits: flagged.hits, n: flagged.n, undetermined: flagTally.undetermined, present: flagTally.present };
  }
}
