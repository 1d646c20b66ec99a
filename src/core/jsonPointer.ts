// JSON pointers (RFC 6901): "/suites/0/dataset" read as path segments, and resolved in a parsed JSON value.
import type { PathSegment } from './errors.js';

/** "/suites/0/dataset" → ["suites", 0, "dataset"] (ajv's instancePath, JSON-pointer escaped: ~1 is "/", ~0 is "~"). */
export function pointerSegments(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((part) => (/^\d+$/.test(part) ? Number(part) : part));
}

/** True for "" (the whole value) and for "/…"; anything else is no JSON pointer (RFC 6901, section 3). */
export function isJsonPointer(pointer: string): boolean {
  return pointer === '' || (pointer.startsWith('/') && !/~[^01]|~$/.test(pointer));
}

/**
 * The value `pointer` names in `document` (RFC 6901, section 4), or `{ found: false }` with the part of the pointer
 * that led nowhere. An array index is digits without a leading zero; "-" (past the end) finds nothing.
 */
export function resolvePointer(document: unknown, pointer: string): { found: true; value: unknown } | { found: false; missing: string } {
  if (!isJsonPointer(pointer)) return { found: false, missing: pointer };
  let value = document;
  const tokens = pointer === '' ? [] : pointer.slice(1).split('/');
  for (let index = 0; index < tokens.length; index++) {
    const token = tokens[index]!.replaceAll('~1', '/').replaceAll('~0', '~');
    const reached = `/${tokens.slice(0, index + 1).join('/')}`;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token) || Number(token) >= value.length) return { found: false, missing: reached };
      value = value[Number(token)];
    } else if (typeof value === 'object' && value !== null && Object.hasOwn(value, token)) {
      value = (value as Record<string, unknown>)[token];
    } else {
      return { found: false, missing: reached };
    }
  }
  return { found: true, value };
}
