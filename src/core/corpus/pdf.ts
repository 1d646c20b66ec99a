// The text of a PDF, its pages in order, with where each page starts: read by Mozilla's pdf.js (unpdf's serverless
// build, no worker thread and no canvas, loaded on first use as dist/vendor/pdf.js) in this thread, one page at a
// time, so a cancel is honoured between pages and a PDF of more than `maxPages` pages is read only that far. A PDF
// that is encrypted, broken or holds only images is an InputError naming it; a single bad page is left out and said.
import { InputError } from '../errors.js';
import { loadVendor } from '../vendor/load.js';
import type { ExtractedText } from './contract.js';
import type { ExtractedTextWithText } from './html.js';
import { lineStarts } from './sourceLines.js';
import { wellFormed } from './tokenOffsets.js';

/** Pages read of one PDF at most: past this a file is a book or a scan dump, and the build would stall on it. */
export const MAX_PDF_PAGES = 2000;

/** Between two pages' text: a blank line, a paragraph edge for the chunker. */
const PAGE_SEPARATOR = '\n\n';

/**
 * A line starting further below the previous one than this many times the smaller of their font heights starts a
 * new paragraph (a blank line): body text is set at about 1.2, a paragraph or heading gap adds a line or more.
 */
const PARAGRAPH_GAP = 1.75;

export interface PdfOptions {
  signal?: AbortSignal;
  /** Pages read at most (MAX_PDF_PAGES); the rest is said as a problem. */
  maxPages?: number;
  /** Told after each page is read: `page` of `pages` (the number that will be read). */
  onPage?: (page: number, pages: number) => void;
}

/** What a PDF gives: its text (pages joined by blank lines), lines counted in that text, where each page starts. */
export type PdfText = ExtractedTextWithText & { problems: InputError[] };

/** The text pdf.js gives for one piece of a page (the marked-content markers it may also give have no `str`). */
interface TextPiece {
  str: string;
  hasEOL: boolean;
  transform: number[];
  height: number;
}

/**
 * Reads `bytes` as a PDF. `file` names it in messages. Throws an InputError when nothing can be indexed (encrypted,
 * not a PDF, no text on any page); rethrows the signal's reason when cancelled.
 */
export async function pdfText(bytes: Uint8Array, file: string, options: PdfOptions = {}): Promise<PdfText> {
  const { signal } = options;
  signal?.throwIfAborted();
  const pdfjs = await loadVendor('pdf').getResolvedPDFJS();
  // A copy: pdf.js may take over (detach) the buffer it is given.
  const task = pdfjs.getDocument({
    data: new Uint8Array(bytes),
    // Text only: fonts are read for their character maps, nothing is drawn and nothing is fetched.
    disableFontFace: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    isOffscreenCanvasSupported: false,
    verbosity: pdfjs.VerbosityLevel.ERRORS,
  });
  const cancel = () => void task.destroy();
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (error) {
      signal?.throwIfAborted();
      throw unreadable(error, file);
    }
    const pages = Math.min(document.numPages, options.maxPages ?? MAX_PDF_PAGES);
    const problems: InputError[] = [];
    const parts: string[] = [];
    const pageStarts: Array<[number, number]> = [];
    let length = 0;
    for (let number = 1; number <= pages; number++) {
      signal?.throwIfAborted();
      let text: string;
      try {
        const page = await document.getPage(number);
        text = pageText((await page.getTextContent()).items as ReadonlyArray<TextPiece | object>);
        page.cleanup();
      } catch (error) {
        signal?.throwIfAborted();
        problems.push(new InputError({ file }, `page ${number} could not be read (${messageOf(error)}): left out, the other pages are indexed`, 'check that the page shows in a PDF viewer; save the PDF again from there'));
        continue;
      }
      if (text !== '') {
        if (length > 0) {
          parts.push(PAGE_SEPARATOR);
          length += PAGE_SEPARATOR.length;
        }
        pageStarts.push([length, number]);
        parts.push(text);
        length += text.length;
      }
      options.onPage?.(number, pages);
    }
    signal?.throwIfAborted();
    if (pageStarts.length === 0 && problems.length < pages) {
      throw new InputError({ file }, `has no text layer (its ${pages === 1 ? 'page is an image' : `${pages} pages are images`}): nothing to index`, 'OCR it first (for example with ocrmypdf), then index the copy with text');
    }
    if (pageStarts.length === 0) throw new InputError({ file }, 'no page of it could be read', 'check that it opens in a PDF viewer; save it again from there, or exclude it');
    if (document.numPages > pages) {
      problems.push(new InputError({ file }, `has ${document.numPages} pages: only the first ${pages} were read`, `split it into parts of at most ${pages} pages, or exclude it`));
    }
    const text = parts.join('');
    return { text, extracted: pdfExtracted(text, pageStarts), problems };
  } finally {
    signal?.removeEventListener('abort', cancel);
    await task.destroy();
  }
}

/** A PDF's map: its lines are those of the text itself (it has no source lines), its pages where each starts. */
export function pdfExtracted(text: string, pages: Array<[number, number]>): ExtractedText {
  return { lines: lineStarts(text).map((offset, i): [number, number] => [offset, i + 1]), pages };
}

/**
 * One page's text: pdf.js's pieces in its reading order, a line break where it ends a line, a blank line where the
 * next line starts a paragraph lower down; control characters (a broken font's character map) dropped, spaces at
 * the ends of lines and of the page trimmed.
 */
function pageText(items: ReadonlyArray<TextPiece | object>): string {
  let text = '';
  let atLineStart = true;
  let previous: { y: number; height: number } | undefined;
  for (const item of items) {
    if (!('str' in item)) continue;
    const y = item.transform[5] ?? 0;
    if (item.str.trim() !== '') {
      const height = previous ? Math.min(previous.height, item.height) : item.height;
      if (atLineStart && previous && text !== '' && !text.endsWith('\n\n') && Math.abs(previous.y - y) > PARAGRAPH_GAP * height) text += '\n';
      previous = { y, height: item.height > 0 ? item.height : previous?.height ?? 0 };
      atLineStart = false;
    }
    text += item.str;
    if (item.hasEOL) {
      if (!text.endsWith('\n\n')) text += '\n';
      atLineStart = true;
    }
  }
  return wellFormed(text.replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')).replace(/[ \t]+\n/g, '\n').trim();
}

/** Why pdf.js could not open the file, in words the user can act on. */
function unreadable(error: unknown, file: string): InputError {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') return new InputError({ file }, 'is encrypted (it opens only with a password): not read', 'save a copy without the password, or exclude it');
  return new InputError({ file }, `cannot be read as a PDF (${messageOf(error)})`, 'check that it opens in a PDF viewer; save it again from there, or exclude it');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
