// Reads a needle case for its view: placement facts (tolerant of run logs from other versions) and text windows around each needle.
import type { EvalCase, Score } from '../../src/core/model.js';
import type { MarkSpan } from '../text/segments.js';

export interface NeedlePlacement {
  label: string;
  start: number;
  end: number;
  actualDepthPercent?: number;
  tokenIndex?: number;
}

export interface NeedleFacts {
  variant?: string;
  contextLength?: number;
  contextTokens?: number;
  haystackTokens?: number;
  requestedDepth: number | null | undefined;
  actualDepthPercent: number | null | undefined;
  tokenIndex: number | null | undefined;
  tokenizer?: string;
  tokenizerModel?: string;
  approximateTokenizer: boolean;
  boundary?: string;
  buffer?: number;
  negative: boolean;
  city?: string;
  number?: string;
  needles: NeedlePlacement[];
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const nullableNum = (v: unknown): number | null | undefined => (v === null ? null : num(v));
const numbers = (v: unknown): (number | undefined)[] => (Array.isArray(v) ? v.map(num) : []);

/** The haystack: the needle method's document with id "haystack", else its first haystack-role document. */
export function haystackOf(evalCase: EvalCase) {
  return evalCase.documents.find((d) => d.id === 'haystack') ?? evalCase.documents.find((d) => d.role === 'haystack');
}

export function needleFacts(evalCase: EvalCase): NeedleFacts {
  const p = evalCase.params ?? {};
  const haystack = haystackOf(evalCase);
  const depths = numbers(p.actualDepthPercents);
  const tokens = numbers(p.needleTokenIndexes);
  const spans = (haystack?.spans ?? []).filter((s) => s.kind === 'needle').sort((a, b) => a.start - b.start);
  const facts: NeedleFacts = {
    requestedDepth: nullableNum(p.requestedDepth),
    actualDepthPercent: nullableNum(p.actualDepthPercent),
    tokenIndex: nullableNum(p.needleTokenIndex),
    approximateTokenizer: p.approximateTokenizer === true,
    negative: p.negative === true,
    needles: spans.map((s, i) => ({
      label: s.label ?? `needle ${i + 1}`, start: s.start, end: s.end,
      ...(depths[i] !== undefined ? { actualDepthPercent: depths[i] } : {}),
      ...(tokens[i] !== undefined ? { tokenIndex: tokens[i] } : {}),
    })),
  };
  const optional: Partial<NeedleFacts> = {
    variant: str(p.variant), contextLength: num(p.contextLength), contextTokens: num(p.contextTokens), haystackTokens: num(p.haystackTokens),
    tokenizer: str(p.tokenizer), tokenizerModel: str(p.tokenizerModel), boundary: str(p.boundary), buffer: num(p.buffer),
    city: str(p.city), number: str(p.number),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (facts as unknown as Record<string, unknown>)[key] = value;
  return facts;
}

export interface TextWindow {
  start: number;
  end: number;
  /** The needles inside it. */
  needles: NeedlePlacement[];
}

/**
 * Windows of `radius` characters before and after each needle, widened to whole words and merged when they
 * overlap (multi-needle cells put needles close together).
 */
export function needleWindows(text: string, needles: readonly NeedlePlacement[], radius = 600): TextWindow[] {
  const windows: TextWindow[] = [];
  for (const needle of [...needles].sort((a, b) => a.start - b.start)) {
    let start = Math.max(0, needle.start - radius);
    let end = Math.min(text.length, needle.end + radius);
    const space = text.lastIndexOf(' ', start);
    if (start > 0 && space >= 0 && start - space < 40) start = space + 1;
    const after = text.indexOf(' ', end);
    if (end < text.length && after >= 0 && after - end < 40) end = after;
    const last = windows[windows.length - 1];
    if (last && start <= last.end) {
      last.end = Math.max(last.end, end);
      last.needles.push(needle);
    } else {
      windows.push({ start, end, needles: [needle] });
    }
  }
  return windows;
}

/** Spans a score kept for the response (`details.responseSpans`: answer phrases, citations), as highlights. */
export function responseSpansOf(scores: readonly Score[]): MarkSpan[] {
  return scores.flatMap((score) => {
    const spans = (score.details as { responseSpans?: unknown } | undefined)?.responseSpans;
    if (!Array.isArray(spans)) return [];
    return spans.flatMap((s: Partial<MarkSpan>) => (typeof s?.start === 'number' && typeof s.end === 'number' && typeof s.kind === 'string'
      ? [{ kind: s.kind, start: s.start, end: s.end, ...(typeof s.label === 'string' ? { label: s.label } : {}) }]
      : []));
  });
}
