// JSON array reader (.json starting with '['): parses the whole file, then finds the line each element starts on.
import { InputError } from '../errors.js';
import { jsonProblem } from './jsonError.js';
import { readWholeText } from './lines.js';
import type { RawItem } from './reader.js';
import { describeJsonType, isRecord } from './reader.js';
import { linesAt, positionAt } from './textPosition.js';

const ARRAY_HINT = 'a .json dataset is an array of objects ([{…}, {…}]) or JSON Lines (one object per line)';

/** Not streamed: a JSON array has to be parsed whole. Large datasets belong in JSONL. */
export async function* readJsonArray(file: string, signal?: AbortSignal): AsyncGenerator<RawItem> {
  const text = await readWholeText(file, signal);
  if (text instanceof InputError) {
    yield text;
    return;
  }
  const parsed = parseWhole(file, text);
  if (parsed instanceof InputError || !Array.isArray(parsed)) {
    yield parsed instanceof InputError ? parsed : notAnArray(file, parsed);
    return;
  }
  const lines = linesAt(text, elementOffsets(text));
  for (const [index, element] of parsed.entries()) {
    signal?.throwIfAborted();
    const line = lines[index] ?? 1;
    yield isRecord(element)
      ? { line, data: element }
      : new InputError({ file, line }, `element ${index} is ${describeJsonType(element)}, not an object`, ARRAY_HINT);
  }
}

function notAnArray(file: string, value: unknown): InputError {
  return new InputError({ file, line: 1, column: 1 }, `the file holds ${describeJsonType(value)}, not an array of rows`, ARRAY_HINT);
}

function parseWhole(file: string, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const problem = jsonProblem(error, text);
    const position = problem.offset === undefined ? { line: 1 } : positionAt(text, problem.offset);
    return new InputError({ file, ...position }, `invalid JSON: ${problem.message}`, ARRAY_HINT);
  }
}

/**
 * Offsets where each element of the top-level array starts. Only called on text JSON.parse accepted, so it
 * needs to know just strings (to skip brackets inside them) and nesting depth.
 */
export function elementOffsets(text: string): number[] {
  const offsets: number[] = [];
  let depth = 0;
  let expectElement = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') {
      if (depth === 1 && expectElement) offsets.push(i);
      expectElement = false;
      i = endOfString(text, i);
      continue;
    }
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue;
    if (depth === 1 && expectElement && char !== ']') offsets.push(i);
    expectElement = false;
    if (char === '[' || char === '{') depth += 1;
    else if (char === ']' || char === '}') depth -= 1;
    if ((char === '[' && depth === 1) || (char === ',' && depth === 1)) expectElement = true;
  }
  return offsets;
}

/** Index of the quote closing the string that opens at `start`. */
function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i += 1;
    else if (text[i] === '"') return i;
  }
  return text.length;
}
