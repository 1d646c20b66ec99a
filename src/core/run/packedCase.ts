// A case line of format 3: the format-2 stored case (caseText.ts) with its derivable variables left out
// (caseDerived.ts), then case and result packed against the log's shared lines (sharedValues.ts). Unpacking gives
// the format-2 stored line back, so every reader decodes its texts as for format 2.
import type { CaseResult } from '../model.js';
import { deriveCase, deriveResult, underiveCase, underiveResult } from './caseDerived.js';
import type { StoredCase } from './caseText.js';
import type { SharedLine, SharedPacker, SharedTable } from './sharedValues.js';

/** The case line as written, and the shared lines to write before it. */
export function packCaseLine(packer: SharedPacker, stored: StoredCase, result: CaseResult): { line: { type: 'case'; case: unknown; result: unknown }; defined: SharedLine[] } {
  // One line for the packer: its case and result are packed together (a string both repeat is not shared for that).
  const { packed, defined } = packer.pack({ case: deriveCase(stored), result: deriveResult(result, stored.id) });
  return { line: { type: 'case', ...packed }, defined };
}

/**
 * A case line as format 2 stores it. A format-3 line is told by its case: one member `@<id>` (a real case has id,
 * suiteId, ... and is always packed), so a line of format 1 or 2 comes back as it is. Throws MissingSharedError, and
 * may throw anything on a line of the wrong shape (readers check the shape of what comes back: logLineShapes.ts).
 * `at`: the line's number, for a log whose shared ids were defined twice (SharedTable.note).
 */
export function unpackCaseLine<T>(value: T & { case?: unknown; result?: unknown }, table: SharedTable, at?: number): T {
  if (!isPacked(value.case)) return value;
  const evalCase = table.unpack(value.case, at) as StoredCase;
  return { ...value, case: underiveCase(evalCase), result: underiveResult(table.unpack(value.result, at) as CaseResult, evalCase.id) };
}

function isPacked(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && (keys[0] as string).startsWith('@');
}
