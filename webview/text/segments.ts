// Cuts a text into runs that share the same set of highlights, so it can be rendered as text nodes and <mark>s.
import type { SpanKind } from '../../src/core/model.js';

/** A region to highlight. `id` lets a click on a score's evidence find the marks it produced. */
export interface MarkSpan {
  kind: SpanKind;
  start: number;
  end: number;
  label?: string;
  id?: string;
}

export interface Segment {
  text: string;
  start: number;
  end: number;
  /** Kinds covering this run, deduplicated, in a fixed order so classes are stable. */
  kinds: SpanKind[];
  labels: string[];
  ids: string[];
}

const KIND_ORDER: readonly SpanKind[] = ['answer', 'needle', 'counterfactual', 'evidence', 'citation'];

/**
 * Splits `text` at every span boundary. Spans may overlap or nest (an answer inside a needle, evidence over
 * both); offsets outside the text are clamped and empty spans dropped, because offsets come from run logs
 * that another version of the engine may have written.
 */
export function segmentText(text: string, spans: readonly MarkSpan[]): Segment[] {
  const valid = spans
    .map((s) => ({ ...s, start: clamp(s.start, text.length), end: clamp(s.end, text.length) }))
    .filter((s) => s.end > s.start);
  if (valid.length === 0) return text.length === 0 ? [] : [{ text, start: 0, end: text.length, kinds: [], labels: [], ids: [] }];

  const cuts = new Set<number>([0, text.length]);
  for (const s of valid) { cuts.add(s.start); cuts.add(s.end); }
  const points = [...cuts].sort((a, b) => a - b);

  const segments: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    const covering = valid.filter((s) => s.start <= start && s.end >= end);
    const kinds = KIND_ORDER.filter((k) => covering.some((s) => s.kind === k));
    const labels = unique(covering.map((s) => s.label).filter((l): l is string => !!l));
    const ids = unique(covering.map((s) => s.id).filter((l): l is string => !!l));
    const previous = segments[segments.length - 1];
    // Adjacent runs with identical highlights are merged so the DOM stays small.
    if (previous && sameSet(previous.kinds, kinds) && sameSet(previous.ids, ids) && sameSet(previous.labels, labels)) {
      previous.end = end;
      previous.text = text.slice(previous.start, end);
    } else {
      segments.push({ text: text.slice(start, end), start, end, kinds, labels, ids });
    }
  }
  return segments;
}

function clamp(n: number, max: number): number {
  if (!Number.isFinite(n)) return 0;
  return Math.max(0, Math.min(max, Math.trunc(n)));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/**
 * Finds where known answer strings occur in a response (case-insensitive, as RGB's exact-match scorer reads
 * it), so the response can show what matched. Counterfactual strings are found too: a response repeating the
 * planted misinformation is exactly what the reader needs to see.
 */
export function findMatches(text: string, needles: readonly { text: string; kind: SpanKind }[]): MarkSpan[] {
  const haystack = text.toLocaleLowerCase();
  // toLocaleLowerCase can change lengths for a few scripts; offsets are only trusted when it did not.
  if (haystack.length !== text.length) return [];
  const spans: MarkSpan[] = [];
  const seen = new Set<string>();
  for (const needle of needles) {
    const wanted = needle.text.trim().toLocaleLowerCase();
    if (wanted.length === 0 || wanted.length > 1000 || seen.has(`${needle.kind}\u0000${wanted}`)) continue;
    seen.add(`${needle.kind}\u0000${wanted}`);
    for (let at = haystack.indexOf(wanted); at !== -1 && spans.length < 500; at = haystack.indexOf(wanted, at + wanted.length)) {
      spans.push({ kind: needle.kind, start: at, end: at + wanted.length, label: needle.text.trim() });
    }
  }
  return spans;
}

/** Strings inside a method's `expected` value (a string, or arrays of alternatives, as RGB keeps them). */
export function expectedStrings(expected: unknown, depth = 0): string[] {
  if (typeof expected === 'string') return [expected];
  if (typeof expected === 'number') return [String(expected)];
  if (Array.isArray(expected) && depth < 3) return expected.flatMap((e) => expectedStrings(e, depth + 1));
  return [];
}
