// Where a run log's stored texts are (byte ranges of their text lines) and a bounded cache of the ones read, so a
// reader rebuilds any case from one open file without holding every text of a large log.
import type { FileHandle } from 'node:fs/promises';
import type { StoredCase } from './caseText.js';
import { decodeLogLine } from './logLine.js';
import { SharedTable } from './sharedValues.js';
import { MissingTextError, textIdsOf } from './caseText.js';

/** Recently read texts kept in memory, in UTF-16 units: a needle haystack at 128k tokens is ~0.5 M. */
const CACHE_CHARS = 16 * 1024 * 1024;

export class LogTexts {
  private readonly where = new Map<string, { offset: number; length: number }>();
  private readonly cache = new Map<string, string>();
  private cachedChars = 0;

  /** A text line at `offset` (bytes, without the newline); the first copy of an id is the one read. */
  note(id: string, offset: number, length: number): void {
    if (!this.where.has(id)) this.where.set(id, { offset, length });
  }

  /** A text already in hand (the line was just parsed): kept so it is not read again soon. */
  keep(id: string, text: string): void {
    if (this.cache.has(id)) return;
    this.cache.set(id, text);
    this.cachedChars += text.length;
    for (const [oldest, value] of this.cache) {
      if (this.cachedChars <= CACHE_CHARS || oldest === id) break;
      this.cache.delete(oldest);
      this.cachedChars -= value.length;
    }
  }

  has(id: string): boolean {
    return this.where.has(id) || this.cache.has(id);
  }

  /** The texts `stored` refers to, read from `handle` where not cached. */
  async resolve(stored: StoredCase, handle: FileHandle): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    for (const id of textIdsOf(stored)) {
      let text = this.cache.get(id);
      if (text === undefined) {
        text = await this.read(id, handle);
        this.keep(id, text);
      } else {
        // Most recently used last.
        this.cache.delete(id);
        this.cache.set(id, text);
      }
      texts.set(id, text);
    }
    return texts;
  }

  private async read(id: string, handle: FileHandle): Promise<string> {
    const range = this.where.get(id);
    if (!range) throw new MissingTextError(`text ${id} is not in the run log`);
    const buffer = Buffer.alloc(range.length);
    const { bytesRead } = await handle.read(buffer, 0, range.length, range.offset);
    // A text line refers to no shared value: an empty table is enough to decode it.
    const decoded = decodeLogLine(buffer.subarray(0, bytesRead).toString('utf8'), new SharedTable(), 0);
    const line = 'line' in decoded && decoded.line.type === 'text' ? decoded.line : undefined;
    if (line?.id !== id) throw new MissingTextError(`text ${id} is not where the log said (the log was replaced or rewritten since it was read)`);
    return line.text;
  }
}
