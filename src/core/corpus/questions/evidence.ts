// Finds a quote the generating model copied from a chunk, and turns it into a char range of the source file: the
// question's relevant span. A quote that is not in the chunk (a paraphrase, an invention) finds nothing.
import type { Chunk } from '../contract.js';
import type { RelevantSpan } from './model.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The quote's range inside `chunk.text`: exactly, else with any run of whitespace matching any other (models reflow
 * line breaks and double spaces); trailing quote marks and ellipses the model added are ignored.
 */
export function locateQuote(chunk: Chunk, quote: string): { start: number; end: number } | undefined {
  const trimmed = quote.trim().replace(/^["'“”…]+|["'“”…]+$/gu, '').trim();
  if (trimmed === '') return undefined;
  const exact = chunk.text.indexOf(trimmed);
  if (exact >= 0) return { start: exact, end: exact + trimmed.length };
  const pattern = new RegExp(trimmed.split(/\s+/u).map(escape).join('\\s+'), 'u');
  const found = pattern.exec(chunk.text);
  return found ? { start: found.index, end: found.index + found[0].length } : undefined;
}

/** The span of the source file the quote covers (`chunk.startChar` is the chunk's offset in its document's text). */
export function spanOfQuote(chunk: Chunk, quote: string, grade: number): RelevantSpan | undefined {
  const at = locateQuote(chunk, quote);
  return at && { file: chunk.file, start: chunk.startChar + at.start, end: chunk.startChar + at.end, grade };
}
