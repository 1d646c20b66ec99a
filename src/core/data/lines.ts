// Reads a text file as UTF-8 in pieces that end at line breaks, naming the first line that is not UTF-8.
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { InputError } from '../errors.js';
import { FileProblem, readRegularFile } from '../regularFile.js';

const NEWLINE = 0x0a;
const BOM = '\uFEFF';

/** One line of a file, 1-based, without its line break. */
export interface TextLine {
  line: number;
  text: string;
}

function notUtf8Error(file: string, line: number): InputError {
  return new InputError({ file, line }, 'file is not UTF-8', 're-save it as UTF-8');
}

/**
 * The file's text in blocks of whole lines (the last may lack its line break), BOM removed.
 * Blocks are cut at '\n' bytes, which never occur inside a multi-byte UTF-8 sequence, so each block can be
 * checked on its own; memory stays bounded by the chunk size plus the longest line. Throws an InputError at
 * the first line that is not valid UTF-8 after yielding the valid lines before it. (readline cannot do this:
 * it replaces bad bytes with U+FFFD without a word.)
 */
export async function* readUtf8Blocks(file: string, signal?: AbortSignal): AsyncGenerator<string> {
  const stream = createReadStream(file, { signal, highWaterMark: 1 << 16 });
  let carry: Buffer[] = [];
  let linesBefore = 0;
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const lastBreak = chunk.lastIndexOf(NEWLINE);
      if (lastBreak === -1) {
        carry.push(chunk);
        continue;
      }
      carry.push(chunk.subarray(0, lastBreak + 1));
      const block = joinBuffers(carry);
      carry = lastBreak + 1 < chunk.length ? [chunk.subarray(lastBreak + 1)] : [];
      yield* checkedBlock(file, block, linesBefore, first);
      linesBefore += countByte(block, NEWLINE);
      first = false;
    }
    if (carry.length > 0) yield* checkedBlock(file, joinBuffers(carry), linesBefore, first);
  } finally {
    stream.destroy();
  }
}

/** The file's lines one at a time ('\r\n' and '\n' endings), streamed. Blank lines are included. */
export async function* readLines(file: string, signal?: AbortSignal): AsyncGenerator<TextLine> {
  let line = 0;
  for await (const block of readUtf8Blocks(file, signal)) {
    const parts = block.split('\n');
    // A block ends with '\n' except at the end of the file, so the last part is the empty rest after it.
    if (block.endsWith('\n')) parts.pop();
    for (const part of parts) {
      line += 1;
      yield { line, text: part.endsWith('\r') ? part.slice(0, -1) : part };
    }
  }
}

/** Decodes a whole file's bytes, BOM removed; throws an InputError naming the first line that is not UTF-8. */
export function decodeUtf8(file: string, bytes: Buffer): string {
  return checkedText(file, bytes, 0, true);
}

/** Yields the block's text; for a block that is not UTF-8, yields the good lines before the bad one, then throws. */
function* checkedBlock(file: string, bytes: Buffer, linesBefore: number, first: boolean): Generator<string> {
  if (isUtf8(bytes)) {
    yield toText(bytes, first);
    return;
  }
  const bad = firstInvalidLine(bytes);
  if (bad.offset > 0) yield toText(bytes.subarray(0, bad.offset), first);
  throw notUtf8Error(file, linesBefore + bad.line);
}

function checkedText(file: string, bytes: Buffer, linesBefore: number, first: boolean): string {
  if (!isUtf8(bytes)) throw notUtf8Error(file, linesBefore + firstInvalidLine(bytes).line);
  return toText(bytes, first);
}

function toText(bytes: Buffer, first: boolean): string {
  const text = bytes.toString('utf8');
  return first && text.startsWith(BOM) ? text.slice(1) : text;
}

/** The 1-based line (within `bytes`) holding the first invalid UTF-8 sequence, and the byte offset where it starts. */
function firstInvalidLine(bytes: Buffer): { line: number; offset: number } {
  let start = 0;
  for (let line = 1; ; line++) {
    const end = bytes.indexOf(NEWLINE, start);
    const lineBytes = bytes.subarray(start, end === -1 ? bytes.length : end);
    if (!isUtf8(lineBytes) || end === -1) return { line, offset: start };
    start = end + 1;
  }
}

function joinBuffers(parts: Buffer[]): Buffer {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function countByte(bytes: Buffer, byte: number): number {
  let count = 0;
  for (let at = bytes.indexOf(byte); at !== -1; at = bytes.indexOf(byte, at + 1)) count += 1;
  return count;
}

/**
 * A whole file as text, for the formats that must be parsed whole (JSON arrays, YAML): the decoded text, or the
 * InputError saying the file is not UTF-8. Other read failures (permissions, a vanished file) are thrown.
 */
export async function readWholeText(file: string, signal?: AbortSignal): Promise<string | InputError> {
  try {
    const bytes = await readRegularFile(file);
    signal?.throwIfAborted();
    return decodeUtf8(file, bytes);
  } catch (error) {
    if (error instanceof InputError) return error;
    // A named pipe or a device in a file's place (a trace file, a dataset replaced after its check): said, not waited on.
    if (error instanceof FileProblem && error.kind !== 'unreadable') return new InputError({ file }, `the file ${error.says}`, 'give a regular file');
    throw error;
  }
}
