// One pass over a token sequence: where each token starts in the decoded text, and which tokens end a sentence.
import type { HaystackTokenizer } from './tokenizer.js';

/**
 * Where a needle may follow. `sentence` (default): after a token whose decoded text ends with . 。 ！ or ？,
 * possibly followed by whitespace — BPE merges "." with what follows (".\n\n", ".\"\n"), so the reference's test
 * for the lone "." token can back up far past real sentence ends. `period-token`: the reference's test exactly.
 */
export type BoundaryRule = 'sentence' | 'period-token';

/** A decoded token sequence with what insertion needs, computed once and shared by every cell. */
export interface IndexedText {
  text: string;
  tokenCount: number;
  /**
   * UTF-16 offset where token i starts; tokenCount + 1 entries, the last being text.length. Tokens inside a
   * character that spans several tokens start where that character starts, so a cut there drops the partial
   * character instead of splitting it.
   */
  starts: Int32Array;
  /** 1 where a needle may be inserted right after token i. */
  boundaries: Uint8Array;
}

const SENTENCE_ENDS = new Set(['.', '。', '！', '？']);

/** Whitespace as /\s/ sees it, with the common ASCII cases answered without a regex (this runs per token). */
function isSpace(code: number, char: string): boolean {
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/.test(char);
}

/** The last non-whitespace character of the text is a sentence end (". ", ".\n\n" and "。" all qualify). */
export function endsSentence(text: string): boolean {
  let i = text.length - 1;
  while (i >= 0 && isSpace(text.charCodeAt(i), text[i] as string)) i--;
  return i >= 0 && SENTENCE_ENDS.has(text[i] as string);
}

/** The tokens the reference compares against: `encode('.')`. */
function periodTokens(tokenizer: HaystackTokenizer): Set<number> {
  return new Set(tokenizer.encode('.'));
}

/**
 * Decodes `tokens` once, filling the start offsets and the boundary flags. `source`, when given, is the text the
 * tokens were encoded from: it is used as the decoded text unless decoding disagrees with its length (text that
 * does not survive a round trip, such as a lone surrogate), in which case the decoded pieces are joined instead.
 */
export function indexTokens(tokens: readonly number[], tokenizer: HaystackTokenizer, rule: BoundaryRule, source?: string): IndexedText {
  const count = tokens.length;
  const starts = new Int32Array(count + 1);
  const boundaries = new Uint8Array(count);
  const parts: string[] | undefined = source === undefined ? [] : undefined;
  const sentences = rule === 'sentence';
  let token = 0;
  let offset = 0;
  tokenizer.decodeChunks(tokens, (text, chunkTokens) => {
    for (let k = 0; k < chunkTokens; k++) starts[token + k] = offset;
    if (sentences && chunkTokens > 0 && endsSentence(text)) boundaries[token + chunkTokens - 1] = 1;
    parts?.push(text);
    offset += text.length;
    token += chunkTokens;
  });
  starts[count] = offset;
  if (rule === 'period-token') {
    const periods = periodTokens(tokenizer);
    for (let i = 0; i < count; i++) if (periods.has(tokens[i] as number)) boundaries[i] = 1;
  }
  if (source !== undefined && source.length !== offset) return indexTokens(tokens, tokenizer, rule);
  return { text: source ?? (parts as string[]).join(''), tokenCount: count, starts, boundaries };
}

/** Encode and index a short text (a needle): the same rules as the haystack, so boundaries inside it count too. */
export function indexText(text: string, tokenizer: HaystackTokenizer, rule: BoundaryRule): IndexedText {
  return indexTokens(tokenizer.encode(text), tokenizer, rule, text);
}
