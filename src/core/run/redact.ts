// Defensive removal of strings that look like API keys from anything written to disk.

/**
 * OpenAI (`sk-…`, `sk-proj-…`) and Anthropic (`sk-ant-api03-…`) key shapes: "sk-" not preceded by a letter
 * or digit (so "task-…" or "risk-…" never match) and followed by at least 20 key characters (so short
 * words like "sk-learn" survive). The engine never hands keys to the log; this catches one echoed back
 * by a model, pasted into a dataset, or carried in an error message.
 */
const API_KEY_PATTERN = /(?<![A-Za-z0-9])sk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}/g;

export const REDACTED = '[redacted-api-key]';

export function redactSecrets(text: string): string {
  return text.replace(API_KEY_PATTERN, REDACTED);
}

/**
 * JSON.stringify with every string value redacted. Done on the values, not the JSON text, because in the
 * text a key after a newline reads "\nsk-…" and the escape's "n" would hide it from the pattern.
 * JSON escaping never touches "sk-", so a text without it holds no key: that common case keeps JSON.stringify's
 * fast path, and only a text with "sk-" in it is written again through the (much slower) replacer.
 */
export function stringifyRedacted(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined || !text.includes('sk-')) return text;
  return JSON.stringify(value, redactMember);
}

function redactMember(_name: string, member: unknown): unknown {
  return typeof member === 'string' ? redactSecrets(member) : member;
}
