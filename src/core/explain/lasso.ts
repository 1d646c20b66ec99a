// LASSO by coordinate descent, written plainly: the sparse linear surrogate from "which sources were present" (0/1)
// to an outcome. Sparse because usually one or two documents decide an answer; the penalty drives the others to 0.

export interface LassoFit {
  intercept: number;
  weights: number[];
  /** Coefficient of determination on the training rows (0 when the outcome never varies). */
  r2: number;
  predictions: number[];
  iterations: number;
}

/**
 * Minimises (1/2n)·Σ(y − b − x·w)² + λ·Σ|w| over w, with b the intercept. Columns are centred (so b is the mean
 * outcome) but not scaled: every feature is 0/1 with about the same spread, and unscaled weights read directly as
 * "how much the pass rate moves when this source is present".
 */
export function fitLasso(rows: readonly (readonly number[])[], y: readonly number[], lambda: number, maxIterations = 1000, tolerance = 1e-7): LassoFit {
  const n = rows.length;
  const p = n === 0 ? 0 : (rows[0] as readonly number[]).length;
  const weights = new Array<number>(p).fill(0);
  if (n === 0) return { intercept: 0, weights, r2: 0, predictions: [], iterations: 0 };
  const yMean = mean(y);
  const xMeans = Array.from({ length: p }, (_, j) => mean(rows.map((r) => r[j] as number)));
  const x = rows.map((r) => r.map((v, j) => v - (xMeans[j] as number)));
  const residual = y.map((v) => v - yMean);
  const norms = Array.from({ length: p }, (_, j) => x.reduce((s, r) => s + (r[j] as number) ** 2, 0) / n);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    let largest = 0;
    for (let j = 0; j < p; j++) {
      const norm = norms[j] as number;
      // A source present in every subset (or in none) says nothing: its weight stays 0.
      if (norm === 0) continue;
      const old = weights[j] as number;
      let rho = 0;
      for (let i = 0; i < n; i++) rho += ((x[i] as number[])[j] as number) * ((residual[i] as number) + ((x[i] as number[])[j] as number) * old);
      rho /= n;
      const updated = softThreshold(rho, lambda) / norm;
      if (updated !== old) {
        for (let i = 0; i < n; i++) residual[i] = (residual[i] as number) - ((x[i] as number[])[j] as number) * (updated - old);
        weights[j] = updated;
        largest = Math.max(largest, Math.abs(updated - old));
      }
    }
    if (largest < tolerance) break;
  }
  const intercept = yMean - weights.reduce((s, w, j) => s + w * (xMeans[j] as number), 0);
  const predictions = rows.map((r) => r.reduce((s, v, j) => s + v * (weights[j] as number), intercept));
  const total = y.reduce((s, v) => s + (v - yMean) ** 2, 0);
  const unexplained = y.reduce((s, v, i) => s + (v - (predictions[i] as number)) ** 2, 0);
  return { intercept, weights, r2: total === 0 ? 0 : 1 - unexplained / total, predictions, iterations };
}

function softThreshold(value: number, lambda: number): number {
  if (value > lambda) return value - lambda;
  if (value < -lambda) return value + lambda;
  return 0;
}

function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((s, v) => s + v, 0) / values.length;
}
