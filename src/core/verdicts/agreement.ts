// How far a judge metric agrees with the person's verdicts: accuracy (with a Wilson interval), Cohen's κ (with the
// large-sample 95% interval of Fleiss, Cohen & Everitt 1969), the 2×2 confusion matrix, and the cases that disagree.
import { wilson } from '../stats.js';
import type { Interval } from '../stats.js';

const Z95 = 1.959963984540054;

/** One case where both the judge and the person gave a verdict. */
export interface VerdictPair {
  /** The (case, model) key, so the disagreeing cases can be opened. */
  key: string;
  judge: boolean;
  human: boolean;
}

export interface Agreement {
  n: number;
  /** [judge pass & human correct, judge pass & human wrong, judge fail & human correct, judge fail & human wrong]. */
  matrix: { passCorrect: number; passWrong: number; failCorrect: number; failWrong: number };
  accuracy: Interval;
  /** null when κ is undefined: n = 0, or either rater used one label only. */
  kappa: { value: number; low: number; high: number; se: number } | null;
  disagreements: string[];
}

/**
 * Cohen's κ = (po − pe) / (1 − pe), with the large-sample variance of Fleiss, Cohen & Everitt (1969):
 * var = [Σi pii(1 − (pi. + p.i)(1 − κ))² + (1 − κ)² Σi≠j pij(p.i + pj.)² − (κ − pe(1 − κ))²] / (n(1 − pe)²).
 * The interval is κ ± 1.96·se, clipped to [−1, 1]. Rows are the judge's labels, columns the person's.
 */
export function cohensKappa(table: readonly (readonly number[])[]): Agreement['kappa'] {
  const k = table.length;
  const n = table.flat().reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const p = table.map((row) => row.map((c) => c / n));
  const rows = p.map((row) => row.reduce((a, b) => a + b, 0));
  const cols = p[0]!.map((_, j) => p.reduce((a, row) => a + row[j]!, 0));
  const po = p.reduce((a, row, i) => a + row[i]!, 0);
  const pe = rows.reduce((a, r, i) => a + r * cols[i]!, 0);
  // One rater used one label only: κ is 0 by construction whatever the other did, and its interval has no width —
  // a number that says nothing, so it is reported as undefined.
  if (rows.filter((r) => r > 0).length < 2 || cols.filter((c) => c > 0).length < 2) return null;
  const kappa = (po - pe) / (1 - pe);
  let diagonal = 0;
  let off = 0;
  for (let i = 0; i < k; i++) {
    diagonal += p[i]![i]! * (1 - (rows[i]! + cols[i]!) * (1 - kappa)) ** 2;
    for (let j = 0; j < k; j++) if (i !== j) off += p[i]![j]! * (cols[i]! + rows[j]!) ** 2;
  }
  const variance = (diagonal + (1 - kappa) ** 2 * off - (kappa - pe * (1 - kappa)) ** 2) / (n * (1 - pe) ** 2);
  const se = Math.sqrt(Math.max(0, variance));
  return { value: kappa, se, low: Math.max(-1, kappa - Z95 * se), high: Math.min(1, kappa + Z95 * se) };
}

export function agreementOf(pairs: readonly VerdictPair[]): Agreement {
  const count = (judge: boolean, human: boolean) => pairs.filter((p) => p.judge === judge && p.human === human).length;
  const matrix = { passCorrect: count(true, true), passWrong: count(true, false), failCorrect: count(false, true), failWrong: count(false, false) };
  const agree = matrix.passCorrect + matrix.failWrong;
  return {
    n: pairs.length,
    matrix,
    accuracy: wilson(agree, pairs.length),
    kappa: cohensKappa([[matrix.passCorrect, matrix.passWrong], [matrix.failCorrect, matrix.failWrong]]),
    disagreements: pairs.filter((p) => p.judge !== p.human).map((p) => p.key),
  };
}
