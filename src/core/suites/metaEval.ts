// Meta-evaluation shared by the judge-based methods (RAGAS, LLM-Eval): how well a metric agrees with human scores.
import type { ReportCase, ReportResult } from './reportView.js';
import { NumberColumn } from './aggregator.js';
import type { ReportCell, ReportTable } from './contract.js';

/** Pearson's r; null when fewer than two pairs or when either side has no variance (r is undefined there). */
export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  checkPaired(xs, ys);
  const n = xs.length;
  if (n < 2) return null;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xs[i] as number) - meanX;
    const dy = (ys[i] as number) - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  // Rounding can push |r| a hair past 1 for perfectly linear data.
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Ranks from 1, ties sharing the mean of the ranks they span (what scipy.stats.spearmanr uses). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks: number[] = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && (order[end + 1] as { value: number }).value === (order[start] as { value: number }).value) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[(order[k] as { index: number }).index] = rank;
    start = end + 1;
  }
  return ranks;
}

/** Spearman's ρ: Pearson's r of the average ranks, so ties are handled as scipy does. */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  checkPaired(xs, ys);
  return pearson(averageRanks(xs), averageRanks(ys));
}

function checkPaired(xs: readonly number[], ys: readonly number[]): void {
  if (xs.length !== ys.length) throw new RangeError(`paired samples differ in length: ${xs.length} and ${ys.length}`);
}

/**
 * Human scores of a dataset row: `human_scores: { faithfulness: 0.8 }` or columns `human_<name>`. Only finite
 * numbers are kept (a CSV cell may hold a numeric string); anything else is reported as a bad key.
 */
export function readHumanScores(data: Record<string, unknown>): { scores: Record<string, number>; problems: { field: string; message: string }[] } {
  const scores: Record<string, number> = {};
  const problems: { field: string; message: string }[] = [];
  const take = (name: string, value: unknown, field: string) => {
    if (value === undefined || value === null || value === '') return;
    const number = typeof value === 'string' ? Number(value.trim()) : value;
    if (typeof number === 'number' && Number.isFinite(number)) scores[name] = number;
    else problems.push({ field, message: `expected a number, got ${JSON.stringify(value)}` });
  };
  const nested = data.human_scores;
  if (nested !== undefined && nested !== null) {
    if (typeof nested !== 'object' || Array.isArray(nested)) problems.push({ field: 'human_scores', message: `expected a mapping of metric to number, got ${JSON.stringify(nested)}` });
    else for (const [name, value] of Object.entries(nested as Record<string, unknown>)) take(name, value, `human_scores.${name}`);
  }
  for (const [field, value] of Object.entries(data)) {
    if (field.startsWith('human_') && field !== 'human_scores') take(field.slice('human_'.length), value, field);
  }
  return { scores, problems };
}

/**
 * Paired (metric value, human score) per metric and model, over cases where both are determined: collected one result
 * at a time, two numbers per pair (what Pearson and Spearman need), in the order the results come.
 */
export class AgreementPairs {
  private readonly pairs = new Map<string, { xs: NumberColumn; ys: NumberColumn }>();

  /** The case's human scores (from its row, in the report view) against the result's scores of the same names. */
  add(evalCase: ReportCase, result: ReportResult): void {
    if (result.status !== 'success' || !evalCase.humanScores) return;
    for (const [metric, human] of Object.entries(evalCase.humanScores)) {
      const value = result.scores.find((s) => s.metric === metric)?.value;
      if (typeof value !== 'number' || Number.isNaN(value)) continue;
      const key = `${metric}\u0000${result.modelKey}`;
      let pair = this.pairs.get(key);
      if (!pair) {
        pair = { xs: new NumberColumn(), ys: new NumberColumn() };
        this.pairs.set(key, pair);
      }
      pair.xs.push(value);
      pair.ys.push(human);
    }
  }

  of(metric: string, model: string): { xs: number[]; ys: number[] } {
    const pair = this.pairs.get(`${metric}\u0000${model}`);
    return { xs: pair?.xs.toArray() ?? [], ys: pair?.ys.toArray() ?? [] };
  }
}

export interface AgreementInput {
  /** Metric names to correlate, in table order. */
  metrics: readonly string[];
  models: readonly string[];
  pairs: AgreementPairs;
}

/**
 * The LLM-Eval paper's validation table: Pearson and Spearman per metric against human scores, one column per
 * model, each cell with the number of pairs. Undefined when no case carries a human score for any listed metric.
 */
export function agreementTable(id: string, title: string, input: AgreementInput): ReportTable | undefined {
  const rows: ReportTable['rows'] = [];
  for (const metric of input.metrics) {
    const pairs = input.models.map((model) => input.pairs.of(metric, model));
    if (pairs.every((p) => p.xs.length === 0)) continue;
    const cell = (value: number | null, n: number): ReportCell => ({ value, n });
    rows.push({ label: `${metric} · Pearson r`, cells: pairs.map((p) => cell(pearson(p.xs, p.ys), p.xs.length)) });
    rows.push({ label: `${metric} · Spearman ρ`, cells: pairs.map((p) => cell(spearman(p.xs, p.ys), p.xs.length)) });
  }
  if (rows.length === 0) return undefined;
  return {
    id,
    title,
    columns: [...input.models],
    rows,
    notes: ['n = cases with both a determined score and a human score. Empty when fewer than two pairs or when either side never varies.'],
  };
}
