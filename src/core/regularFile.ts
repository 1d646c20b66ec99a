// The one check every reader makes before reading a user's file: that it is a regular file, and not too large.
// A named pipe blocks the read until something writes to it (a synchronous read blocks the event loop, so even Ctrl-C
// is ignored), a device such as /dev/zero never ends, and a folder or a link loop is not "not found". Files are opened
// without blocking (O_NONBLOCK, which a regular file ignores) and checked on the open descriptor, so a file swapped
// for a pipe between a check and the read cannot hang the process either.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';

export type FileProblemKind = 'missing' | 'not-a-file' | 'too-large' | 'unreadable';

/** A file that cannot be read as one: `says` completes a sentence about it ("is a named pipe, not a file"). */
export class FileProblem extends Error {
  constructor(readonly file: string, readonly kind: FileProblemKind, readonly says: string) {
    super(`${file} ${says}`);
    this.name = 'FileProblem';
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK;
const MB = 1024 * 1024;

/** What a non-regular file is, in the words a message uses; undefined for a regular file. */
export function describeNonRegular(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'is a folder, not a file';
  if (info.isFIFO()) return 'is a named pipe, not a file';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'is a device, not a file';
  if (info.isSocket()) return 'is a socket, not a file';
  return 'is not a regular file';
}

/** The FileProblem for a failed stat or open. */
export function problemOfError(file: string, error: unknown): FileProblem {
  if (error instanceof FileProblem) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new FileProblem(file, 'missing', 'does not exist');
  if (code === 'ELOOP') return new FileProblem(file, 'unreadable', 'is a symbolic link that loops back on itself');
  if (code === 'EACCES' || code === 'EPERM') return new FileProblem(file, 'unreadable', 'cannot be read (permission denied)');
  return new FileProblem(file, 'unreadable', `cannot be read (${(error as Error).message})`);
}

/** "12.5 MB" for a limit message. */
export function formatMegabytes(bytes: number): string {
  return `${Number((bytes / MB).toFixed(1))} MB`;
}

function checkOpened(file: string, info: Stats, maxBytes: number | undefined): void {
  const nonRegular = describeNonRegular(info);
  if (nonRegular) throw new FileProblem(file, 'not-a-file', nonRegular);
  if (maxBytes !== undefined && info.size > maxBytes) {
    throw new FileProblem(file, 'too-large', `is ${formatMegabytes(info.size)}, above the ${formatMegabytes(maxBytes)} limit`);
  }
}

/** Opens a regular file for reading (a FileHandle), or throws a FileProblem saying what it is instead. */
export async function openRegularFile(file: string, maxBytes?: number): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    throw problemOfError(file, error);
  }
  try {
    checkOpened(file, await handle.stat(), maxBytes);
    return handle;
  } catch (error) {
    await handle.close();
    throw problemOfError(file, error);
  }
}

/** The FileProblem of `file`, or undefined when it is a regular file within `maxBytes`. */
export async function regularFileProblem(file: string, maxBytes?: number): Promise<FileProblem | undefined> {
  try {
    await (await openRegularFile(file, maxBytes)).close();
    return undefined;
  } catch (error) {
    return problemOfError(file, error);
  }
}

/** A whole regular file of at most `maxBytes` (a file that grows while read is cut there); throws a FileProblem. */
export async function readRegularFile(file: string, maxBytes?: number): Promise<Buffer> {
  const handle = await openRegularFile(file, maxBytes);
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return filled === size ? buffer : buffer.subarray(0, filled);
  } catch (error) {
    throw problemOfError(file, error);
  } finally {
    await handle.close();
  }
}

/** readRegularFile for the few synchronous readers (a template's includes, read while LiquidJS parses). */
export function readRegularFileSync(file: string, maxBytes?: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    throw problemOfError(file, error);
  }
  try {
    const info = fstatSync(fd);
    checkOpened(file, info, maxBytes);
    const buffer = Buffer.alloc(info.size);
    let filled = 0;
    while (filled < info.size) {
      const read = readSync(fd, buffer, filled, info.size - filled, filled);
      if (read === 0) break;
      filled += read;
    }
    return filled === info.size ? buffer : buffer.subarray(0, filled);
  } catch (error) {
    throw problemOfError(file, error);
  } finally {
    closeSync(fd);
  }
}
