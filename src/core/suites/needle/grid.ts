// The test grid: context lengths and needle depths computed the way the reference does with numpy.

/** numpy's rounding (np.round / np.rint): halves go to the even neighbour, so 12.5 → 12 and 62.5 → 62. */
export function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (diff < 0.5) return floor;
  if (diff > 0.5) return floor + 1;
  return floor % 2 === 0 ? floor : floor + 1;
}

/** np.round(x, decimals): scale, round half to even, scale back (the same float steps numpy takes). */
export function roundTo(x: number, decimals: number): number {
  const scale = 10 ** decimals;
  return roundHalfEven(x * scale) / scale;
}

/**
 * np.linspace(start, stop, num) with endpoint=True: `i * step + start`, the last value set to `stop`. The
 * float steps match numpy's, which matters because rounding decides ties like 12.5 on the exact double.
 */
export function linspace(start: number, stop: number, num: number): number[] {
  if (num <= 0) return [];
  if (num === 1) return [start];
  const step = (stop - start) / (num - 1);
  const values = Array.from({ length: num }, (_, i) => i * step + start);
  values[num - 1] = stop;
  return values;
}

/** Reference: `np.round(np.linspace(min, max, n)).astype(int)` — context lengths and linear depths alike. */
export function roundedLinspace(start: number, stop: number, num: number): number[] {
  return linspace(start, stop, num).map(roundHalfEven);
}

/**
 * The reference's `logistic(x)`: 0 and 100 stay, the rest map through `round(100 * sigmoid(-0.1 * (x - 50)), 3)`.
 * Decreasing in x (25 → 92.414); the Arize fork's increasing form gives the same set on a symmetric grid.
 */
export function logisticDepth(x: number): number {
  if (x === 0 || x === 100) return x;
  const z = -0.1 * (x - 50);
  return roundTo(100 * (1 / (1 + Math.exp(-z))), 3);
}

export type DepthDistribution = 'linear' | 'sigmoid';

/** Depth percents: linear like the lengths (rounded, integers), or sigmoid over the unrounded linspace. */
export function depthPercents(min: number, max: number, intervals: number, distribution: DepthDistribution): number[] {
  if (distribution === 'linear') return roundedLinspace(min, max, intervals);
  return linspace(min, max, intervals).map(logisticDepth);
}
