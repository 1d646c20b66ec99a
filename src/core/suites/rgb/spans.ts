// Finds answer and fake-answer spans in documents and responses, matching the way the scorer matches.
import type { DocumentRole, Span, SpanKind } from '../../model.js';
import type { AnswerParts } from './rows.js';

/**
 * A searchable form of a text (lowercased, optionally without spaces) that remembers, for each of its UTF-16
 * units, where in the original the character it came from starts; lowercasing can change lengths ("İ" → "i̇"), so
 * offsets need the map. Four bytes per unit: a 10 MB passage must not cost gigabytes.
 */
interface NormalisedText {
  text: string;
  /**
   * `startOf[i]`: the original offset of the character that unit `i` of `text` came from; undefined when that is `i`
   * itself (every character lowered to one unit, none dropped: most texts), so no map is allocated for them.
   */
  startOf: Int32Array | undefined;
  original: string;
}

/** The original is lowered this many UTF-16 units at a time: one string and one loop over codes per piece. */
const PIECE = 8192;

/**
 * Characters a piece is lowered one by one for: surrogates (astral characters map both units to where they start) and
 * Σ, whose lowercase depends on what follows it (a whole-string toLowerCase gives the final ς, the scorer's
 * per-character lowering gives σ).
 */
const NEEDS_CHARACTERS = /[\ud800-\udfff\u03a3]/;

function normalise(original: string, dropSpaces: boolean): NormalisedText {
  // Lowercasing one character gives at most a few units; the map grows in the rare case it outruns the original.
  // No map while it is the identity: made, with the identity so far, at the first unit that is not.
  let startOf: Int32Array | undefined;
  let length = 0;
  const room = (units: number): Int32Array => {
    if (startOf === undefined) {
      startOf = new Int32Array(Math.max(original.length + 1, length + units));
      for (let k = 0; k < length; k++) startOf[k] = k;
    } else if (length + units > startOf.length) {
      const grown = new Int32Array(Math.max(startOf.length * 2, length + units));
      grown.set(startOf);
      startOf = grown;
    }
    return startOf;
  };
  const pieces: string[] = [];
  for (let from = 0; from < original.length; ) {
    let to = Math.min(original.length, from + PIECE);
    const last = original.charCodeAt(to - 1);
    if (to < original.length && last >= 0xd800 && last <= 0xdbff) to += 1;
    const piece = original.slice(from, to);
    const lowered = NEEDS_CHARACTERS.test(piece) ? undefined : piece.toLowerCase();
    if (lowered !== undefined && lowered.length === piece.length) {
      // Every character lowered to one unit, as it would one at a time: the map is the identity, minus dropped spaces.
      if (startOf === undefined && !(dropSpaces && piece.includes(' '))) {
        length += piece.length;
      } else {
        const map = room(piece.length);
        for (let k = 0; k < piece.length; k++) {
          if (!(dropSpaces && piece.charCodeAt(k) === 0x20)) map[length++] = from + k;
        }
      }
      pieces.push(dropSpaces ? lowered.replaceAll(' ', '') : lowered);
    } else {
      const chars: string[] = [];
      for (let index = from; index < to; ) {
        const char = String.fromCodePoint(original.codePointAt(index) as number);
        const start = index;
        index += char.length;
        if (dropSpaces && char === ' ') continue;
        // Character by character, as the scorer compares.
        const lowered = char.toLowerCase();
        const map = room(lowered.length);
        for (let k = 0; k < lowered.length; k++) map[length++] = start;
        chars.push(lowered);
      }
      pieces.push(chars.join(''));
    }
    from = to;
  }
  return { text: pieces.length === 1 ? pieces[0]! : pieces.join(''), startOf: (startOf as Int32Array | undefined)?.subarray(0, length), original };
}

/** Where in the original the character that unit `unit` of the normalised text came from starts. */
function startOfUnit(haystack: NormalisedText, unit: number): number {
  return haystack.startOf === undefined ? unit : (haystack.startOf[unit] as number);
}

/** Where the original character that unit `unit` of the normalised text came from ends. */
function endOf(haystack: NormalisedText, unit: number): number {
  const start = startOfUnit(haystack, unit);
  return start + ((haystack.original.codePointAt(start) as number) > 0xffff ? 2 : 1);
}

/** Every non-overlapping occurrence of `needle` (already normalised) as original [start, end) ranges. */
function occurrences(haystack: NormalisedText, needle: string): [number, number][] {
  if (needle.length === 0) return [];
  const found: [number, number][] = [];
  for (let at = haystack.text.indexOf(needle); at !== -1; at = haystack.text.indexOf(needle, at + needle.length)) {
    found.push([startOfUnit(haystack, at), endOf(haystack, at + needle.length - 1)]);
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
