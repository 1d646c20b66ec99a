// The one rule for a field a dataset may name in several ways (RAGAS's `user_input` or its older `question`): the
// first name present wins, and two names present with different values are refused at the row's line, by every method.
import { InputError } from '../errors.js';
import type { DatasetRow } from '../model.js';

/**
 * The value under the first of `names` present in the row (null counts as absent), or undefined. Throws InputError at
 * the row's file:line when another of the names holds a different value: a row is never silently read as one of them.
 */
export function aliasedField(row: DatasetRow, names: readonly string[]): { name: string; value: unknown } | undefined {
  const present = names.filter((name) => row.data[name] !== undefined && row.data[name] !== null);
  const [first, ...others] = present;
  if (first === undefined) return undefined;
  for (const other of others) {
    if (JSON.stringify(row.data[other]) !== JSON.stringify(row.data[first])) {
      throw new InputError({ file: row.ref.file, line: row.ref.line }, `row ${row.ref.index + 1}: ${other}: differs from ${first}`, `keep one of ${names.join(' / ')}`);
    }
  }
  return { name: first, value: row.data[first] };
}
