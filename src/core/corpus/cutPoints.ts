// How good a place in a text is to end a chunk: between paragraphs best, then at a line or sentence end, then between
// words; inside a word (or inside one user-perceived character: a combining mark, an emoji sequence) worst.

/** 3 paragraph break, 2 line or sentence end, 1 between words (or CJK characters), 0 inside a word or character. */
export type CutClass = 0 | 1 | 2 | 3;

/** Letters and digits of scripts that put spaces between words; Chinese, Japanese, Thai and the like do not, so any character edge there is a word edge. */
const SPACED_WORD = /[\p{L}\p{N}_]/u;
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30FC]/u;
/** Characters that join with the one before them into one user-perceived character. */
const JOINS_BEFORE = /[\p{M}\u200D\uFE00-\uFE0F\u{1F3FB}-\u{1F3FF}\u{E0020}-\u{E007F}]/u;
const SENTENCE_END = /[.!?。！？…][)\]"'”’」』]*[ \t]*$/;
const PARAGRAPH_BEFORE = /\n[ \t]*\r?\n[ \t]*$/;
const PARAGRAPH_AFTER = /^[ \t]*\r?\n[ \t]*\r?\n/;

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

/** The class of cutting `text` at `at` (0 < at < text.length). */
export function cutClass(text: string, at: number): CutClass {
  const before = codePointBefore(text, at);
  const after = codePointAt(text, at);
  if (JOINS_BEFORE.test(after) || before === '\u200D') return 0;
  const head = text.slice(Math.max(0, at - 8), at);
  const tail = text.slice(at, at + 8);
  if (PARAGRAPH_BEFORE.test(head) || PARAGRAPH_AFTER.test(tail)) return 3;
  if (before === '\n' || after === '\n' || after === '\r' || SENTENCE_END.test(head)) return 2;
  if (SPACED_WORD.test(before) && SPACED_WORD.test(after) && !UNSPACED.test(before) && !UNSPACED.test(after)) return 0;
  return 1;
}
