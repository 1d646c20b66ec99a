// Needle insertion as the reference does it (trim, depth point, back up to a sentence end), on token indexes.
import type { IndexedText } from './tokenIndex.js';
import type { TextLayout } from '../../textLayout.js';

/** One cell's request: the context length L, the depth, the reference's buffer and the needles (none: negative test). */
export interface CellRequest {
  contextLength: number;
  depthPercent: number;
  buffer: number;
  needles: readonly IndexedText[];
}

export interface PlacedNeedle {
  /** Which needle of the request. */
  needle: number;
  /** Token index of the needle's first token in the final context. */
  tokenIndex: number;
  /** Haystack tokens before the needle over all haystack tokens kept, ×100: the depth it actually got. */
  actualDepthPercent: number;
  /**
   * The multi-needle reference's log value: insertion point over the context length right after inserting, ×100;
   * null at depth 100, where the reference appends the needle and logs nothing.
   */
  insertionPercent: number | null;
}

export interface NeedleSpan {
  needle: number;
  /** UTF-16 offsets into the context, end exclusive. */
  start: number;
  end: number;
}

export interface Cell {
  context: string;
  /** Haystack tokens kept after trimming. */
  haystackTokens: number;
  /** Haystack plus needles. */
  contextTokens: number;
  placed: PlacedNeedle[];
  /** Where each needle's text sits (more than one piece only when a later needle landed inside an earlier one). */
  spans: NeedleSpan[];
  /** The context as ranges of the haystack's text and needle text, so the run log stores the haystack once. */
  layout: TextLayout;
}

/** A run of tokens from the haystack (source -1) or from needle `source`. */
interface Segment {
  source: number;
  from: number;
  to: number;
}

/** Thrown when L leaves no room: the caller names the parameter. */
export class CellTooSmallError extends Error {}

/**
 * Reference trimming: `encode_and_trim` keeps L tokens, then `insert_needle` keeps `L - buffer - |needles|` when
 * haystack and needles would pass `L - buffer`. Python would slice from the end on a negative count; here it is an
 * error instead.
 */
export function keptHaystackTokens(available: number, contextLength: number, buffer: number, needleTokens: number): number {
  let kept = Math.min(available, contextLength);
  const budget = contextLength - buffer;
  if (kept + needleTokens > budget) kept = budget - needleTokens;
  if (kept < 0) {
    throw new CellTooSmallError(`context length ${contextLength} leaves no room for the haystack: the buffer (${buffer}) and the needles (${needleTokens} tokens) need more`);
  }
  return kept;
}

/** Reference: `int(len(tokens_context) * (depth_percent / 100))` — divide first, then truncate, as Python does. */
export function depthPoint(length: number, depthPercent: number): number {
  return Math.trunc(length * (depthPercent / 100));
}

function segmentLength(segment: Segment): number {
  return segment.to - segment.from;
}

function totalLength(segments: readonly Segment[]): number {
  return segments.reduce((sum, segment) => sum + segmentLength(segment), 0);
}

function sourceOf(haystack: IndexedText, needles: readonly IndexedText[], source: number): IndexedText {
  return source === -1 ? haystack : (needles[source] as IndexedText);
}

/** Whether the token at `position` of the growing context lets a needle follow it. */
function isBoundary(segments: readonly Segment[], haystack: IndexedText, needles: readonly IndexedText[], position: number): boolean {
  let start = 0;
  for (const segment of segments) {
    const length = segmentLength(segment);
    if (position < start + length) return sourceOf(haystack, needles, segment.source).boundaries[segment.from + position - start] === 1;
    start += length;
  }
  return false;
}

/** Reference loop: `while tokens_new_context and tokens_new_context[-1] not in period_tokens: insertion_point -= 1`. */
function backUp(segments: readonly Segment[], haystack: IndexedText, needles: readonly IndexedText[], point: number): number {
  let at = point;
  while (at > 0 && !isBoundary(segments, haystack, needles, at - 1)) at--;
  return at;
}

