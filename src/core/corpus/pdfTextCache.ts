// The text read from each PDF, kept by the sha256 of its bytes (`.rag-inspector/cache/pdf-text/`): every build reads
// the whole folder, and pdf.js takes tens of milliseconds a page, so a PDF is read again only when its bytes change.
// A PDF that cannot be read is not kept (its problem is found and said again at every build).
import * as path from 'node:path';
import { InputError } from '../errors.js';
import { JsonEntryStore } from '../run/jsonEntryStore.js';
import { pdfExtracted } from './pdf.js';
import type { PdfText } from './pdf.js';

const FORMAT = 1;

interface Entry {
  format: typeof FORMAT;
  text: string;
  pages: Array<[number, number]>;
  /** What was said about the PDF when it was read (a page left out, the page limit), said again from the cache. */
  problems: Array<{ message: string; hint?: string }>;
}

const isPair = (value: unknown): value is [number, number] => Array.isArray(value) && value.length === 2 && value.every((n) => Number.isInteger(n) && (n as number) >= 0);

function readEntry(value: unknown): Entry | undefined {
  const entry = value as Partial<Entry> | null;
  if (entry?.format !== FORMAT || typeof entry.text !== 'string' || !Array.isArray(entry.pages) || !entry.pages.every(isPair)) return undefined;
  if (!Array.isArray(entry.problems) || !entry.problems.every((p) => typeof p?.message === 'string' && (p.hint === undefined || typeof p.hint === 'string'))) return undefined;
  return entry as Entry;
}

/** Where the PDF texts of a workspace's `.rag-inspector` (`stateDir`) are kept. */
export function pdfTextCacheDir(stateDir: string): string {
  return path.join(stateDir, 'cache', 'pdf-text');
}

export class PdfTextCache {
  private readonly store: JsonEntryStore<Entry>;

  constructor(readonly dir: string) {
    this.store = new JsonEntryStore(dir, readEntry, (entry) => entry);
  }

  /** The PDF's text from the cache when its bytes were read before, else `read()`'s, kept for the next time. */
  async text(contentHash: string, file: string, read: () => Promise<PdfText>): Promise<PdfText> {
    const kept = await this.store.get(contentHash);
    if (kept) {
      return {
        text: kept.text,
        extracted: pdfExtracted(kept.text, kept.pages),
        problems: kept.problems.map((problem) => new InputError({ file }, problem.message, problem.hint)),
      };
    }
    const fresh = await read();
    const problems = fresh.problems.map((problem) => ({ message: problem.message, ...(problem.hint === undefined ? {} : { hint: problem.hint }) }));
    // A cache that cannot be written costs the next build time, never this one its result.
    await this.store.set(contentHash, { format: FORMAT, text: fresh.text, pages: fresh.extracted.pages ?? [], problems }).catch(() => undefined);
    return fresh;
  }
}
