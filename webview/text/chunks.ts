// Cuts a long text into chunks for the virtualised viewer and keeps their positions as heights become known (pure).
import type { MarkSpan } from './segments.js';

export interface Chunk { start: number; end: number }

/** Target chunk size: a few screen lines of prose each, so a viewport holds a handful and one text node stays small. */
export const CHUNK_CHARS = 2000;

/**
 * Chunks of about `target` characters that end after a newline when one is near (so paragraphs are not split and
 * the layout matches one continuous text), else after a space, else anywhere (a 1 MB line without spaces).
 */
export function chunkText(text: string, target = CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + target);
    if (end < text.length) {
      const window = text.slice(start + Math.floor(target / 2), Math.min(text.length, start + Math.floor(target * 1.5)));
      const newline = window.lastIndexOf('\n');
      const space = text.lastIndexOf(' ', end);
      if (newline >= 0) end = start + Math.floor(target / 2) + newline + 1;
      else if (space > start + target / 2) end = space + 1;
    }
    chunks.push({ start, end });
    start = end;
  }
  return chunks;
}

/** Index of the chunk holding character `offset` (the last chunk for the end of the text). */
export function chunkAt(chunks: readonly Chunk[], offset: number): number {
  let low = 0;
  let high = chunks.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (chunks[mid]!.start <= offset) low = mid;
    else high = mid - 1;
  }
  return Math.max(0, low);
}

/** A height guess before layout: wrapped lines of each paragraph at `charsPerLine`, times the line height. */
export function estimateHeight(text: string, charsPerLine: number, lineHeight: number): number {
  let lines = 0;
  for (const paragraph of text.split('\n')) lines += Math.max(1, Math.ceil(paragraph.length / Math.max(1, charsPerLine)));
  // A chunk ending in a newline does not start another line.
  if (text.endsWith('\n')) lines -= 1;
  return Math.max(1, lines) * lineHeight;
}

/** Top of each chunk, plus the total height as the last entry. */
export function prefixOffsets(heights: readonly number[]): number[] {
  const offsets = new Array<number>(heights.length + 1);
  offsets[0] = 0;
  for (let i = 0; i < heights.length; i++) offsets[i + 1] = offsets[i]! + heights[i]!;
  return offsets;
}

/** The chunk at vertical position `y` (binary search over the offsets). */
export function chunkAtY(offsets: readonly number[], y: number): number {
  let low = 0;
  let high = offsets.length - 2;
  if (high < 0) return 0;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (offsets[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** First and last chunk to render for a viewport at `scrollTop`, with `overscan` pixels either side. */
export function visibleChunks(offsets: readonly number[], scrollTop: number, viewportHeight: number, overscan: number): { first: number; last: number } {
  const count = offsets.length - 1;
  if (count <= 0) return { first: 0, last: -1 };
  return { first: chunkAtY(offsets, Math.max(0, scrollTop - overscan)), last: chunkAtY(offsets, scrollTop + viewportHeight + overscan) };
}

/** The spans that touch a chunk, moved to the chunk's own offsets (segmentText clamps the parts outside). */
export function spansInChunk(spans: readonly MarkSpan[], chunk: Chunk): MarkSpan[] {
  return spans.filter((s) => s.end > chunk.start && s.start < chunk.end).map((s) => ({ ...s, start: s.start - chunk.start, end: s.end - chunk.start }));
}
