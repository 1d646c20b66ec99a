// Size limits the views render within (pure, so the tests can import them).

/**
 * Past this many characters a document shows only its start until asked: the browser lays out all of a text
 * even inside a collapsed box, and a 1 MB haystack would otherwise add seconds to every case switch.
 */
export const RENDER_LIMIT = 100_000;

/** Past this many characters a prompt message is shown in the virtualised viewer instead of one block of text. */
export const LONG_MESSAGE = 20_000;

/**
 * A copy of `value` with long strings cut to their start and their length, for JSON shown as reference (a needle
 * case's variables hold the whole 500 KB context, which the case view already shows virtualised).
 */
export function clipLongStrings(value: unknown, max = 2_000, depth = 0): unknown {
  if (typeof value === 'string') return value.length > max ? `${value.slice(0, 200)}… [${value.length.toLocaleString('en-US')} characters; shown in full above]` : value;
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => clipLongStrings(v, max, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clipLongStrings(v, max, depth + 1)]));
}
