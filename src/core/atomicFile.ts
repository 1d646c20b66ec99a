// Files replaced whole or not at all: written to a temporary file in the same folder (so the rename stays on one file
// system) and renamed over the real name once complete. A reader, or a process killed half way (Ctrl-C during a
// report), never sees a truncated file under the real name, and the good file it replaces survives until then.
import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';

/** A fresh name beside `file`: `<file>.<pid>.<random>.tmp`. */
export function temporaryFileFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/** Runs `write` on a temporary file beside `file`, then renames it into place; on failure the temporary file is removed and `file` left as it was. */
export async function replaceFileAtomically(file: string, write: (temporary: string) => Promise<void>): Promise<void> {
  const temporary = temporaryFileFor(file);
  try {
    await write(temporary);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `writeFile`, atomically (see replaceFileAtomically). */
export function writeFileAtomically(file: string, data: string): Promise<void> {
  return replaceFileAtomically(file, (temporary) => writeFile(temporary, data, { flag: 'wx' }));
}
