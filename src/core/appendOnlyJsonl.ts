// An append-only JSON Lines file of small records a person writes (verdicts, reviews of generated questions): each
// append is one appendFile per line (a single O_APPEND write) and this process's appends go one after another, so lines
// from two windows or a burst of keys never interleave; a line cut short by a crash, or of another shape, is skipped.
import { appendFile, mkdir } from 'node:fs/promises';
import * as path from 'node:path';
import { openRegularFile, readRegularFile } from './regularFile.js';
import type { FileProblem } from './regularFile.js';

/** Read whole: tens of thousands of lines fit; a file far larger is refused, not read into memory. */
export const MAX_APPEND_ONLY_BYTES = 64 * 1024 * 1024;

export class AppendOnlyJsonl<T> {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string, private readonly isLine: (value: unknown) => value is T, private readonly maxBytes = MAX_APPEND_ONLY_BYTES) {}

  /** Appends the lines in order; resolves when they are on disk. A path that is no regular file rejects with a FileProblem. */
  append(lines: readonly T[]): Promise<void> {
    const write = this.queue.then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true });
      // After a crash mid-write the file ends in a torn line: end it, or the next line would be joined to it and lost.
      if (await endsTorn(this.file)) await appendFile(this.file, '\n', 'utf8');
      for (const line of lines) await appendFile(this.file, `${JSON.stringify(line)}\n`, 'utf8');
    });
    this.queue = write.catch(() => undefined);
    return write;
  }

  /**
   * Every readable line of the expected shape, in file order; a missing file has none. Throws a FileProblem for a
   * file that is no regular file (a named pipe would block the read) or is above the size limit.
   */
  async lines(): Promise<T[]> {
    let text: string;
    try {
      text = (await readRegularFile(this.file, this.maxBytes)).toString('utf8');
    } catch (error) {
      if ((error as FileProblem).kind === 'missing') return [];
      throw error;
    }
    const lines: T[] = [];
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      try {
        const value = JSON.parse(raw) as unknown;
        if (this.isLine(value)) lines.push(value);
      } catch {
        // A torn last line (a crash mid-write): the rest of the file is still good.
      }
    }
    return lines;
  }
}

/**
 * Whether the file's last byte is not a newline (a line cut short); a missing or empty file is not. Anything but a
 * regular file is a FileProblem: appending to a named pipe would block until something reads it.
 */
async function endsTorn(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await openRegularFile(file);
  } catch (error) {
    if ((error as FileProblem).kind === 'missing') return false;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size === 0) return false;
    const last = Buffer.alloc(1);
    await handle.read(last, 0, 1, size - 1);
    return last[0] !== 0x0a;
  } finally {
    await handle.close();
  }
}
