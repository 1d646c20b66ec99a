// judgeSamples: k — a case is scored k times, each time with its own judge sample, and each metric's headline is the
// reference aggregation of the k scores: the majority verdict for verdicts, the mean for scales. The spread is kept
// on the score, so unstable cases can be flagged and counted.
import type { Score, ScoreSamples } from '../model.js';

export interface JudgeSampling {
  /** Scorings per case (1 = the ordinary single judge call). */
  k: number;
  /** Temperature of samples 2..k when the method does not set its own (sample 1 is the method's own call). */
  temperature: number;
}

/** Self-consistency needs the samples to be able to differ; 0.7 is the usual sampling temperature for it. */
export const DEFAULT_SAMPLE_TEMPERATURE = 0.7;

/** A verdict metric gives a pass and only the values 0 and 1; anything else with a value is a scale. */
function isVerdict(scores: readonly Score[]): boolean {
  const determined = scores.filter((s) => s.judgeError === undefined && s.value !== null);
  return determined.some((s) => s.pass !== undefined) && determined.every((s) => s.value === 0 || s.value === 1);
}

function spreadOf(values: readonly number[]): { spread: number | null; stdev: number | null } {
  if (values.length === 0) return { spread: null, stdev: null };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length;
  return { spread: Math.max(...values) - Math.min(...values), stdev: Math.sqrt(variance) };
}

function noMajority(first: Score, k: number, summary: ScoreSamples, what: string): Score {
  return {
    metric: first.metric,
    value: null,
    label: 'no-majority',
    judgeError: `the ${k} judge samples split evenly (${what}); no majority`,
    explanation: `Not counted either way: the ${k} judge samples split evenly (${what}).`,
    samples: summary,
  };
}

/** Majority of `passes` among the determined; undefined on a tie. */
function majority(passes: readonly boolean[]): boolean | undefined {
  const yes = passes.filter(Boolean).length;
  const no = passes.length - yes;
  return yes === no ? undefined : yes > no;
}

/** One metric's k sample scores (in sample order) → its headline score. */
export function aggregateMetric(scores: readonly Score[]): Score {
  const k = scores.length;
  const first = scores[0]!;
  const determined = scores.filter((s) => s.judgeError === undefined && s.value !== null);
  const values = scores.map((s) => (s.judgeError === undefined ? s.value : null));
  const hasPass = scores.some((s) => s.pass !== undefined);
  const passes = hasPass ? scores.map((s) => (s.judgeError === undefined && s.value !== null && s.pass !== undefined ? s.pass : null)) : undefined;
  const numbers = determined.map((s) => s.value as number);
  const verdict = isVerdict(scores);
  const distinct = new Set(values.map((v) => (v === null ? 'null' : String(v))));
  const summary: ScoreSamples = {
    k, values, ...(passes ? { passes } : {}), aggregation: verdict ? 'majority' : 'mean', ...spreadOf(numbers),
    undetermined: k - determined.length, unstable: distinct.size > 1 || (passes !== undefined && new Set(passes).size > 1),
  };
  // Every sample undetermined: the first one's judge error stands (undetermined, never a 0).
  if (determined.length === 0) return { ...first, samples: summary };
  const determinedPasses = determined.filter((s) => s.pass !== undefined).map((s) => s.pass as boolean);
  if (verdict) {
    const winner = majority(determinedPasses);
    if (winner === undefined) return noMajority(first, k, summary, `${determinedPasses.filter(Boolean).length} pass, ${determinedPasses.filter((p) => !p).length} fail`);
    const representative = determined.find((s) => s.pass === winner)!;
    return { ...representative, samples: summary };
  }
  const mean = numbers.reduce((a, b) => a + b, 0) / numbers.length;
  const representative = determined[0]!;
  const scored: Score = { ...representative, value: mean, samples: summary };
  if (determinedPasses.length > 0) {
    // A scale that also gives a verdict (the needle's 1–10 with a pass at 7): the verdict is the samples' majority.
    const winner = majority(determinedPasses);
    if (winner === undefined) return noMajority(first, k, summary, `${determinedPasses.filter(Boolean).length} pass, ${determinedPasses.filter((p) => !p).length} fail`);
    scored.pass = winner;
  }
  return scored;
}

/**
 * The k scorings of one case → one list, in the first sample's metric order. A metric missing from some sample
 * (a method that scores conditionally) is aggregated over the samples that have it.
 */
export function aggregateSamples(samples: readonly (readonly Score[])[]): Score[] {
  const first = samples[0] ?? [];
  return first.map((score) => aggregateMetric(samples.map((list) => list.find((s) => s.metric === score.metric)).filter((s): s is Score => s !== undefined)));
}
