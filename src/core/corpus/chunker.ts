// Cuts a document into chunks by tokens (size and overlap) or by Markdown heading (a section per heading, a long one
// cut by tokens), each an exact slice of the document's text that knows its source lines.
import type { ChunkingSpec } from '../retrieval/indexSpec.js';
import type { Tokenizer } from '../prompt/tokens.js';
import type { Chunk, CorpusDocument, ExtractedText } from './contract.js';
import { HEADING_SEPARATOR, markdownSections } from './markdownSections.js';
import { sourceLineLocator } from './sourceLines.js';
import { tokenOffsets } from './tokenOffsets.js';
import { cutClass } from './cutPoints.js';

/** A stretch of the text chunked on its own: a JSONL record, a heading section, or the whole document. */
interface Region {
  start: number;
  end: number;
  heading?: string;
}

type ExtractedRecord = NonNullable<ExtractedText['records']>[number];

/** The chunk id: `<file>#<startChar>-<endChar>`. */
export function chunkId(file: string, startChar: number, endChar: number): string {
  return `${file}#${startChar}-${endChar}`;
}

/** Throws a RangeError for settings no chunking can honour (the spec layer says so to the user first). */
export function checkChunking(chunking: ChunkingSpec): void {
  if (!Number.isInteger(chunking.size) || chunking.size < 1) throw new RangeError(`chunk size must be a whole number of tokens ≥ 1, not ${chunking.size}`);
  if (!Number.isInteger(chunking.overlap) || chunking.overlap < 0 || chunking.overlap >= chunking.size) {
    throw new RangeError(`chunk overlap must be a whole number of tokens from 0 to size − 1 (${chunking.size - 1}), not ${chunking.overlap}`);
  }
}

/**
 * The document's chunks in text order. `chunk.text === document.text.slice(startChar, endChar)`; chunks hold at most
 * `size` tokens (a single character that alone takes more is kept whole), start and end on non-blank text, and never
 * cross a JSONL record. By tokens, consecutive chunks share about `overlap` tokens.
 */
export function chunkDocument(document: CorpusDocument, chunking: ChunkingSpec, tokenizer: Tokenizer): Chunk[] {
  checkChunking(chunking);
  const lineOf = sourceLineLocator(document);
  const chunks: Chunk[] = [];
  for (const region of regionsOf(document, chunking)) {
    cutRegion(document.text, region, chunking, tokenizer, (start, end) => {
      const text = document.text.slice(start, end);
      chunks.push({
        id: chunkId(document.file, start, end),
        file: document.file,
        text,
        startChar: start,
        endChar: end,
        startLine: lineOf(start),
        endLine: lineOf(end - 1),
        ...(region.heading === undefined ? {} : { heading: region.heading }),
        tokens: tokenizer.count(text),
      });
    });
  }
  return chunks;
}

function regionsOf(document: CorpusDocument, chunking: ChunkingSpec): Region[] {
  const records: ExtractedRecord[] = document.extracted?.records ?? [{ start: 0, end: document.text.length, line: 1 }];
  const regions: Region[] = [];
  for (const record of records) {
    const label = record.title ?? record.id;
    if (chunking.by === 'tokens') {
      regions.push({ start: record.start, end: record.end, ...(label === undefined ? {} : { heading: label }) });
      continue;
    }
    for (const section of markdownSections(document.text.slice(record.start, record.end))) {
      const heading = [label, section.heading].filter((part) => part !== undefined).join(HEADING_SEPARATOR);
      regions.push({ start: record.start + section.start, end: record.start + section.end, ...(heading === '' ? {} : { heading }) });
    }
  }
  return regions;
}

/** [start, end) with the whitespace at both ends left out; undefined when nothing but whitespace is left. */
function trimmed(text: string, start: number, end: number): [number, number] | undefined {
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return start < end ? [start, end] : undefined;
}

/** Emits the region whole when it fits in `size` tokens, else cut on token boundaries. */
function cutRegion(text: string, region: Region, chunking: ChunkingSpec, tokenizer: Tokenizer, emit: (start: number, end: number) => void): void {
  const whole = trimmed(text, region.start, region.end);
  if (!whole) return;
  const regionText = text.slice(whole[0], whole[1]);
  const { tokens, starts } = tokenOffsets(regionText, tokenizer);
  if (tokens.length <= chunking.size) {
    emit(whole[0], whole[1]);
    return;
  }
  const base = whole[0];
  const count = tokens.length;
  // How far back from the size limit a better place to cut (a paragraph, line or sentence end, a word's edge) is looked for.
  const lookback = Math.max(1, Math.floor(chunking.size / 4));
  let lastEnd = 0;
  let from = 0;
  for (;;) {
    let to = Math.min(count, from + chunking.size);
    if (to < count) to = bestCut(regionText, starts, from + 1, to, lookback);
    const range = trimmed(regionText, starts[from] as number, starts[to] as number);
    // A chunk that adds nothing past the previous one (possible when a character spans more tokens than the overlap) is skipped.
    if (range && range[1] > lastEnd) {
      emit(base + range[0], base + range[1]);
      lastEnd = range[1];
    }
    if (to >= count) return;
    from = nextStart(regionText, starts, from, to, chunking.overlap, lookback);
  }
}

/** The token index in [low, high] to end a chunk at: the best kind of place within `lookback` of `high`, latest on ties. */
function bestCut(text: string, starts: Int32Array, low: number, high: number, lookback: number): number {
  let best = high;
  let bestClass = -1;
  for (let k = high; k >= Math.max(low, high - lookback); k--) {
    const at = starts[k] as number;
    if (at === starts[k - 1]) continue; // inside a character split across tokens: no cut there
    const kind = cutClass(text, at);
    if (kind > bestClass) {
      best = k;
      bestClass = kind;
    }
  }
  return best;
}

/** Where the next chunk starts: `overlap` tokens before `to`, moved back to a word's edge when one is near, always past `from`. */
function nextStart(text: string, starts: Int32Array, from: number, to: number, overlap: number, lookback: number): number {
  const target = Math.max(from + 1, to - overlap);
  if (overlap === 0) return target;
  for (let k = target; k >= Math.max(from + 1, target - lookback); k--) {
    if (starts[k] !== starts[k - 1] && cutClass(text, starts[k] as number) > 0) return k;
  }
  return target;
}
