// JSON Lines reader (.jsonl, .ndjson, and RGB's JSONL files named .json): one object per line, streamed.
import { InputError } from '../errors.js';
import { jsonProblem } from './jsonError.js';
import { readLines } from './lines.js';
import type { RawItem } from './reader.js';
import { describeJsonType, isRecord } from './reader.js';

const ONE_OBJECT_HINT = 'each line must hold one JSON object, e.g. {"query": "…", "answer": "…"}';

/** Yields one item per non-blank line; a bad line becomes an error item and reading goes on. */
export async function* readJsonl(file: string, signal?: AbortSignal): AsyncGenerator<RawItem> {
  try {
    for await (const { line, text } of readLines(file, signal)) {
      if (text.trim() === '') continue;
      yield parseLine(file, line, text);
    }
  } catch (error) {
    // Encoding problems end the file (the rest would be garbage); aborts and I/O failures go up.
    if (error instanceof InputError) yield error;
    else throw error;
  }
}

function parseLine(file: string, line: number, text: string): RawItem {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const problem = jsonProblem(error, text);
    const column = problem.offset === undefined ? undefined : problem.offset + 1;
    return new InputError({ file, line, column }, `invalid JSON: ${problem.message}`, ONE_OBJECT_HINT);
  }
  if (!isRecord(value)) {
    return new InputError({ file, line, column: 1 }, `line holds ${describeJsonType(value)}, not a JSON object`, ONE_OBJECT_HINT);
  }
  return { line, data: value };
}
