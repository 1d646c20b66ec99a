// The one line a person can act on: what the verdict rests on, where the answer-bearing source is used, and which
// instruction matters; built only from the explanation's own findings.
import type { CaseExplanation, SourceAttribution } from './model.js';

const named = (a: SourceAttribution) => `${a.sourceId} (${a.role})`;
const list = (items: readonly SourceAttribution[]) => items.map(named).join(', ');

export function summarise(e: CaseExplanation): string {
  if (e.sources.length === 0) return e.meaning;
  if (e.basis === 'rating') return [ratingReason(e), ...unfaithful(e)].join('; ');
  if (e.original.pass === null) return `undetermined: the original ended in ${e.original.undeterminedBecause ?? 'no verdict'}, so no variant can be compared with it`;
  const parts: string[] = [e.original.pass ? passReason(e) : failReason(e)];
  const position = positionPhrase(e);
  if (position) parts.push(position);
  const instruction = e.instructions.filter((i) => i.flips).map((i) => `without the ${i.section} section it ${i.pass ? 'passes' : 'fails'}`);
  if (instruction.length) parts.push(instruction.join('; '));
  const undetermined = e.attributions.filter((a) => a.effect === 'undetermined').length;
  if (undetermined) parts.push(`${undetermined} source${undetermined === 1 ? '' : 's'} undetermined (a variant ended in an error)`);
  if (e.missingVariants) parts.push(`partial: ${e.missingVariants} variant${e.missingVariants === 1 ? '' : 's'} not run yet`);
  parts.push(...unfaithful(e));
  return parts.join('; ');
}

/** Said in the one line when the faithfulness check contradicts the attributions: a person must not act on them unwarned. */
function unfaithful(e: CaseExplanation): string[] {
  return e.faithfulness?.status === 'does-not-flip' ? [`but ${e.faithfulness.note}`] : [];
}

/** LLM-Eval: no verdict, so what moves the judge's rating (as a share of its scale). */
function ratingReason(e: CaseExplanation): string {
  const rating = `rated ${Math.round((e.original.signal ?? 0) * 100)}% of the scale`;
  const down = e.attributions.filter((a) => a.effect === 'decisive');
  const up = e.attributions.filter((a) => a.effect === 'harms');
  const parts = [rating];
  if (down.length) parts.push(`the rating rests on ${list(down)}: without ${down.length === 1 ? 'it' : 'any one of them'} it drops by ${percent(Math.min(...down.map((a) => a.change ?? 0)))}`);
  if (up.length) parts.push(`${list(up)} lower${up.length === 1 ? 's' : ''} it: without ${up.length === 1 ? 'it' : 'them'} it rises by up to ${percent(Math.max(...up.map((a) => a.change ?? 0)))}`);
  if (!down.length && !up.length) parts.push('no single part of the context moves the rating by a fifth of the scale');
  return parts.join('; ');
}

const percent = (share: number) => `${Math.round(Math.abs(share) * 100)} points`;

function failReason(e: CaseExplanation): string {
  const flips = e.attributions.filter((a) => a.effect === 'harms' && a.withoutIt === true);
  if (flips.length) return `fails because of ${list(flips)}: without ${flips.length === 1 ? 'it' : 'any one of them'} the answer is correct`;
  const weighed = e.attributions.filter((a) => a.effect === 'harms').sort((a, b) => (a.attribution ?? 0) - (b.attribution ?? 0));
  if (weighed.length) return `fails mostly because of ${list(weighed)}: removing ${weighed.length === 1 ? 'it' : 'them'} raises the pass rate across subsets (fit R² ${e.surrogate?.r2 ?? '?'})`;
  const bearing = e.sources.filter((s) => s.answerBearing);
  if (bearing.length === 0) return 'fails, and no document the dataset labels answer-bearing was shown';
  return 'fails whichever single source is removed: no document alone causes it';
}

function passReason(e: CaseExplanation): string {
  const decisive = e.attributions.filter((a) => a.effect === 'decisive');
  if (decisive.length) return `passes because of ${list(decisive)}: without ${decisive.length === 1 ? 'it' : 'any one of them'} the answer is wrong`;
  const helps = e.attributions.filter((a) => a.effect === 'helps');
  if (helps.length) return `passes with help from ${list(helps)} (no single removal breaks it)`;
  const harms = e.attributions.filter((a) => a.effect === 'harms');
  if (harms.length) return `passes, though ${list(harms)} lower${harms.length === 1 ? 's' : ''} the pass rate`;
  return 'passes whichever single source is removed: the answer rests on no one document';
}

/** "the answer-bearing d1 is used only in positions 1–2" (1-based, as a person counts). */
function positionPhrase(e: CaseExplanation): string | undefined {
  const curve = e.positionCurve;
  if (!curve) return undefined;
  const known = curve.points.filter((p) => p.pass !== null);
  const passing = known.filter((p) => p.pass).map((p) => p.position + 1);
  if (known.length < 2 || passing.length === known.length) return undefined;
  const source = e.sources.find((s) => s.id === curve.sourceId);
  const label = `the answer-bearing ${curve.sourceId}${source ? ` (${source.role})` : ''}`;
  if (passing.length === 0) return `moving ${label} to any position does not fix it`;
  return `${label} is used only in position${passing.length === 1 ? '' : 's'} ${ranges(passing)}`;
}

function ranges(numbers: readonly number[]): string {
  const out: string[] = [];
  let start = numbers[0] as number;
  let prev = start;
  for (const n of [...numbers.slice(1), Number.NaN]) {
    if (n === prev + 1) {
      prev = n;
      continue;
    }
    out.push(start === prev ? String(start) : `${start}–${prev}`);
    start = n;
    prev = n;
  }
  return out.join(', ');
}

