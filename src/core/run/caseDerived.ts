// Format 3 of the run log: template variables and params that a suite derived from the case's documents are stored
// as how to derive them again, not as a second copy. RGB's `documents` variable is the documents' {id, text, role}
// (~0.3 KB a case) and its `order` param their sources. Applied to a case as caseText.ts stores it, so a document's
// text is its reference `{$d: i}`; the case reads back equal (a list that does not match exactly is kept as it is).
import type { CaseResult } from '../model.js';
import type { StoredCase, StoredDocument } from './caseText.js';
import { setMember } from './sharedValues.js';

/**
 * `{$v: [keys]}`: one object per document with these fields, in this order ("text" is the document's text);
 * `{$v: key}`: the documents' values of one field.
 */
interface Derived {
  $v: string[] | string;
}

/** The stored case with derivable members of `variables` and `params` (top level) replaced by how to derive them. */
export function deriveCase(stored: StoredCase): StoredCase {
  const { documents } = stored;
  // caseText escapes a dataset object holding `$v` in `{$o}`, so a `$v` in variables is always this module's.
  const variables = mapMembers(stored.variables, (member) => derivation(member, documents) ?? member);
  // Params are stored as they are: an object of the suite's that looks like a marker is escaped here.
  const params = stored.params && mapMembers(stored.params, (member) => derivation(member, documents) ?? (isMarker(member) ? { $o: member } : member));
  return { ...stored, variables, ...(params ? { params } : {}) };
}

/** The stored case as caseText reads it: every `{$v}` member derived again, escaped params members unescaped. */
export function underiveCase(stored: StoredCase): StoredCase {
  const { documents } = stored;
  const variables = mapMembers(stored.variables, (member) => (isDerived(member) ? derive(member, documents) : member));
  const params = stored.params && mapMembers(stored.params, (member) => (isDerived(member) ? derive(member, documents) : isEscaped(member) ? member.$o : member));
  return { ...stored, variables, ...(params ? { params } : {}) };
}

function mapMembers(object: Record<string, unknown>, map: (member: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(object)) setMember(out, key, map(object[key]));
  return out;
}

function derive({ $v }: Derived, documents: readonly StoredDocument[]): unknown[] {
  if (typeof $v === 'string') return documents.map((document, i) => field(document, i, $v));
  return documents.map((document, i) => {
    const out: Record<string, unknown> = {};
    for (const key of $v) setMember(out, key, field(document, i, key));
    return out;
  });
}

/** A document's field as the stored case refers to it: its text as `{$d: i}`, as caseText refers to it. */
function field(document: StoredDocument, index: number, key: string): unknown {
  return key === 'text' ? { $d: index } : (document as unknown as Record<string, unknown>)[key];
}

function derivation(member: unknown, documents: readonly StoredDocument[]): Derived | undefined {
  if (!Array.isArray(member) || member.length !== documents.length) return undefined;
  const same = (value: unknown, document: StoredDocument, index: number, key: string): boolean =>
    sameJson(value, field(document, index, key)) || (key === 'text' && sameJson(value, document.text));
  const first = member[0] as unknown;
  if (isPlainObject(first)) {
    const keys = Object.keys(first);
    if (keys.length === 0) return undefined;
    const fits = member.every((item, i) => isPlainObject(item) && sameKeys(Object.keys(item), keys) && keys.every((key) => same(item[key], documents[i]!, i, key)));
    return fits ? { $v: keys } : undefined;
  }
  if (typeof first !== 'string' && typeof first !== 'number' && typeof first !== 'boolean') return undefined;
  if (!member.every((item) => typeof item === typeof first)) return undefined;
  const key = Object.keys(documents[0]!).find((k) => k !== 'text' && member.every((item, i) => item === (documents[i] as unknown as Record<string, unknown>)[k]));
  return key === undefined ? undefined : { $v: key };
}

/**
 * Equal as JSON writes them; primitives (most members) and document references (`{$d: i}`, what a document's text
 * is compared with) compared without writing them.
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const refA = docIndex(a);
  if (refA !== undefined) return refA === docIndex(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** i of an object that is exactly `{$d: i}` with i an integer (written as JSON writes it); else undefined. */
function docIndex(value: object): number | undefined {
  if (Array.isArray(value)) return undefined;
  let index: number | undefined;
  for (const key in value) {
    if (key !== '$d' || index !== undefined) return undefined;
    const member = (value as { $d: unknown }).$d;
    if (!Number.isInteger(member)) return undefined;
    index = member as number;
  }
  return index;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, i) => key === b[i]);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMarker(value: unknown): boolean {
  return isPlainObject(value) && ('$v' in value || '$o' in value);
}

function isDerived(value: unknown): value is Derived {
  return isPlainObject(value) && Object.keys(value).length === 1 && (typeof value.$v === 'string' || Array.isArray(value.$v));
}

function isEscaped(value: unknown): value is { $o: unknown } {
  return isPlainObject(value) && Object.keys(value).length === 1 && '$o' in value;
}

/**
 * A result as format 3 stores it: `caseId` as 0 when it is the case's id (it always is), `finishedAt` as the
 * milliseconds after `startedAt` when that rebuilds it exactly. Both are strings in a result, so a number is never
 * misread.
 */
export function deriveResult(result: CaseResult, caseId: string): CaseResult {
  const stored: Record<string, unknown> = { ...result };
  if (result.caseId === caseId) stored.caseId = 0;
  const delta = Date.parse(result.finishedAt) - Date.parse(result.startedAt);
  if (Number.isFinite(delta) && finishedAt(result.startedAt, delta) === result.finishedAt) stored.finishedAt = delta;
  return stored as unknown as CaseResult;
}

export function underiveResult(stored: CaseResult, caseId: string): CaseResult {
  const raw = stored as unknown as Record<string, unknown>;
  if (typeof raw.caseId !== 'number' && typeof raw.finishedAt !== 'number') return stored;
  return { ...stored, ...(typeof raw.caseId === 'number' ? { caseId } : {}), ...(typeof raw.finishedAt === 'number' ? { finishedAt: finishedAt(stored.startedAt, raw.finishedAt) } : {}) };
}

function finishedAt(startedAt: string, delta: number): string {
  return new Date(Date.parse(startedAt) + delta).toISOString();
}
