// Each text once: how a case's documents, messages and template variables are written to a run log of format 2 —
// long texts content-addressed (written once as a text line, referenced by id), a message as literal pieces and
// references to the documents it quotes, a laid-out document (a needle context) as ranges of its shared text — and
// how they are read back to the case exactly as it was sent.
import { createHash } from 'node:crypto';
import type { CaseDocument, ChatMessage, EvalCase } from '../model.js';
import { mayHoldKey, redact } from '../redact.js';
import { layoutOf } from '../textLayout.js';
import { setMember } from './sharedValues.js';

/**
 * A text as stored: inline, a whole stored text `{$t}`, a range of one `{$t, s, e}`, a document's text `{$d}` (its
 * index in the case), or the concatenation of such pieces `{$p}`.
 */
export type StoredText = string | TextRef | DocRef | { $p: (string | TextRef | DocRef)[] };
export interface TextRef {
  $t: string;
  s?: number;
  e?: number;
}
export interface DocRef {
  $d: number;
  /** A range of the document's text: a template that trims what it quotes (role sections do) sends only that. */
  s?: number;
  e?: number;
}

export type StoredDocument = Omit<CaseDocument, 'text'> & { text: StoredText };
export type StoredMessage = Omit<ChatMessage, 'content'> & { content: StoredText };
/** A case as a format-2 case line holds it; `variables` may hold StoredText values and `{$o}` escapes. */
export type StoredCase = Omit<EvalCase, 'documents' | 'messages'> & { documents: StoredDocument[]; messages: StoredMessage[] };

/** A text line: one stored text, before the first case line that refers to it. */
export interface TextLine {
  type: 'text';
  id: string;
  text: string;
}

/**
 * Texts shorter than this stay inline: a reference costs ~25 bytes. Document texts are referenced by index from the
 * messages at any length above DOC_MIN (a reference costs 8 bytes), since the message repeats them anyway.
 */
const TEXT_MIN = 64;
const DOC_MIN = 12;
/** `$v` is format 3's (caseDerived.ts): escaped in every format, so a dataset's own `$v` object never reads as one. */
const MARKERS = ['$t', '$d', '$p', '$o', '$v'];

/** 96 bits of SHA-256, base64url: collisions are out of reach for any log (2^-48 at 10^12 texts). */
export function textId(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url').slice(0, 16);
}

/**
 * Encodes cases for one log, remembering which texts it has already written so each is written once. The memory is
 * bounded (an id forgotten is written again, which costs bytes, never correctness: a reader takes any copy).
 */
export class CaseTextEncoder {
  private readonly written = new Map<string, true>();
  /**
   * Ids of recent texts: the system prompt every case repeats, a needle haystack (the same string object, found
   * without hashing its content again) are hashed once, not once per case. At most 256 texts and 8 M characters.
   */
  private readonly recentIds = new Map<string, string>();
  private recentChars = 0;

  constructor(private readonly maxRemembered = 200_000) {}

  /** The stored case and the texts to write before it (not yet written: call `written` once they are). */
  encode(evalCase: EvalCase): { stored: StoredCase; texts: TextLine[] } {
    const texts: TextLine[] = [];
    const pending = new Set<string>();
    const ref = (text: string, range?: { start: number; end: number }): TextRef => {
      const id = this.idOf(text);
      if (!this.written.has(id) && !pending.has(id)) {
        pending.add(id);
        texts.push({ type: 'text', id, text });
      }
      return range ? { $t: id, s: range.start, e: range.end } : { $t: id };
    };
    const plain = (text: string): string | TextRef => (text.length >= TEXT_MIN ? ref(text) : text);

    const documents = evalCase.documents.map((document): StoredDocument => ({ ...document, text: this.documentText(document, ref, plain) }));
    const docTexts = evalCase.documents.map((d) => d.text);
    const splittable = (text: string) => !mayHoldKey(text);
    const messages = evalCase.messages.map((message): StoredMessage => ({ ...message, content: splitText(message.content, docTexts, plain, splittable) }));
    const variables = encodeValue(evalCase.variables, docTexts, plain) as Record<string, unknown>;
    return { stored: { ...evalCase, documents, messages, variables }, texts };
  }

  /** Marks texts as in the log (after their lines were written). */
  markWritten(texts: readonly TextLine[]): void {
    for (const { id } of texts) {
      this.written.set(id, true);
      if (this.written.size > this.maxRemembered) this.written.delete(this.written.keys().next().value as string);
    }
  }

  private documentText(document: CaseDocument, ref: (text: string, range?: { start: number; end: number }) => TextRef, plain: (text: string) => string | TextRef): StoredText {
    // Cut into pieces only when redaction cannot touch any piece, so pieces written apart still join up to the text.
    const layout = mayHoldKey(document.text) ? undefined : layoutOf(document);
    if (!layout || mayHoldKey(layout.base)) return plain(document.text);
    return { $p: layout.pieces.map((piece) => (typeof piece === 'string' ? piece : ref(layout.base, piece))) };
  }

  private idOf(text: string): string {
    const known = this.recentIds.get(text);
    if (known) return known;
    // The id of the text as the log stores it (redacted): no hash of a key is written, and texts that differ only
    // by a key are one text.
    const id = textId(mayHoldKey(text) ? redact(text) : text);
    this.recentIds.set(text, id);
    this.recentChars += text.length;
    for (const old of this.recentIds.keys()) {
      if ((this.recentIds.size <= 256 && this.recentChars <= 8_000_000) || old === text) break;
      this.recentIds.delete(old);
      this.recentChars -= old.length;
    }
    return id;
  }
}

