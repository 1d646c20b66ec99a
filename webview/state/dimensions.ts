// LLM-Eval's per-case dimension scores with their scale, for the small bar chart.
import type { Score } from '../../src/core/model.js';

export interface DimensionBar { name: string; value: number | null; judgeError?: string }
export interface DimensionChart { min: number; max: number; bars: DimensionBar[] }

const SCALES: Record<string, [number, number]> = { '0-5': [0, 5], '0-100': [0, 100] };

/** The scale comes from the scores' details; without it, 0–5 unless a value is above 5. */
export function dimensionChart(scores: readonly Score[]): DimensionChart | undefined {
  if (scores.length === 0) return undefined;
  const named = scores.map((s) => (s.details as { scale?: unknown } | undefined)?.scale).find((x): x is string => typeof x === 'string' && x in SCALES);
  const values = scores.map((s) => s.value).filter((v): v is number => typeof v === 'number');
  const [min, max] = named ? SCALES[named]! : values.some((v) => v > 5) ? [0, 100] : [0, 5];
  return {
    min, max,
    bars: scores.map((s) => ({ name: s.metric, value: typeof s.value === 'number' && Number.isFinite(s.value) ? s.value : null, ...(s.judgeError ? { judgeError: s.judgeError } : {}) })),
  };
}
