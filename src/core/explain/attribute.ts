// From the variants' outcomes to an explanation: each source's effect and attribution, the surrogate's fit, the
// position curve, the instruction effects, the response sentences each removal changes, and the faithfulness check.
import { fitLasso } from './lasso.js';
import type {
  CaseExplanation, ExplainSource, InstructionEffect, PositionPoint, SentenceLink, SourceAttribution, SourceEffect, SurrogateFit, VariantOutcome, VariantSpec,
} from './model.js';
import { faithfulnessCheck } from './faithfulness.js';
import { FLIP, comparesByVerdict, outcomeValue } from './outcome.js';
import { summarise } from './summary.js';

/** The default LASSO penalty: small, since the outcome is 0/1 and a real effect moves the pass rate by ½ or more. */
export const DEFAULT_LAMBDA = 0.01;

/** A surrogate weight at least this large (in pass-rate units) counts as helping or harming. */
export const ATTRIBUTION_THRESHOLD = 0.15;

export { FLIP } from './outcome.js';

/** Fewer determined subsets than this fit nothing worth reading. */
const MIN_SUBSETS = 4;

export interface AttributionInput {
  caseId: string;
  modelKey: string;
  suiteId: string;
  method: string;
  meaning: string;
  sources: readonly ExplainSource[];
  variants: readonly VariantSpec[];
  /** By variant id; a missing one did not finish (cancelled). */
  outcomes: ReadonlyMap<string, VariantOutcome>;
  lambda?: number;
}

export function explainCase(input: AttributionInput): CaseExplanation {
  const original = input.outcomes.get('original') ?? { variantId: 'original', pass: null, signal: null, cached: false, undeterminedBecause: 'not run yet' };
  const byVerdict = comparesByVerdict(original);
  const value = (outcome: VariantOutcome | undefined) => outcomeValue(outcome, byVerdict);
  const subsets = input.variants.filter((v) => v.kind === 'subsets');
  const surrogate = fitSurrogate(input.sources, subsets, input.outcomes, value, input.lambda ?? DEFAULT_LAMBDA);
  const attributions = input.sources.map((source, j): SourceAttribution => {
    const loo = input.outcomes.get(`loo:${source.id}`);
    const ran = input.variants.some((v) => v.id === `loo:${source.id}`);
    const weight = surrogate ? (surrogate.weights[j] as number) : null;
    const before = value(original);
    const after = value(loo);
    const change = before === null || after === null ? null : round(after - before);
    return {
      sourceId: source.id,
      role: source.role,
      answerBearing: source.answerBearing,
      effect: effectOf(before, change, ran, weight),
      withoutIt: loo?.pass ?? null,
      change,
      attribution: weight === null ? null : round(weight),
      support: {
        leaveOneOut: loo && loo.pass !== null ? 1 : 0,
        subsetsWith: surrogate ? surrogate.present[j] as number : 0,
        subsetsWithout: surrogate ? surrogate.fit.samples - (surrogate.present[j] as number) : 0,
      },
    };
  });
  if (surrogate) surrogate.fit.agreementWithLeaveOneOut = agreement(attributions);
  const explanation: CaseExplanation = {
    caseId: input.caseId,
    modelKey: input.modelKey,
    suiteId: input.suiteId,
    method: input.method,
    meaning: input.meaning,
    basis: byVerdict ? 'verdict' : 'rating',
    sources: [...input.sources],
    original,
    variants: input.variants.filter((v) => v.id !== 'original').flatMap((v) => input.outcomes.get(v.id) ?? []),
    attributions,
    surrogate: surrogate?.fit,
    positionCurve: positionCurve(input),
    instructions: instructionEffects(input, original),
    sentences: sentenceLinks(input, original),
    summary: '',
    missingVariants: input.variants.filter((v) => !input.outcomes.has(v.id)).length,
  };
  explanation.faithfulness = faithfulnessCheck(explanation, input.variants, input.outcomes);
  explanation.summary = summarise(explanation);
  return explanation;
}

/**
 * Leave-one-out decides when it flipped the outcome; otherwise the surrogate's weight says helps, harms or inert.
 * An undetermined original or leave-one-out run leaves the source undetermined: an error is never a flip.
 */
