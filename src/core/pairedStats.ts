// Paired statistics for "did the change help?": the same cases run twice (two templates, two models, before and after
// a fix) are paired data, so the question is answered on the pairs that disagree, not on two independent pass rates.
//
// - Verdicts (pass / fail): the exact McNemar test (a two-sided binomial test on the discordant pairs) and Newcombe's
//   interval for a difference of paired proportions (Newcombe 1998, "Improved confidence intervals for the difference
//   between binomial proportions based on paired data", Statistics in Medicine 17:2635, method 10: the hybrid score
//   interval built from the two Wilson intervals and the phi correlation, without continuity correction).
// - Continuous scores: a seeded paired bootstrap percentile interval of the mean difference.
import { mulberry32 } from './random.js';
import { wilson } from './stats.js';

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

/** The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  const poly = (coefficients: number[], x: number) => coefficients.reduce((sum, k) => sum * x + k, 0);
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return poly(c, q) / (poly(d, q) * q + 1);
  }
  if (p > 1 - low) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (poly(a, r) * q) / (poly(b, r) * r + 1);
}

export interface DifferenceInterval {
  /** after − before, as a share of the pairs (for verdicts: the change in pass rate). */
  difference: number;
  low: number;
  high: number;
}

/**
 * Newcombe's method 10 interval for the change in pass rate from `before` to `after` over n pairs, at confidence
 * 1 − `level`. Stays inside [−1, 1] and behaves at 0 and n discordant pairs, where the Wald interval collapses.
 */
export function newcombePaired(counts: PairedCounts, level = 0.05): DifferenceInterval | undefined {
  const { bothPass: a, broken: b, fixed: c, bothFail: d } = counts;
  const n = a + b + c + d;
  if (n === 0) return undefined;
  const z = normalQuantile(1 - level / 2);
  const before = wilson(a + b, n, z);
  const after = wilson(a + c, n, z);
  const pBefore = (a + b) / n;
  const pAfter = (a + c) / n;
  const denominator = Math.sqrt((a + b) * (c + d) * (a + c) * (b + d));
  const phi = denominator === 0 ? 0 : (a * d - b * c) / denominator;
  const difference = pAfter - pBefore;
  // Newcombe writes θ = p1 − p2; here p1 is the after rate, so his (l1, u1) are `after`'s bounds.
  const lowerGap = Math.sqrt(Math.max(0, (pAfter - after.low) ** 2 - 2 * phi * (pAfter - after.low) * (before.high - pBefore) + (before.high - pBefore) ** 2));
  const upperGap = Math.sqrt(Math.max(0, (pBefore - before.low) ** 2 - 2 * phi * (pBefore - before.low) * (after.high - pAfter) + (after.high - pAfter) ** 2));
  return { difference, low: Math.max(-1, difference - lowerGap), high: Math.min(1, difference + upperGap) };
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
