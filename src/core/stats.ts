// Small statistics every report uses: proportions with Wilson intervals, means that keep NaN apart.

export interface Interval {
  value: number | null;
  low: number;
  high: number;
  n: number;
}

const Z95 = 1.959963984540054;

/**
 * Wilson score interval for a proportion (95% by default). Chosen over the normal approximation because it
 * stays inside [0, 1] and behaves at 0/n and n/n, which small eval sets hit all the time.
 */
export function wilson(successes: number, n: number, z = Z95): Interval {
  if (n === 0) return { value: null, low: 0, high: 1, n };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  // At 0/n the lower bound is 0 and at n/n the upper bound is 1, exactly: the formula leaves 5.55e-17 there.
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return { value: p, low, high, n };
}

export interface MeanSummary {
  /** Mean of the determined values; null when none. */
  value: number | null;
  low: number | null;
  high: number | null;
  /** Values that were determined (not null / NaN). */
  n: number;
  /** Values that were null or NaN: shown as "k undetermined", never averaged in as 0. */
  undetermined: number;
}

/** Mean with a normal-approximation 95% interval over the determined values; NaN and null are counted apart. */
export function meanWithInterval(values: readonly (number | null | undefined)[], z = Z95): MeanSummary {
  const determined = values.filter((v): v is number => typeof v === 'number' && !Number.isNaN(v));
  const undetermined = values.length - determined.length;
  const n = determined.length;
  if (n === 0) return { value: null, low: null, high: null, n, undetermined };
  const mean = determined.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { value: mean, low: null, high: null, n, undetermined };
  const variance = determined.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1);
  const half = z * Math.sqrt(variance / n);
  return { value: mean, low: mean - half, high: mean + half, n, undetermined };
}