function effectOf(original: number | null, change: number | null, looPlanned: boolean, weight: number | null): SourceEffect {
  if (looPlanned) {
    if (original === null || change === null) return 'undetermined';
    if (change <= -FLIP) return 'decisive';
    if (change >= FLIP) return 'harms';
  } else if (weight === null) return 'undetermined';
  if (weight !== null && weight >= ATTRIBUTION_THRESHOLD) return 'helps';
  if (weight !== null && weight <= -ATTRIBUTION_THRESHOLD) return 'harms';
  return 'inert';
}

function fitSurrogate(
  sources: readonly ExplainSource[], subsets: readonly VariantSpec[], outcomes: ReadonlyMap<string, VariantOutcome>,
  value: (outcome: VariantOutcome | undefined) => number | null, lambda: number,
) {
  const rows: number[][] = [];
  const y: number[] = [];
  for (const variant of subsets) {
    const outcome = value(outcomes.get(variant.id));
    // Undetermined subsets are left out of the fit, not counted as failures.
    if (outcome === null) continue;
    const present = new Set(variant.present);
    rows.push(sources.map((s) => (present.has(s.id) ? 1 : 0)));
    y.push(outcome);
  }
  if (rows.length < MIN_SUBSETS) return undefined;
  const lasso = fitLasso(rows, y, lambda);
  // For a rating, "right side" is within half the range of the observed value.
  const correct = lasso.predictions.filter((p, i) => Math.abs(p - (y[i] as number)) < 0.5).length;
  const fit: SurrogateFit = { samples: rows.length, lambda, intercept: round(lasso.intercept), r2: round(lasso.r2), accuracy: round(correct / rows.length), agreementWithLeaveOneOut: null };
  return { fit, weights: lasso.weights, present: sources.map((_, j) => rows.reduce((n, r) => n + (r[j] as number), 0)) };
}

/** Where leave-one-out flipped the verdict, does the surrogate's sign point the same way? */
function agreement(attributions: readonly SourceAttribution[]): number | null {
  const flipped = attributions.filter((a) => a.change !== null && Math.abs(a.change) >= FLIP && a.attribution !== null);
  if (flipped.length === 0) return null;
  const agree = flipped.filter((a) => (a.effect === 'decisive' ? (a.attribution as number) > 0 : (a.attribution as number) < 0)).length;
  return round(agree / flipped.length);
}

function positionCurve(input: AttributionInput): CaseExplanation['positionCurve'] {
  const variants = input.variants.filter((v) => v.kind === 'position');
  if (variants.length === 0) return undefined;
  const sourceId = input.sources.find((s) => s.answerBearing)?.id as string;
  const points: PositionPoint[] = variants.map((v) => {
    const outcome = input.outcomes.get(v.id);
    return { position: v.position as number, pass: outcome?.pass ?? null, signal: outcome?.signal ?? null };
  });
  return { sourceId, points };
}

function instructionEffects(input: AttributionInput, original: VariantOutcome): InstructionEffect[] {
  return input.variants.filter((v) => v.kind === 'instruction').map((v) => {
    const outcome = input.outcomes.get(v.id);
    const pass = outcome?.pass ?? null;
    return { section: v.removedSection as string, pass, flips: pass !== null && original.pass !== null && pass !== original.pass, response: outcome?.response };
  });
}

/** Sentences of the original response that vanish when a source is left out: the part of the answer that source drives. */
function sentenceLinks(input: AttributionInput, original: VariantOutcome): SentenceLink[] {
  if (!original.response) return [];
  const sentences = splitSentences(original.response);
  return sentences.map((sentence) => {
    const key = normalise(sentence);
    const sourceIds = input.sources.filter((s) => {
      const loo = input.outcomes.get(`loo:${s.id}`);
      return loo?.response !== undefined && loo.undeterminedBecause === undefined && !normalise(loo.response).includes(key);
    }).map((s) => s.id);
    return { sentence, sourceIds };
  });
}

function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?。！？])\s+|\n+/).map((s) => s.trim()).filter((s) => s !== '');
}

const normalise = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();
const round = (value: number) => Math.round(value * 1000) / 1000;
