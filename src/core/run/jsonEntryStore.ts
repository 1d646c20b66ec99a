// A content-addressed cache of one JSON file per key (embedding vectors, retrievals): written atomically, read back
// checked, a damaged entry removed and treated as a miss — a cache may forget, it must never lie.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { readRegularFile } from '../regularFile.js';
import type { FileProblem } from '../regularFile.js';

const KEY_PATTERN = /^[0-9a-f]{64}$/;

/**
 * One JSON file per key at `<dir>/<first two hex>/<key>.json`, written to a temporary file and renamed into place
 * (rename is atomic), as the response cache does: a reader never sees half an entry. `read` checks a parsed entry and
 * returns its value, or undefined for an entry of another format or shape (then removed).
 */
export class JsonEntryStore<T> {
  constructor(readonly dir: string, private readonly read: (entry: unknown) => T | undefined, private readonly write: (value: T) => unknown) {}

  pathOf(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new TypeError(`not a cache key: ${JSON.stringify(key)}`);
    return path.join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<T | undefined> {
    const file = this.pathOf(key);
    let text: string;
    try {
      text = (await readRegularFile(file)).toString('utf8'); // a named pipe in the cache is a damaged entry, never waited on
    } catch (error) {
      if ((error as FileProblem).kind !== 'missing') await rm(file, { force: true }).catch(() => undefined);
      return undefined;
    }
    let value: T | undefined;
    try {
      value = this.read(JSON.parse(text));
    } catch {
      value = undefined;
    }
    if (value === undefined) await rm(file, { force: true }).catch(() => undefined);
    return value;
  }

  async set(key: string, value: T): Promise<void> {
    const file = this.pathOf(key);
    const entry = this.write(value);
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, JSON.stringify(entry), { flag: 'wx' });
      try {
        await rename(temporary, file);
      } catch (error) {
        // Windows refuses a rename onto an open file; the entry there holds the same content (content addressing).
        if (!(await stat(file).then(() => true, () => false))) throw error;
      }
    } finally {
      await rm(temporary, { force: true });
    }
  }
}
