// Byte-level reading of JSON Lines files: streaming lines with their numbers, lines with their byte ranges, the first
// line, the last complete line.
import { isUtf8 } from 'node:buffer';
import type { FileHandle } from 'node:fs/promises';
import { openRegularFile } from '../regularFile.js';

const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;
/** Read size for scans over whole files (a run log index, the response cache's index). */
const SCAN_CHUNK = 1024 * 1024;

export interface TextLine {
  /** 1-based. */
  number: number;
  text: string;
  /** False for a final fragment with no newline: a write cut short by a crash. */
  complete: boolean;
  /** False when the bytes are not valid UTF-8 (`text` then holds replacement characters): a damaged file. */
  utf8: boolean;
}

/** Streams a file's lines without holding more than one line and one chunk in memory. */
export async function* readLines(file: string): AsyncGenerator<TextLine> {
  let pending: Buffer[] = [];
  let number = 0;
  // A named pipe among the logs would block this read forever: refused (a FileProblem) before reading.
  const handle = await openRegularFile(file);
  for await (const chunk of handle.createReadStream({ highWaterMark: 1024 * 1024 }) as AsyncIterable<Buffer>) {
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      pending.push(chunk.subarray(start, end));
      const bytes = Buffer.concat(pending);
      yield { number: ++number, text: bytes.toString('utf8'), complete: true, utf8: isUtf8(bytes) };
      pending = [];
      start = end + 1;
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  }
  if (pending.length > 0) {
    const bytes = Buffer.concat(pending);
    yield { number: ++number, text: bytes.toString('utf8'), complete: false, utf8: isUtf8(bytes) };
  }
}

/** A complete line and where it is in its file. */
export interface LineBytes {
  /** 1-based. */
  number: number;
  /** Byte offset of the line's first byte. */
  offset: number;
  /** In bytes, without the newline. */
  length: number;
  /** The line's bytes: a view into the read buffer, valid only until the scan moves on (copy what you keep). */
  bytes: Buffer;
}

/**
 * Complete lines from `start` to the last newline before `end`, with their byte offsets, undecoded. Only a line that
 * spans reads is copied together. A fragment after the last newline is not yielded (a writer may be in the middle of
 * it, or was cut short by a crash): a later scan resumes at the end of the last line yielded.
 */
export async function* scanLineBytes(handle: FileHandle, start: number, end: number, firstNumber = 1): AsyncGenerator<LineBytes> {
  let number = firstNumber - 1;
  let carry: Buffer[] = [];
  let carryStart = start;
  let position = start;
  while (position < end) {
    const buffer = Buffer.allocUnsafe(Math.min(SCAN_CHUNK, end - position));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let from = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, from)) {
      const offset = carry.length > 0 ? carryStart : position + from;
      const bytes = carry.length > 0 ? Buffer.concat([...carry, chunk.subarray(from, newline)]) : chunk.subarray(from, newline);
      carry = [];
      from = newline + 1;
      yield { number: ++number, offset, length: bytes.length, bytes };
    }
    if (from < chunk.length) {
      if (carry.length === 0) carryStart = position + from;
      // Copied: keeping a view would hold the whole 1 MB chunk for a short fragment.
      carry.push(Buffer.from(chunk.subarray(from)));
    }
    position += bytesRead;
  }
}

/** A complete line, decoded, and where it is. */
export interface LocatedLine extends Omit<LineBytes, 'bytes'> {
  text: string;
  /** False when the bytes are not valid UTF-8 (`text` then holds replacement characters). */
  utf8: boolean;
}

/** scanLineBytes with each line decoded as UTF-8. */
export async function* scanLines(handle: FileHandle, start: number, end: number, firstNumber = 1): AsyncGenerator<LocatedLine> {
  for await (const { number, offset, length, bytes } of scanLineBytes(handle, start, end, firstNumber)) {
    yield { number, offset, length, text: bytes.toString('utf8'), utf8: isUtf8(bytes) };
  }
}

/** Offset of the last `byte` before `before`, or -1; reads backwards a chunk at a time. */
export async function findLastByte(handle: FileHandle, byte: number, before: number): Promise<number> {
  const buffer = Buffer.alloc(CHUNK);
  let end = before;
  while (end > 0) {
    const start = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, end - start, start);
    const found = buffer.subarray(0, bytesRead).lastIndexOf(byte);
    if (found !== -1) return start + found;
    end = start;
  }
  return -1;
}

/** The first line (without its newline), and whether it was complete; undefined for an empty file. */
export async function readFirstLine(handle: FileHandle): Promise<{ text: string; complete: boolean } | undefined> {
  const parts: Buffer[] = [];
  let position = 0;
  for (;;) {
    const buffer = Buffer.alloc(CHUNK);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
    if (bytesRead === 0) break;
    const newline = buffer.subarray(0, bytesRead).indexOf(NEWLINE);
    if (newline !== -1) {
      parts.push(buffer.subarray(0, newline));
      return { text: Buffer.concat(parts).toString('utf8'), complete: true };
    }
    parts.push(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return parts.length === 0 ? undefined : { text: Buffer.concat(parts).toString('utf8'), complete: false };
}

/** The last newline-terminated line of a file of `size` bytes (a trailing fragment is skipped), or undefined. */
export async function readLastCompleteLine(handle: FileHandle, size: number): Promise<string | undefined> {
  const end = await findLastByte(handle, NEWLINE, size);
  if (end === -1) return undefined;
  const start = (await findLastByte(handle, NEWLINE, end)) + 1;
  const buffer = Buffer.alloc(end - start);
  await handle.read(buffer, 0, buffer.length, start);
  return buffer.toString('utf8');
}
