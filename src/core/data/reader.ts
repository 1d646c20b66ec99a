// What every dataset format reader yields, before the dispatcher numbers the rows.
import type { InputError } from '../errors.js';

/** A record and the 1-based line it starts on, or a problem with one record (or the whole file). */
export type RawItem = { line: number; data: Record<string, unknown> } | InputError;

/** Readers take an absolute path and report every problem as an InputError item; they throw only on abort. */
export type FormatReader = (file: string, signal?: AbortSignal) => AsyncGenerator<RawItem>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "a string", "an array", "null"… for messages about a value that should have been an object. */
export function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
