// How many distractors a row's cases use: per noise ratio (shortRows), and for the row as a whole, which is what is
// asked of the pool (and, with answerBearing: judge, how many candidates the judge must clear).
import type { StressParams } from './params.js';

/**
 * Distractors RGB's selection may use at a ratio. RGB's own rule (`fill`): all it wants, so a row short of positives
 * gets more noise. keep_ratio: when positives run short, only ceil(P·r / (1 − r)) of them, so the case shrinks and the
 * ratio holds (1 positive at 0.2 → 1 distractor, the nearest whole-passage ratio above it; at 0.8 → 4).
 */
export function distractorBudget(positives: number, noiseRate: number, params: Pick<StressParams, 'passageNum' | 'shortRows' | 'testbed'>): number {
  const negNum = Math.ceil(params.passageNum * noiseRate);
  if (params.testbed !== 'noise_robustness' || params.shortRows === 'fill' || noiseRate >= 1) return params.passageNum;
  if (positives >= params.passageNum - negNum) return negNum;
  // The epsilon keeps 0.8 / 0.2 = 4.000000000000001 at 4 distractors.
  return Math.max(0, Math.min(Math.ceil((positives * noiseRate) / (1 - noiseRate) - 1e-9), params.passageNum - positives));
}

/**
 * The distractors a row's cases can use at most: k for the position testbed, else the largest budget over its
 * ratios. Every case takes a prefix of one ranked sequence, so drawing no more than this changes no case.
 */
export function distractorsNeeded(positives: number, params: Pick<StressParams, 'passageNum' | 'shortRows' | 'testbed' | 'noiseRates' | 'k'>): number {
  if (params.testbed === 'position') return params.k;
  return Math.max(0, ...params.noiseRates.map((rate) => distractorBudget(positives, rate, params)));
}
