// What the inspector shows of "Explain a failure": per document card its effect, value and support as text (the bar
// only repeats the value), the live leave-one-out outcomes while a case is being explained, and the position curve.
// Pure: the effects themselves are core's (src/core/explain/attribute.ts); nothing here decides one.
import type { CaseExplanation, RunExplanation, VariantOutcome } from '../../src/protocol.js';
import type { SourceAttribution, SourceEffect, SuiteExplanation } from '../../src/core/explain/model.js';
import type { ChartData } from './chartSeries.js';

/** Glyph and word per effect, so an effect never rests on colour alone. */
export const EFFECT_LABELS: Record<SourceEffect, { glyph: string; word: string; meaning: string }> = {
  decisive: { glyph: '★', word: 'decisive', meaning: 'leaving it out makes the passing case fail' },
  helps: { glyph: '▲', word: 'helps', meaning: 'the subsets raise the pass rate when it is present' },
  harms: { glyph: '▼', word: 'harms', meaning: 'leaving it out fixes the case, or the subsets lower the pass rate when it is present' },
  inert: { glyph: '○', word: 'inert', meaning: 'no variant shows an effect' },
  undetermined: { glyph: '?', word: 'undetermined', meaning: 'the variants that would decide it ended in an error' },
};

/** What a document card shows: core's attribution once the case is explained, or the leave-one-out run while it is. */
export type CardAttribution =
  | {
    kind: 'explained';
    effect: SourceEffect;
    /** In [−1, 1], > 0 where the document's presence raises the outcome; null when there is nothing to draw. */
    value: number | null;
    /** The value as text and what it is: "weight +0.42 (subsets)", "−1 (leave-one-out)". */
    valueText: string;
    supportText: string;
    withoutIt: string;
  }
  | { kind: 'running'; withoutIt: string };

/** The explanations of a run by list key (`caseId\0modelKey`, as CaseListItem.key). */
export function explanationsByKey(run: RunExplanation | null | undefined): Map<string, CaseExplanation> {
  return new Map((run?.cases ?? []).map((c) => [explanationKey(c), c]));
}

export function explanationKey(explanation: Pick<CaseExplanation, 'caseId' | 'modelKey'>): string {
  return `${explanation.caseId}\u0000${explanation.modelKey}`;
}

/** The outcomes so far of a case being explained, with one more run's (it stands for every id in `variantIds`). */
export function withOutcome(known: ReadonlyMap<string, VariantOutcome> | undefined, variantIds: readonly string[], outcome: VariantOutcome): Map<string, VariantOutcome> {
  const next = new Map(known);
  for (const id of variantIds) next.set(id, { ...outcome, variantId: id });
  return next;
}

/**
 * The card of each source id. Explained: core's attribution. Running: only what a leave-one-out run says (the case
 * without the document passes, fails, or ended undetermined) — its effect waits for the subsets and core.
 */
export function cardAttributions(explanation: CaseExplanation | undefined, running: ReadonlyMap<string, VariantOutcome> | undefined): Map<string, CardAttribution> {
  const cards = new Map<string, CardAttribution>();
  if (explanation) {
    for (const a of explanation.attributions) cards.set(a.sourceId, explainedCard(a, explanation.basis));
    return cards;
  }
  for (const [id, outcome] of running ?? []) {
    if (!id.startsWith('loo:')) continue;
    cards.set(id.slice('loo:'.length), { kind: 'running', withoutIt: withoutItText(outcome.pass, outcome.undeterminedBecause) });
  }
  return cards;
}

function explainedCard(a: SourceAttribution, basis: CaseExplanation['basis']): CardAttribution {
  // The surrogate's weight when there is one (it uses every subset); else leave-one-out's change, turned so that
  // > 0 means the document's presence raises the outcome, like the weight.
  const fromLoo = a.change === null ? null : -a.change;
  const value = a.attribution ?? fromLoo;
  const valueText = a.attribution !== null
    ? `weight ${signed(a.attribution)} (subsets)`
    : fromLoo !== null ? `${signed(fromLoo)} (leave-one-out)` : 'no value';
  const { leaveOneOut, subsetsWith, subsetsWithout } = a.support;
  const supportText = `support: ${leaveOneOut} leave-one-out, ${subsetsWith} subset${subsetsWith === 1 ? '' : 's'} with it, ${subsetsWithout} without`;
  const withoutIt = basis === 'rating'
    ? (a.change === null ? 'without it: rating not determined' : `without it: rating ${signed(a.change)} of the scale`)
    : withoutItText(a.withoutIt, a.effect === 'undetermined' ? 'an error in its variants' : undefined);
  return { kind: 'explained', effect: a.effect, value: value === null ? null : Math.max(-1, Math.min(1, value)), valueText, supportText, withoutIt };
}

function withoutItText(pass: boolean | null, because?: string): string {
  if (pass === true) return 'without it: passes';
  if (pass === false) return 'without it: fails';
  return because ? `without it: undetermined (${because})` : 'without it: not run';
}

export function signed(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return `${rounded > 0 ? '+' : rounded < 0 ? '−' : '±'}${Math.abs(rounded).toFixed(2)}`;
}

/**
 * The position curve as a line chart: x the 1-based position of the answer-bearing document, y 1 passed / 0 failed.
 * Undetermined positions are not drawn as 0 — they are left out of the line and named by positionText.
 */
export function positionChart(explanation: CaseExplanation): ChartData | undefined {
  const curve = explanation.positionCurve;
  if (!curve) return undefined;
  const points = curve.points.filter((p) => p.pass !== null).map((p) => ({ x: p.position + 1, y: p.pass ? 1 : 0 }));
  if (points.length < 2) return undefined;
  return { xLabel: `position of ${curve.sourceId}`, series: [{ name: `passes with ${curve.sourceId} here`, points }] };
}

/** "1 ✓ passes · 2 ✗ fails · 3 ? undetermined": the curve as text, every point. */
export function positionText(explanation: CaseExplanation): string {
  return (explanation.positionCurve?.points ?? [])
    .map((p) => `${p.position + 1}: ${p.pass === null ? '? undetermined' : p.pass ? '✓ passes' : '✗ fails'}`)
    .join(' · ');
}

/** A suite's pass rate by the answer-bearing source's position, across its explained cases; needs two determined points. */
export function suitePositionChart(suite: SuiteExplanation): ChartData | undefined {
  const points = suite.accuracyByPosition.filter((p) => p.accuracy !== null).map((p) => ({ x: p.position + 1, y: p.accuracy as number }));
  if (points.length < 2) return undefined;
  return { xLabel: 'position of the answer-bearing source', series: [{ name: `${suite.modelKey}: pass rate`, points }] };
}

/** "1: 3 of 4 pass · 2: 1 of 4 pass": the same curve as text, every position (none hidden by the chart). */
export function suitePositionText(suite: SuiteExplanation): string {
  return suite.accuracyByPosition.map((p) => `${p.position + 1}: ${p.passed} of ${p.n} pass`).join(' · ');
}
