// The faithfulness check of an explanation: the sources it credits with the outcome are removed together, and the
// outcome must flip the way the attributions predict. Attribution methods (leave-one-out, surrogate weights) are known
// to mislead — on long contexts, and when a passage's effect depends on its position — and can look convincing while
// the model's outcome does not rest on what they name (arXiv 2510.02629); so every explanation tests its own claim
// with one more variant and says plainly when that claim does not hold.
import type { CaseExplanation, FaithfulnessCheck, SourceAttribution, VariantOutcome, VariantSpec } from './model.js';
import { FLIP, outcomeValue } from './outcome.js';

const CHECK_PREFIX = 'faithfulness:';

/** The variant id of removing `removed` together: named by what it removes, so a resumed check finds its own run. */
export function checkVariantId(removed: readonly string[]): string {
  return `${CHECK_PREFIX}${removed.join('+')}`;
}

/** What the explanation credits with the outcome, and what it predicts without them; undefined when it credits none. */
function claim(e: Pick<CaseExplanation, 'basis' | 'original' | 'attributions'>): { removed: SourceAttribution[]; predicted: FaithfulnessCheck['predicted'] } | undefined {
  const having = (...effects: string[]) => e.attributions.filter((a) => effects.includes(a.effect));
  if (e.basis === 'rating') {
    if (having('decisive').length) return { removed: having('decisive'), predicted: 'rating drops' };
    if (having('harms').length) return { removed: having('harms'), predicted: 'rating rises' };
    return undefined;
  }
  if (e.original.pass === true && having('decisive', 'helps').length) return { removed: having('decisive', 'helps'), predicted: 'fails' };
  if (e.original.pass === false && having('harms').length) return { removed: having('harms'), predicted: 'passes' };
  return undefined;
}

/** The variant the check needs (original order, the credited sources left out); undefined when there is nothing to check. */
export function checkVariant(e: Pick<CaseExplanation, 'basis' | 'original' | 'attributions' | 'sources'>): VariantSpec | undefined {
  const found = claim(e);
  if (!found) return undefined;
  const removed = new Set(found.removed.map((a) => a.sourceId));
  return { id: checkVariantId([...removed]), kind: 'faithfulness', present: e.sources.map((s) => s.id).filter((id) => !removed.has(id)) };
}

/**
 * The check, read from the outcomes: its own run, or any planned variant that shows exactly the same sources in the
 * original order (a leave-one-out or subset already answers it, at no call).
 */
export function faithfulnessCheck(
  e: Pick<CaseExplanation, 'basis' | 'original' | 'attributions' | 'sources'>,
  variants: readonly VariantSpec[], outcomes: ReadonlyMap<string, VariantOutcome>,
): FaithfulnessCheck {
  const found = claim(e);
  const spec = checkVariant(e);
  if (!found || !spec) {
    const why = e.original.undeterminedBecause !== undefined || (e.basis === 'verdict' && e.original.pass === null)
      ? 'the original outcome is undetermined, so there is no claim to check'
      : 'no source is credited with the outcome, so there is nothing to remove';
    return { removed: [], predicted: null, status: 'nothing-to-check', note: why };
  }
  const removed = found.removed.map((a) => a.sourceId);
  const same = variants.find((v) => v.kind !== 'position' && !v.removedSection && v.present.join(',') === spec.present.join(',') && outcomes.has(v.id));
  const outcome = outcomes.get(spec.id) ?? (same ? outcomes.get(same.id) : undefined);
  const what = `removing ${removed.join(', ')} together`;
  const expected = found.predicted === 'fails' ? 'make it fail' : found.predicted === 'passes' ? 'make it pass' : found.predicted === 'rating drops' ? 'lower the rating by a fifth of the scale or more' : 'raise the rating by a fifth of the scale or more';
  const base = { removed, predicted: found.predicted, variantId: outcome ? outcome.variantId : spec.id };
  if (!outcome) return { ...base, status: 'not-run', note: `not checked: ${what} has not run yet (cancelled, or left out by --max-calls)` };
  const byVerdict = e.basis === 'verdict';
  const before = outcomeValue(e.original, byVerdict);
  const after = outcomeValue(outcome, byVerdict);
  if (before === null || after === null) return { ...base, outcome, status: 'undetermined', note: `not checked: ${what} ended in ${outcome.undeterminedBecause ?? 'no verdict'}` };
  const change = after - before;
  const flipped = found.predicted === 'fails' || found.predicted === 'rating drops' ? change <= -FLIP : change >= FLIP;
  if (flipped) return { ...base, outcome, status: 'flips', note: `${what} does ${expected}, as the attributions predict` };
  return { ...base, outcome, status: 'does-not-flip', note: `${what} does not ${expected}: the attributions do not account for the outcome and may mislead` };
}
