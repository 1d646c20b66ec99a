// How good a place in a text is to end (or start) a chunk: between paragraphs best, then at a line or sentence end,
// then at a word's edge; inside a word poor; inside one user-perceived character (a combining mark, an emoji
// sequence, a flag, CR LF) never, unless nothing else is near.

/** 3 paragraph break, 2 line or sentence end, 1 a word's edge, 0 inside a word, −1 inside one character as a reader sees it. */
export type CutClass = -1 | 0 | 1 | 2 | 3;

/**
 * Scripts written without spaces between words (Chinese, Japanese, Thai and the like) and their punctuation: any
 * character edge there is a word's edge.
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u3000-\u303F\u30FC\uFF00-\uFFEF]/u;
/** Characters that join with the one before them into one user-perceived character. */
const JOINS_BEFORE = /[\p{M}\u200D\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;
const SENTENCE_END = /[.!?。！？…][)\]"'”’」』]*[ \t]*$/;
const PARAGRAPH_BEFORE = /\n[ \t]*\r?\n[ \t]*$/;
const PARAGRAPH_AFTER = /^[ \t]*\r?\n[ \t]*\r?\n/;
const SPACE = /\s/;

function codePointBefore(text: string, at: number): string {
  const low = text.charCodeAt(at - 1);
  if (low >= 0xdc00 && low <= 0xdfff && at >= 2) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

function codePointAt(text: string, at: number): string {
  return String.fromCodePoint(text.codePointAt(at) as number);
}

/** A flag is a pair of regional indicators: `at` is inside one when an odd number of them runs up to it. */
function insideFlag(text: string, at: number): boolean {
  let count = 0;
  // Each regional indicator is a surrogate pair: two UTF-16 units.
  while (at - 2 * (count + 1) >= 0 && REGIONAL_INDICATOR.test(text.slice(at - 2 * (count + 1), at - 2 * count))) count++;
  return count % 2 === 1;
}

/** The class of cutting `text` at `at` (0 < at < text.length, not inside a surrogate pair). */
export function cutClass(text: string, at: number): CutClass {
  const before = codePointBefore(text, at);
  const after = codePointAt(text, at);
  if (JOINS_BEFORE.test(after) || before === '\u200D' || (before === '\r' && after === '\n')) return -1;
  if (REGIONAL_INDICATOR.test(before) && REGIONAL_INDICATOR.test(after)) return insideFlag(text, at) ? -1 : 1;
  const head = text.slice(Math.max(0, at - 8), at);
  if (PARAGRAPH_BEFORE.test(head) || PARAGRAPH_AFTER.test(text.slice(at, at + 8))) return 3;
  if (before === '\n' || after === '\n' || after === '\r' || SENTENCE_END.test(head)) return 2;
  if (SPACE.test(before) || SPACE.test(after) || UNSPACED.test(before) || UNSPACED.test(after)) return 1;
  return 0;
}
