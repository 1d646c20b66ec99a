// Number, duration and cost formatting shared by the views (pure, no DOM).

/** Integers as they are, other numbers to at most three decimals; NaN and infinities spelled out. */
export function formatNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return String(Math.round(value * 1000) / 1000);
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
}

/** Cost in US dollars with enough digits for cheap calls ($0.00012). */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.01) return `$${usd.toPrecision(2)}`;
  return `$${usd.toFixed(2)}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}

/** The last part of a path, either separator. */
export function basename(file: string): string {
  return file.split(/[\\/]/).pop() ?? file;
}