/** Splits the segment holding `position` (if inside one) and puts needle `source` there. */
function insertSegment(segments: Segment[], position: number, source: number, length: number): void {
  const needle: Segment = { source, from: 0, to: length };
  let start = 0;
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    const segLength = segmentLength(segment);
    if (position === start) {
      segments.splice(i, 0, needle);
      return;
    }
    if (position < start + segLength) {
      const cut = segment.from + position - start;
      segments.splice(i, 1, { ...segment, to: cut }, needle, { ...segment, from: cut });
      return;
    }
    start += segLength;
  }
  segments.push(needle);
}

/**
 * Needle i goes at `depth + i * (100 - depth) / k`, each into the context as it grows, each backed up to a
 * boundary (the multi-needle reference; with one needle it is the single-needle reference).
 */
function placeNeedles(segments: Segment[], haystack: IndexedText, request: CellRequest): (number | null)[] {
  const percents: (number | null)[] = [];
  const interval = (100 - request.depthPercent) / request.needles.length;
  let depth = request.depthPercent;
  request.needles.forEach((needle, index) => {
    const length = totalLength(segments);
    let point = length;
    if (depth !== 100) point = backUp(segments, haystack, request.needles, depthPoint(length, depth));
    insertSegment(segments, point, index, needle.tokenCount);
    // The reference appends to insertion_percentages only in its `depth_percent != 100` branch.
    percents.push(depth === 100 ? null : (point / (length + needle.tokenCount)) * 100);
    if (depth !== 100) depth += interval;
  });
  return percents;
}

interface Assembled {
  context: string;
  layout: TextLayout;
  spans: NeedleSpan[];
  tokenIndexes: number[];
  haystackBefore: number[];
}

/**
 * Concatenates the segments' text and locates each needle. Slices and `+` make V8 string views of the one decoded
 * haystack rather than copies; a context is flattened once, when its prompt is rendered.
 */
function assemble(segments: readonly Segment[], haystack: IndexedText, needles: readonly IndexedText[]): Assembled {
  let context = '';
  const layout: TextLayout = { base: haystack.text, pieces: [] };
  const spans: NeedleSpan[] = [];
  const tokenIndexes: number[] = needles.map(() => -1);
  const haystackBefore: number[] = needles.map(() => 0);
  let offset = 0;
  let tokens = 0;
  let haystackSoFar = 0;
  for (const segment of segments) {
    const source = sourceOf(haystack, needles, segment.source);
    const text = source.text.slice(source.starts[segment.from], source.starts[segment.to]);
    layout.pieces.push(segment.source === -1 ? { start: source.starts[segment.from] as number, end: source.starts[segment.to] as number } : text);
    if (segment.source === -1) haystackSoFar += segmentLength(segment);
    else {
      spans.push({ needle: segment.source, start: offset, end: offset + text.length });
      if (tokenIndexes[segment.source] === -1) {
        tokenIndexes[segment.source] = tokens;
        haystackBefore[segment.source] = haystackSoFar;
      }
    }
    context += text;
    offset += text.length;
    tokens += segmentLength(segment);
  }
  return { context, layout, spans, tokenIndexes, haystackBefore };
}

/** Builds one cell from the shared, already tokenised haystack: slice, trim, insert — never re-tokenise. */
export function buildCell(haystack: IndexedText, request: CellRequest): Cell {
  const needleTokens = request.needles.reduce((sum, needle) => sum + needle.tokenCount, 0);
  const kept = keptHaystackTokens(haystack.tokenCount, request.contextLength, request.buffer, needleTokens);
  const segments: Segment[] = [{ source: -1, from: 0, to: kept }];
  const percents = placeNeedles(segments, haystack, request);
  const assembled = assemble(segments, haystack, request.needles);
  const placed = request.needles.map((_, needle) => ({
    needle,
    tokenIndex: assembled.tokenIndexes[needle] as number,
    actualDepthPercent: kept === 0 ? 0 : ((assembled.haystackBefore[needle] as number) / kept) * 100,
    insertionPercent: percents[needle] ?? null,
  }));
  return { context: assembled.context, haystackTokens: kept, contextTokens: kept + needleTokens, placed, spans: assembled.spans, layout: assembled.layout };
}
