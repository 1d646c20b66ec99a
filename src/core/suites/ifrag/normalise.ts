// How IF-RAG decides an answer or the refusal sentence is "in" a response: RGB's lowercase substring, or SQuAD's normalisation.
import { checkAnswer } from '../rgb/match.js';
import type { Normalisation } from './params.js';

/** Named in explanations and report notes, so a number always says which rule produced it. */
export const NORMALISATION_RULES: Readonly<Record<Normalisation, string>> = {
  rgb: 'RGB lowercase substring (both sides lowercased, the answer must occur anywhere in the response)',
  squad: 'SQuAD normalisation then substring (lowercase, ASCII punctuation removed, articles a/an/the removed, whitespace collapsed)',
};

/** Python's string.punctuation, which SQuAD's normalize_answer removes. */
const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /\b(a|an|the)\b/g;

/** SQuAD v1.1 `normalize_answer`: lower, remove punctuation, remove articles, fix whitespace, in that order. */
export function squadNormalise(text: string): string {
  return text.toLowerCase().replace(ASCII_PUNCTUATION, '').replace(ARTICLES, ' ').split(/\s+/).filter(Boolean).join(' ');
}

/** The text a rule reads: rgb leaves it for checkAnswer to lowercase; squad normalises it. */
function prepared(text: string, mode: Normalisation): string {
  return mode === 'squad' ? squadNormalise(text) : text;
}

/**
 * The first alias (in the row's order) found in the response, or undefined. Delegates to RGB's checkanswer so the
 * default is exactly RGB's rule; an alias that normalises to nothing never matches (it would match everything).
 */
export function findAlias(response: string, aliases: readonly string[], mode: Normalisation): string | undefined {
  const usable = aliases.filter((alias) => prepared(alias, mode).trim() !== '');
  const [part] = checkAnswer(prepared(response, mode), [usable.map((alias) => prepared(alias, mode))]);
  if (part?.matched === undefined) return undefined;
  return usable[part.alternatives.indexOf(part.matched)];
}

/** The first refusal sentence found in the response under the same rule as answers, or undefined. */
export function findRefusal(response: string, refusal: readonly string[], mode: Normalisation): string | undefined {
  return refusal.find((sentence) => findAlias(response, [sentence], mode) !== undefined);
}

/** Aliases that would match nothing under the mode (e.g. "The" under squad): a row holding only such aliases is unusable. */
export function emptyAfterNormalising(aliases: readonly string[], mode: Normalisation): string[] {
  return aliases.filter((alias) => prepared(alias, mode).trim() === '');
}
