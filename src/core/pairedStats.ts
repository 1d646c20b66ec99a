// Paired statistics for "did the change help?": the same cases run twice (two templates, two models, before and after
// a fix) are paired data, so the question is answered on the pairs that disagree, not on two independent pass rates.
//
// - Verdicts (pass / fail): the exact McNemar test (a two-sided binomial test on the discordant pairs) and the exact
//   conditional interval for the change in pass rate that inverts the same binomial tails, so the two always agree.
// - Continuous scores: a seeded paired bootstrap percentile interval of the mean difference.
import { mulberry32 } from './random.js';

/** The four cells of a paired 2×2 table: both pass, pass → fail (broken), fail → pass (fixed), both fail. */
export interface PairedCounts {
  bothPass: number;
  broken: number;
  fixed: number;
  bothFail: number;
}

/**
 * The exact two-sided McNemar p-value: twice the smaller binomial tail of the discordant pairs under p = ½, capped at
 * 1 (the "exact" conditional test, as R's `binom.test(b, b + c)` and statsmodels' `mcnemar(exact=True)` compute it).
 * No discordant pair at all gives 1: nothing speaks for a change.
 */
export function mcnemarExact(broken: number, fixed: number): number {
  const n = broken + fixed;
  if (n === 0) return 1;
  const smaller = Math.min(broken, fixed);
  // P(X ≤ smaller) for X ~ Binomial(n, ½), summed in log space so that n in the hundred thousands neither under- nor
  // overflows: log C(n, k) grows term by term.
  const logHalfToN = -n * Math.LN2;
  let logChoose = 0;
  let tail = 0;
  for (let k = 0; k <= smaller; k++) {
    if (k > 0) logChoose += Math.log(n - k + 1) - Math.log(k);
    tail += Math.exp(logChoose + logHalfToN);
  }
  return Math.min(1, 2 * tail);
}

export interface DifferenceInterval {
  /** after − before, as a share of the pairs (for verdicts: the change in pass rate). */
  difference: number;
  low: number;
  high: number;
}

/** P(X ≤ k) for X ~ Binomial(n, p), summed in log space. */
function binomialAtMost(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  const logP = Math.log(p);
  const logQ = Math.log1p(-p);
  let logChoose = 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logChoose += Math.log(n - i + 1) - Math.log(i);
    sum += Math.exp(logChoose + i * logP + (n - i) * logQ);
  }
  return Math.min(1, sum);
}

/** The p at which `tail(p)` crosses `target`, by bisection (tail must be monotone in p). */
function solve(tail: (p: number) => number, target: number, increasing: boolean): number {
  let low = 0;
  let high = 1;
  for (let step = 0; step < 60; step++) {
    const middle = (low + high) / 2;
    if ((tail(middle) < target) === increasing) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * The interval for the change in pass rate from `before` to `after` over n pairs that agrees with the exact McNemar
 * test: the Clopper–Pearson interval of the share of fixes among the d discordant pairs, scaled to the pass rate
 * (change = d/n · (2θ − 1)), the "exact conditional" interval. It excludes 0 exactly when the exact test's p-value is
 * at most `level` (both invert the same binomial tails), so a verdict and its interval never disagree, as they can
 * with Wald or Newcombe intervals. With no discordant pair it is ±(the exact upper bound of the discordance rate).
 */
export function exactPairedInterval(counts: PairedCounts, level = 0.05): DifferenceInterval | undefined {
  const { bothPass, broken, fixed, bothFail } = counts;
  const n = bothPass + broken + fixed + bothFail;
  if (n === 0) return undefined;
  const d = broken + fixed;
  const difference = (fixed - broken) / n;
  if (d === 0) {
    const bound = 1 - (level / 2) ** (1 / n);
    return { difference, low: -bound, high: bound };
  }
  const half = level / 2;
  // Clopper–Pearson for θ = fixed / d: P(X ≥ fixed | θ_low) = α/2 and P(X ≤ fixed | θ_high) = α/2.
  const thetaLow = fixed === 0 ? 0 : solve((p) => 1 - binomialAtMost(fixed - 1, d, p), half, true);
  const thetaHigh = fixed === d ? 1 : solve((p) => binomialAtMost(fixed, d, p), half, false);
  const scale = d / n;
  return { difference, low: scale * (2 * thetaLow - 1), high: scale * (2 * thetaHigh - 1) };
}

/**
 * The smallest change in pass rate (as a share of the n pairs) the exact McNemar test would call significant at
 * `level`, had the same number of pairs disagreed: with d discordant pairs, the smallest |fixed − broken| whose p-value
 * is at most `level`. When too few pairs disagree for any split to be significant, the count is raised to the
 * fewest discordant pairs that can be (6 at 0.05, all in one direction). Undefined when n pairs cannot show any change.
 */
export function detectableChange(n: number, discordant: number, level = 0.05): number | undefined {
  let fewest = 1;
  while (fewest <= n && mcnemarExact(0, fewest) > level) fewest++;
  if (fewest > n) return undefined;
  const d = Math.max(discordant, fewest);
  for (let gap = d % 2; gap <= d; gap += 2) {
    if (mcnemarExact((d - gap) / 2, (d + gap) / 2) <= level) return gap / n;
  }
  return fewest / n;
}

export interface BootstrapInterval {
  /** Mean of after − before over the pairs. */
  difference: number;
  low: number;
  high: number;
}

/**
 * A paired bootstrap percentile interval of the mean of `differences` (each after − before of one case), at
 * confidence 1 − `level`, from `resamples` resamples of the pairs drawn with a seeded generator, so the same runs give
 * the same interval. Undefined for no pairs.
 */
export function pairedBootstrap(differences: readonly number[], seed: number, level = 0.05, resamples = 2000): BootstrapInterval | undefined {
  const n = differences.length;
  if (n === 0) return undefined;
  const mean = differences.reduce((sum, x) => sum + x, 0) / n;
  const random = mulberry32(seed);
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += differences[Math.floor(random() * n)] as number;
    means[r] = sum / n;
  }
  means.sort();
  const at = (q: number) => means[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))] as number;
  return { difference: mean, low: at(level / 2), high: at(1 - level / 2) };
}
