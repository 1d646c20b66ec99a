// The tokenizer view the haystack needs: encode once, then walk the decoded text token by token.
import { loadEncoding } from '../../prompt/encodings.js';
import type { Encoding } from '../../prompt/encodings.js';
import { tokenizerFor } from '../../prompt/tokens.js';

/** Receives decoded text in order; `tokens` says how many tokens produced it. */
export type ChunkSink = (text: string, tokens: number) => void;

/**
 * What insertion needs from a tokenizer. Abstract so the reference's worked examples can run on a character
 * tokenizer (token = character) and real grids on the model's BPE encoding.
 */
export interface HaystackTokenizer {
  /** The encoding, e.g. "o200k_base". */
  readonly name: string;
  /** True when the encoding stands in for a model whose own tokenizer is not available. */
  readonly approximate: boolean;
  encode(text: string): number[];
  /**
   * Streams the decoded text of `tokens`, which must decode to whole text. A character whose UTF-8 bytes span
   * several tokens decodes from none of them alone: its text comes with the token that completes it, the tokens
   * before it bringing empty text, so every token still gets its place.
   */
  decodeChunks(tokens: readonly number[], sink: ChunkSink): void;
}


// Documents are data: "<|endoftext|>" in a haystack is text (the same choice tokens.ts makes).
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Per encoding, each token's text once known to be whole, or null for a token that is only part of a character.
 * The vocabulary is fixed, so this is shared by every haystack and every run in the process.
 */
const tokenTexts = new Map<string, (string | null | undefined)[]>();

/** The encoding of "provider:model" (tokens.ts decides which), with token-by-token decoding. */
export function haystackTokenizerFor(modelKey: string): HaystackTokenizer {
  const base = tokenizerFor(modelKey);
  const encoding = loadEncoding(base.name);
  let texts = tokenTexts.get(base.name);
  if (!texts) {
    // Indexed by token id: a lookup per haystack token must be cheap.
    texts = [];
    tokenTexts.set(base.name, texts);
  }
  const known = texts;
  return {
    name: base.name,
    approximate: base.approximate,
    encode: (text) => encoding.encode(text, AS_TEXT),
    decodeChunks: (tokens, sink) => decodeByToken(tokens, encoding, known, sink),
  };
}

/**
 * A token whose text encodes back to exactly that token is whole UTF-8 and decodes the same anywhere. A token
 * holding part of a character never passes: the text it yields (empty, or completed by bytes from the token
 * before) encodes to other tokens.
 */
function isWholeToken(text: string, token: number, encoding: Encoding): boolean {
  if (text === '') return false;
  const again = encoding.encode(text, AS_TEXT);
  return again.length === 1 && again[0] === token;
}

/**
 * Decodes in order, one token at a time. gpt-tokenizer decodes byte tokens through one streaming UTF-8 decoder,
 * so feeding every partial-character token in sequence completes each character with the token that ends it;
 * whole tokens never touch that decoder, which is why their text can be cached and reused.
 */
function decodeByToken(tokens: readonly number[], encoding: Encoding, known: (string | null | undefined)[], sink: ChunkSink): void {
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as number;
    let text = known[token];
    if (text === undefined) {
      text = encoding.decode([token]);
      known[token] = isWholeToken(text, token, encoding) ? text : null;
    } else if (text === null) {
      text = encoding.decode([token]);
    }
    sink(text, 1);
  }
}
