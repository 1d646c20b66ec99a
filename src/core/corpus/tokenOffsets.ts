// Where each token of a text starts, in UTF-16 offsets: what lets the chunker cut on token boundaries and still hand
// back an exact slice of the text (never half a character, whatever the script).
import type { Tokenizer } from '../prompt/tokens.js';

/** A text's tokens and where each starts; `starts` has one more entry than `tokens`, the last being the text's length. */
export interface TokenOffsets {
  tokens: number[];
  /**
   * Nondecreasing. A character whose UTF-8 bytes span several tokens (common for CJK and emoji) gives all of them its
   * own start, so a cut before any of them falls before the whole character, never inside it.
   */
  starts: Int32Array;
}

/** Tokens decoded together at most, to find the text of a character split across tokens (4 UTF-8 bytes, 1 byte per token at worst). */
const MAX_GROUP = 8;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text as encoding sees it: a lone surrogate becomes U+FFFD (same length), which is what decoding gives back. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

/**
 * Encodes `text` and finds each token's start by decoding token by token and matching the pieces against the text.
 * A tokenizer that decodes a partial character as '' and the rest with the token completing it (gpt-tokenizer's
 * streaming decoder) and one that cannot decode it alone (U+FFFD) are both handled: the latter by decoding the
 * smallest run of tokens that gives back whole text.
 */
export function tokenOffsets(text: string, tokenizer: Tokenizer): TokenOffsets {
  const tokens = tokenizer.encode(text);
  flushDecoder(tokenizer);
  const comparable = wellFormed(text);
  const starts = new Int32Array(tokens.length + 1);
  let offset = 0;
  let i = 0;
  while (i < tokens.length) {
    const single = tokenizer.decode([tokens[i] as number]);
    if (comparable.startsWith(single, offset)) {
      starts[i] = offset;
      offset += single.length;
      i += 1;
      continue;
    }
    flushDecoder(tokenizer);
    const end = groupEnd(tokens, i, comparable, offset, tokenizer);
    const piece = tokenizer.decode(tokens.slice(i, end));
    for (let k = i; k < end; k++) starts[k] = offset;
    offset += piece.length;
    i = end;
  }
  if (offset !== text.length) throw new Error(`the tokenizer ${tokenizer.name} decodes this text to ${offset} characters, not ${text.length}`);
  starts[tokens.length] = text.length;
  return { tokens, starts };
}

/** A character outside every vocabulary's merges: its four UTF-8 bytes come as byte tokens, the first a lead byte. */
const FLUSH = '\u{10FFFD}';

/**
 * gpt-tokenizer decodes byte tokens through one streaming UTF-8 decoder shared by the process: a partial character
 * decoded elsewhere and never completed (a token list cut short) would be completed by our first byte token, and
 * everything after it shifted. Decoding a whole character that starts with a lead byte ends any such leftover, and
 * leaves the decoder clean.
 */
function flushDecoder(tokenizer: Tokenizer): void {
  tokenizer.decode(tokenizer.encode(FLUSH));
}

function groupEnd(tokens: readonly number[], from: number, comparable: string, offset: number, tokenizer: Tokenizer): number {
  for (let end = from + 2; end <= Math.min(tokens.length, from + MAX_GROUP); end++) {
    const piece = tokenizer.decode(tokens.slice(from, end));
    if (piece !== '' && comparable.startsWith(piece, offset)) return end;
  }
  throw new Error(`the tokenizer ${tokenizer.name} does not decode its own tokens back to the text at character ${offset}`);
}
