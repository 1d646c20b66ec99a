// Token counting with gpt-tokenizer: exact for OpenAI models, an o200k estimate for everything else.
import type { ChatMessage } from '../model.js';
import { loadEncoding } from './encodings.js';
import type { EncodingName } from './encodings.js';

export interface Tokenizer {
  /** The encoding: "o200k_base" or "cl100k_base". */
  name: EncodingName;
  /** True when the encoding is a stand-in for the model's own (counts are estimates). */
  approximate: boolean;
  encode(text: string): number[];
  decode(tokens: number[]): string;
  count(text: string): number;
}

// Documents are data: "<|endoftext|>" in a passage is text to count, not a control token (the library
// would throw on it by default).
const AS_TEXT = { disallowedSpecial: new Set<string>() };

// Families whose own tokenizer is the encoding (OpenAI's model → encoding table).
const O200K_MODELS = /^(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|gpt-oss|o1|o3|o4)(\b|-|$)/i;
const CL100K_MODELS = /^(gpt-4|gpt-3\.5|text-embedding-3|text-embedding-ada-002)(\b|-|$)/i;

/**
 * The tokenizer for "provider:model" (or a bare model name). OpenAI models get their own encoding, exactly.
 * Anything else (Anthropic, whose tokenizer is not public; local models; the extractive reader) gets
 * o200k_base with `approximate: true`: good for budgets and haystack sizes, not for billing.
 */
export function tokenizerFor(modelKey: string): Tokenizer {
  const model = modelName(modelKey);
  if (O200K_MODELS.test(model)) return wrap('o200k_base', false);
  if (CL100K_MODELS.test(model)) return wrap('cl100k_base', false);
  return wrap('o200k_base', true);
}

/** The model part of "provider:model"; model names may contain ':' themselves (ollama's "llama3:8b"). */
function modelName(modelKey: string): string {
  const colon = modelKey.indexOf(':');
  return colon === -1 ? modelKey : modelKey.slice(colon + 1);
}

function wrap(name: EncodingName, approximate: boolean): Tokenizer {
  return {
    name,
    approximate,
    encode: (text) => loadEncoding(name).encode(text, AS_TEXT),
    decode: (tokens) => loadEncoding(name).decode(tokens),
    count: (text) => loadEncoding(name).countTokens(text, AS_TEXT),
  };
}

// OpenAI's cookbook ("How to count tokens with tiktoken"): every message costs 3 tokens of framing besides
// its role and content, and every reply is primed with 3 more.
const TOKENS_PER_MESSAGE = 3;
const REPLY_PRIMING = 3;

/**
 * Prompt tokens for a chat request. Approximate even for OpenAI models: the framing is the documented
 * cookbook figure, which vendors may change, and tools/structured-output schemas are not counted.
 */
export function countMessages(messages: readonly ChatMessage[], tokenizer: Tokenizer): number {
  let total = REPLY_PRIMING;
  for (const message of messages) total += TOKENS_PER_MESSAGE + tokenizer.count(message.role) + tokenizer.count(message.content);
  return total;
}
