// How a table value, an interval bound or a proportion is written, the one way every surface uses (CLI tables,
// the inspector's and the HTML report's tables): whole numbers as they are, others to three decimals.

/** 0 and 1 exactly (Wilson bounds at 0/n and n/n are exact) print as "0" and "1"; 0.5 as "0.500". */
export function formatCellNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '∞' : '−∞';
  return Number.isInteger(value) ? String(value) : value.toFixed(3);
}
