// Finds answer and fake-answer spans in documents and responses, matching the way the scorer matches.
import type { DocumentRole, Span, SpanKind } from '../../model.js';
import type { AnswerParts } from './rows.js';

/**
 * A searchable form of a text (lowercased, optionally without spaces) that remembers, for each of its UTF-16
 * units, the original range it came from; lowercasing can change lengths ("İ" → "i̇"), so offsets need the map.
 */
interface NormalisedText {
  text: string;
  startOf: number[];
  endOf: number[];
}

function normalise(original: string, dropSpaces: boolean): NormalisedText {
  const out: NormalisedText = { text: '', startOf: [], endOf: [] };
  let index = 0;
  for (const char of original) {
    const start = index;
    index += char.length;
    if (dropSpaces && char === ' ') continue;
    const lowered = char.toLowerCase();
    out.text += lowered;
    for (let k = 0; k < lowered.length; k++) {
      out.startOf.push(start);
      out.endOf.push(index);
    }
  }
  return out;
}

/** Every non-overlapping occurrence of `needle` (already normalised) as original [start, end) ranges. */
function occurrences(haystack: NormalisedText, needle: string): [number, number][] {
  if (needle.length === 0) return [];
  const found: [number, number][] = [];
  for (let at = haystack.text.indexOf(needle); at !== -1; at = haystack.text.indexOf(needle, at + needle.length)) {
    found.push([haystack.startOf[at] as number, haystack.endOf[at + needle.length - 1] as number]);
  }
  return found;
}

function spansOf(original: string, haystack: NormalisedText, alternatives: Iterable<string>, kind: SpanKind): Span[] {
  const spans: Span[] = [];
  for (const alternative of new Set(alternatives)) {
    // The scorer removes spaces from the response only, never from the answer: an alternative with a space in it
    // cannot match a zh response, and so it must not be highlighted either.
    const needle = normalise(alternative, false).text;
    for (const [start, end] of occurrences(haystack, needle)) {
      spans.push({ kind, start, end, text: original.slice(start, end), label: alternative });
    }
  }
  return spans;
}

function byPosition(a: Span, b: Span): number {
  return a.start - b.start || a.end - b.end;
}

/**
 * Spans of a document: every occurrence of every answer alternative, and of the fake answer in counterfactual
 * passages. Case-insensitive like the scorer; documents are matched as they are (the reference removes spaces from
 * the response only).
 */
export function documentSpans(text: string, role: DocumentRole, answer: AnswerParts, fakeanswer?: AnswerParts): Span[] {
  const haystack = normalise(text, false);
  const spans = spansOf(text, haystack, answer.flat(), 'answer');
  if (role === 'counterfactual' && fakeanswer) spans.push(...spansOf(text, haystack, fakeanswer.flat(), 'counterfactual'));
  return spans.sort(byPosition);
}

/**
 * Spans of a response: where each answer alternative (and the fake answer, when there is one) occurs, read the
 * way the scorer reads it — for zh with spaces ignored, so "186.35 万" is found for "186.35万" and the span
 * covers the original text, space included.
 */
export function responseSpans(response: string, answer: AnswerParts, language: 'en' | 'zh', fakeanswer?: AnswerParts): Span[] {
  const dropSpaces = language === 'zh';
  const haystack = normalise(response, dropSpaces);
  const spans = spansOf(response, haystack, answer.flat(), 'answer');
  if (fakeanswer) spans.push(...spansOf(response, haystack, fakeanswer.flat(), 'counterfactual'));
  return spans.sort(byPosition);
}
