// Cuts a document into chunks by tokens (size and overlap) or by Markdown heading (a section per heading, a long one
// cut by tokens), each an exact slice of the document's text that knows its source lines.
import type { ChunkingSpec } from '../retrieval/indexSpec.js';
import type { Tokenizer } from '../prompt/tokens.js';
import type { Chunk, CorpusDocument, ExtractedText } from './contract.js';
import { HEADING_SEPARATOR, markdownSections } from './markdownSections.js';
import { pageLocator, sourceLineLocator } from './sourceLines.js';
import { tokenOffsets } from './tokenOffsets.js';
import { cutClass } from './cutPoints.js';
import type { CutClass } from './cutPoints.js';

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
 * `size` tokens (except what cannot be cut smaller: one character as a reader sees it, or one token of the text that
 * counts more once the space before it is trimmed), start and end on non-blank text, end at a paragraph, line,
 * sentence or word edge when one lies within the last quarter of the size, and never cross a JSONL record. By tokens,
 * consecutive chunks share about `overlap` tokens, starting at a word.
 */
export function chunkDocument(document: CorpusDocument, chunking: ChunkingSpec, tokenizer: Tokenizer): Chunk[] {
  checkChunking(chunking);
  const lineOf = sourceLineLocator(document);
  const pageOf = pageLocator(document);
  const chunks: Chunk[] = [];
  for (const region of regionsOf(document, chunking)) {
    cutRegion(document.text, region, chunking, tokenizer, (start, end, tokens) => {
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
        tokens,
        ...(pageOf ? { startPage: pageOf(start), endPage: pageOf(end - 1) } : {}),
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
function cutRegion(text: string, region: Region, chunking: ChunkingSpec, tokenizer: Tokenizer, emit: (start: number, end: number, tokens: number) => void): void {
  const whole = trimmed(text, region.start, region.end);
  if (!whole) return;
  const regionText = text.slice(whole[0], whole[1]);
  const offsets = tokenOffsets(regionText, tokenizer);
  const count = offsets.tokens.length;
  if (count <= chunking.size) {
    emit(whole[0], whole[1], count);
    return;
  }
  const cuts = new CutFinder(regionText, offsets.starts, Math.max(1, Math.floor(chunking.size / 4)));
  const base = whole[0];
  const pieces: Array<[start: number, end: number, tokens: number]> = [];
  let from = 0;
  for (;;) {
    let to = Math.min(count, from + chunking.size);
    if (to < count) to = cuts.end(from + 1, to);
    let range = trimmed(regionText, cuts.at(from), cuts.at(to));
    let tokens = range ? tokenizer.count(regionText.slice(range[0], range[1])) : 0;
    // Cut alone, a piece can take more tokens than it did in the text (a word without the space before it): shorter then.
    while (range && tokens > chunking.size && to > from + 1) {
      const shorter = cuts.end(from + 1, to - 1);
      if (shorter >= to) break; // nothing shorter can be cut (only places inside a character before `to`)
      to = shorter;
      range = trimmed(regionText, cuts.at(from), cuts.at(to));
      tokens = range ? tokenizer.count(regionText.slice(range[0], range[1])) : 0;
    }
    // A chunk that adds nothing past the previous one (possible when a character spans more tokens than the overlap) is
    // skipped; one that starts where the previous one did (cut short above) replaces it.
    const previous = pieces.at(-1);
    if (range && (!previous || range[1] > previous[1])) {
      if (previous?.[0] === range[0]) pieces.pop();
      pieces.push([range[0], range[1], tokens]);
    }
    if (to >= count) break;
    from = cuts.start(from, to, chunking.overlap);
  }
  for (const [start, end, tokens] of pieces) emit(base + start, base + end, tokens);
}

/** Token boundaries to cut at, chosen by how good a place they are in the text (cutPoints.ts). */
class CutFinder {
  constructor(private readonly text: string, private readonly starts: Int32Array, private readonly lookback: number) {}

  /** The character offset of token boundary `k`. */
  at(k: number): number {
    return this.starts[k] as number;
  }

  /** How good cutting before token `k` is; −1 also inside a character split across tokens. */
  private classOf(k: number): CutClass {
    if (k >= this.starts.length - 1) return 3;
    return this.starts[k] === this.starts[k - 1] ? -1 : cutClass(this.text, this.at(k));
  }

  /**
   * The boundary in [low, high] to end a chunk at: the best kind of place within `lookback` of `high`, latest on ties.
   * With none but places inside a character there, the nearest allowed one before, else after `high` (a chunk over
   * the size rather than a broken character).
   */
  end(low: number, high: number): number {
    let best = high;
    let bestClass: CutClass = -1;
    for (let k = high; k >= Math.max(low, high - this.lookback); k--) {
      const kind = this.classOf(k);
      if (kind > bestClass) {
        best = k;
        bestClass = kind;
      }
    }
    if (bestClass >= 0) return best;
    for (let k = high - this.lookback - 1; k >= low; k--) if (this.classOf(k) >= 0) return k;
    const last = this.starts.length - 1;
    for (let k = high + 1; k < last; k++) if (this.classOf(k) >= 0) return k;
    return last;
  }

  /**
   * Where the chunk after one ending at `to` starts: `overlap` tokens back, moved to a word's edge when one is near
   * (back within `lookback`, else forward), always past `from` and never past `to`.
   */
  start(from: number, to: number, overlap: number): number {
    const target = Math.max(from + 1, to - overlap);
    if (overlap === 0) return to;
    for (let k = target; k >= Math.max(from + 1, target - this.lookback); k--) if (this.classOf(k) >= 1) return k;
    for (let k = target + 1; k < to; k++) if (this.classOf(k) >= 1) return k;
    for (let k = target; k < to; k++) if (this.classOf(k) >= 0) return k;
    return to;
  }
}
