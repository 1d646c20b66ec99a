// The one way API keys are kept out of everything RAG Inspector writes or shows: provider error messages, model
// responses, run logs, reports and the VS Code log channel all go through redact().

/**
 * Shapes of credentials that turn up in provider errors, echoed request headers, URLs, model output or pasted
 * datasets. Broad on purpose — a false positive costs a few characters, a false negative leaks a key — but not so
 * broad that ordinary prose is touched: "sk-" needs 20 key characters after it and no letter before it (so
 * "task-…" and "sk-learn" stay), and only header and parameter names that carry credentials count as `name=value`.
 */
const KEY_PATTERNS: readonly RegExp[] = [
  // OpenAI (sk-, sk-proj-), Anthropic (sk-ant-api03-), and most OpenAI-compatible gateways.
  /(?<![A-Za-z0-9])sk-[A-Za-z0-9_-]{20,}/g,
  // Authorization headers as printed by SDK debug output and proxies.
  /\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // key=value / "key": "value" for the usual header and query-parameter names (Azure's ?api-key=…).
  /\b((?:x-)?api[-_]?key|authorization|access[-_]?token|client[-_]?secret)(["']?\s*[:=]\s*["']?)[^\s"'&,;]{6,}/gi,
  // Google AI, GitHub and Hugging Face tokens.
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g,
  /\bhf_[A-Za-z0-9]{30,}/g,
];

/**
 * A text that none of the patterns can match holds none of these literal pieces. Tested on JSON text, where an
 * escape can stand right before a key ("\nsk-…" reads "nsk-…", hiding the pattern's boundary), so the pieces
 * are plain substrings with no boundaries of their own.
 */
const MAY_HOLD_KEY = /sk-|bearer|api[-_]?key|authorization|access[-_]?token|client[-_]?secret|AIza|gh[pousr]_|hf_/i;

export const REDACTED = '[redacted]';

/**
 * False when no pattern can match the text nor any part of it (the pieces are plain substrings), so the text can be
 * cut into pieces that are redacted apart and still join up to the text as it was.
 */
export function mayHoldKey(text: string): boolean {
  return MAY_HOLD_KEY.test(text);
}

/**
 * The text with every known secret value and anything shaped like a credential replaced by [redacted]. Known
 * values go first and longest first, so a key that contains another is removed whole; values shorter than 4
 * characters are ignored (they would blank out ordinary words).
 */
export function redact(text: string, knownSecrets: Iterable<string | undefined> = []): string {
  let clean = text;
  const secrets = [...knownSecrets].filter((s): s is string => !!s && s.length >= 4).sort((a, b) => b.length - a.length);
  for (const secret of secrets) clean = clean.split(secret).join(REDACTED);
  if (!MAY_HOLD_KEY.test(clean)) return clean;
  for (const pattern of KEY_PATTERNS) {
    clean = clean.replace(pattern, (_match: string, name?: string, separator?: string) =>
      // Keep the parameter name so the text still says what was removed.
      typeof name === 'string' && typeof separator === 'string' ? `${name}${separator}${REDACTED}` : REDACTED);
  }
  return clean;
}

/**
 * JSON.stringify with every string value redacted. Done on the values, not the JSON text, because in the text a
 * key after a newline reads "\nsk-…" and the escape's "n" would hide it from the pattern. A JSON text without any
 * of the patterns' pieces holds no key: that common case keeps JSON.stringify's fast path, and only the rest is
 * written again through the (much slower) replacer.
 */
export function stringifyRedacted(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined || !MAY_HOLD_KEY.test(text)) return text;
  return JSON.stringify(value, (_name, member: unknown) => (typeof member === 'string' ? redact(member) : member));
}