/** A text as literal pieces and references to the documents it quotes (longest first); long literals stored apart. */
function splitText(text: string, docTexts: readonly string[], plain: (text: string) => string | TextRef, splittable: (text: string) => boolean): StoredText {
  const whole = docTexts.findIndex((d) => d === text);
  if (whole !== -1 && text.length >= DOC_MIN) return { $d: whole };
  if (!splittable(text)) return plain(text);
  let pieces: (string | DocRef)[] = [text];
  const order = docTexts.map((d, i) => i).filter((i) => (docTexts[i] as string).length >= DOC_MIN).sort((a, b) => (docTexts[b] as string).length - (docTexts[a] as string).length);
  for (const index of order) {
    const docText = docTexts[index] as string;
    // The document as quoted: whole, else trimmed (a role section's text is trimmed as it is rendered).
    let needle = docText;
    let ref: DocRef = { $d: index };
    if (!text.includes(docText)) {
      needle = docText.trim();
      if (needle.length < DOC_MIN || needle === docText) continue;
      const start = docText.indexOf(needle);
      ref = { $d: index, s: start, e: start + needle.length };
    }
    const next: (string | DocRef)[] = [];
    for (const piece of pieces) {
      if (typeof piece !== 'string') {
        next.push(piece);
        continue;
      }
      let from = 0;
      for (let at = piece.indexOf(needle); at !== -1; at = piece.indexOf(needle, from)) {
        if (at > from) next.push(piece.slice(from, at));
        next.push(ref);
        from = at + needle.length;
      }
      if (from < piece.length) next.push(from === 0 ? piece : piece.slice(from));
    }
    pieces = next;
  }
  const stored = pieces.map((piece) => (typeof piece === 'string' ? plain(piece) : piece));
  if (stored.length === 1 && typeof stored[0] === 'string') return stored[0];
  if (stored.length === 1 && typeof stored[0] === 'object' && '$t' in stored[0]) return stored[0];
  return { $p: stored };
}

/** Template variables: a string equal to a document's text becomes its reference, a long one a stored text. */
function encodeValue(value: unknown, docTexts: readonly string[], plain: (text: string) => string | TextRef): unknown {
  if (typeof value === 'string') {
    if (value.length >= DOC_MIN) {
      const index = docTexts.indexOf(value);
      if (index !== -1) return { $d: index };
    }
    return plain(value);
  }
  if (Array.isArray(value)) return value.map((item) => encodeValue(item, docTexts, plain));
  if (value === null || typeof value !== 'object') return value;
  // What JSON.stringify would write (a Date's string), so the log holds what format 1 held.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return encodeValue((value as { toJSON(): unknown }).toJSON(), docTexts, plain);
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) setMember(out, key, encodeValue(member, docTexts, plain));
  // An object of the dataset's own that looks like a marker is escaped, so it reads back as itself.
  return Object.keys(out).some((key) => MARKERS.includes(key)) ? { $o: out } : out;
}

/** Ids of the stored texts a case refers to. */
export function textIdsOf(stored: StoredCase): Set<string> {
  const ids = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    // An escaped dataset object: its members may hold references, its own keys are the dataset's.
    if ('$o' in object) return Object.values(object.$o as Record<string, unknown>).forEach(visit);
    if (typeof object.$t === 'string') ids.add(object.$t);
    for (const member of Object.values(object)) visit(member);
  };
  for (const document of stored.documents) visit(document.text);
  for (const message of stored.messages) visit(message.content);
  visit(stored.variables);
  return ids;
}

/** Thrown when a case refers to a text the log does not hold (a log cut or edited by hand). */
export class MissingTextError extends Error {}

/** The case as it was sent, from its stored form and its texts by id (textIdsOf says which). */
export function decodeCase(stored: StoredCase, texts: ReadonlyMap<string, string>): EvalCase {
  const text = (ref: TextRef): string => {
    const found = texts.get(ref.$t);
    if (found === undefined) throw new MissingTextError(`text ${ref.$t} is not in the run log`);
    return ref.s === undefined ? found : found.slice(ref.s, ref.e);
  };
  const documents = stored.documents.map((document): CaseDocument => ({ ...document, text: decodeText(document.text, text, []) }));
  const docTexts = documents.map((d) => d.text);
  const messages = stored.messages.map((message): ChatMessage => ({ ...message, content: decodeText(message.content, text, docTexts) }));
  const variables = decodeValue(stored.variables, text, docTexts) as Record<string, unknown>;
  return { ...stored, documents, messages, variables };
}

function decodeText(value: StoredText, text: (ref: TextRef) => string, docTexts: readonly string[]): string {
  if (typeof value === 'string') return value;
  if ('$t' in value) return text(value);
  if ('$d' in value) return docText(value, docTexts);
  let out = '';
  for (const piece of value.$p) out += typeof piece === 'string' ? piece : '$t' in piece ? text(piece) : docText(piece, docTexts);
  return out;
}

function docText(ref: DocRef, docTexts: readonly string[]): string {
  const found = docTexts[ref.$d];
  if (found === undefined) throw new MissingTextError(`document ${ref.$d} is not in the case`);
  return ref.s === undefined ? found : found.slice(ref.s, ref.e);
}

function decodeValue(value: unknown, text: (ref: TextRef) => string, docTexts: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => decodeValue(item, text, docTexts));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  if ('$o' in object) return decodeMembers(object.$o as Record<string, unknown>, text, docTexts);
  if ('$t' in object || '$d' in object || '$p' in object) return decodeText(object as StoredText, text, docTexts);
  return decodeMembers(object, text, docTexts);
}

function decodeMembers(object: Record<string, unknown>, text: (ref: TextRef) => string, docTexts: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(object)) setMember(out, key, decodeValue(member, text, docTexts));
  return out;
}
