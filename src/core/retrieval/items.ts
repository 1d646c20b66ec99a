// The one checker of a retriever's answer, whatever the source: a list of { id, text, score?, metadata? }, or a
// RetrieverError that names the item, the field and what was received, so the user can fix their retriever.
import { redact } from '../redact.js';
import { RetrieverError } from './contract.js';
import type { RetrievedItem } from './contract.js';

/** How much of a received value a message quotes: enough to recognise it, never a whole document. */
const QUOTE_CHARS = 200;

/**
 * `value` as a message quotes it: JSON (strings keep their quotes, so "" is visible), cut to about 200 characters,
 * and redacted, because a retriever's output can echo a header or a key it was given.
 */
export function quoteReceived(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return quoteText(text);
}

/**
 * Raw text (a line, a body) cut to about 200 characters and redacted. Redacted before the cut as well, so a key the
 * cut runs through is never shown in part; `secrets` are values known to be secret (an HTTP retriever's headers).
 */
export function quoteText(text: string, secrets: readonly string[] = []): string {
  const clean = redact(text.slice(0, QUOTE_CHARS + 1000), secrets);
  const cut = clean.length > QUOTE_CHARS ? `${clean.slice(0, QUOTE_CHARS)}… (${text.length} characters)` : clean;
  return redact(cut, secrets);
}

/**
 * The items of an answer: a list, or an object with an `items` list (the per-call and HTTP answers). `where` names
 * the answer in messages ("the answer of command: python retrieve.py").
 */
export function itemsOfAnswer(answer: unknown, where: string): RetrievedItem[] {
  if (Array.isArray(answer)) return checkItems(answer, where);
  if (isPlainObject(answer) && 'items' in answer) return checkItems(answer.items, where);
  throw new RetrieverError('bad-shape', `${where} is not a list of passages nor an object with "items": received ${quoteReceived(answer)}. Answer [{"id": "...", "text": "..."}] or {"items": [...]}.`);
}

/** The text without a leading byte-order mark, which some shells and Windows tools put before their output. */
export function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** JSON text parsed, or a 'not-json' RetrieverError quoting it. */
export function parseAnswerJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const shown = text.trim() === '' ? 'nothing (empty output)' : quoteText(text);
    throw new RetrieverError('not-json', `${where} is not JSON (${reason}): received ${shown}. Print only the JSON answer on stdout; logs go to stderr.`);
  }
}

/**
 * The checked list: every item an object with a non-empty string `id` (a number id is taken as its decimal string),
 * a non-empty string `text`, an optional finite `score` and an optional object `metadata`; no id twice. Other fields
 * of an item are ignored. Items are numbered from 1 in messages, as ranks are.
 */
export function checkItems(list: unknown, where: string): RetrievedItem[] {
  if (!Array.isArray(list)) {
    throw new RetrieverError('bad-shape', `${where}: "items" must be a list of passages; received ${quoteReceived(list)}.`);
  }
  const items: RetrievedItem[] = new Array<RetrievedItem>(list.length);
  const seen = new Map<string, number>();
  for (let index = 0; index < list.length; index++) {
    const item = checkItem(list[index], index + 1, where);
    const first = seen.get(item.id);
    if (first !== undefined) {
      throw new RetrieverError('duplicate-id', `${where}: item ${index + 1} has the id ${quoteReceived(item.id)} of item ${first} already; every passage needs its own id (qrels name passages by id).`);
    }
    seen.set(item.id, index + 1);
    items[index] = item;
  }
  return items;
}

function checkItem(raw: unknown, position: number, where: string): RetrievedItem {
  const at = `${where}: item ${position}`;
  if (!isPlainObject(raw)) throw new RetrieverError('bad-shape', `${at} must be an object {"id": ..., "text": ...}; received ${quoteReceived(raw)}.`);
  const id = idOf(raw.id, at);
  const text = raw.text;
  if (typeof text !== 'string') {
    throw new RetrieverError('bad-shape', `${at} (id ${quoteReceived(id)}): "text" must be a string; received ${text === undefined ? 'no "text" field' : quoteReceived(text)}.`);
  }
  if (text.trim() === '') throw new RetrieverError('empty-text', `${at} (id ${quoteReceived(id)}): "text" is empty; a passage needs the text the model will read.`);
  const item: RetrievedItem = { id, text };
  if (raw.score !== undefined && raw.score !== null) {
    if (typeof raw.score !== 'number' || !Number.isFinite(raw.score)) throw new RetrieverError('bad-shape', `${at} (id ${quoteReceived(id)}): "score" must be a finite number; received ${quoteReceived(raw.score)}.`);
    item.score = raw.score;
  }
  if (raw.metadata !== undefined && raw.metadata !== null) {
    if (!isPlainObject(raw.metadata)) throw new RetrieverError('bad-shape', `${at} (id ${quoteReceived(id)}): "metadata" must be an object; received ${quoteReceived(raw.metadata)}.`);
    item.metadata = raw.metadata;
  }
  return item;
}

/** A string id as it is; a finite number as its decimal string (JSON has no integer type, so 17 and "17" agree). */
function idOf(raw: unknown, at: string): string {
  if (typeof raw === 'string' && raw.trim() !== '') return raw;
  if (typeof raw === 'number' && Number.isFinite(raw)) return String(raw);
  const received = raw === undefined ? 'no "id" field' : quoteReceived(raw);
  throw new RetrieverError('bad-shape', `${at}: "id" must be a non-empty string (or a number); received ${received}.`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
