// What can be removed or moved in a case, per method, and the case rebuilt with only some of it in a given order.
// The variant keeps the original documents' ids, so an attribution names the document the user sees on the card.
import type { CaseDocument, EvalCase, Span } from '../model.js';
import { documentLabel } from '../suites/ifrag/citations.js';
import { suiteFor } from '../suites/registry.js';
import type { ExplainSource } from './model.js';

/** Needle and LLM-Eval are cut into this many segments unless asked otherwise. */
export const DEFAULT_SEGMENTS = 8;

/** A source with the text it contributes. */
interface Piece extends ExplainSource {
  text: string;
}

export interface CaseSources {
  sources: ExplainSource[];
  /** What explaining means for this case, said to the user. */
  meaning: string;
  /** The case with only `present` sources, in that order (not rendered: the engine renders it). */
  variant(present: readonly string[]): EvalCase;
}

const preview = (text: string) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 60 ? `${flat.slice(0, 57)}…` : flat;
};

/** The sources of a case and how to rebuild it; none when the method has nothing to vary (LLM-Eval dialogue level). */
export function caseSources(evalCase: EvalCase, segments = DEFAULT_SEGMENTS): CaseSources {
  // The method says how its case is cut (Suite.explainSources); a method this build does not know has documents.
  switch (suiteFor(evalCase.method)?.explainSources ?? 'documents') {
    case 'haystack':
      return needleSources(evalCase, segments);
    case 'context':
      return contextSources(evalCase, segments);
    case 'documents':
      return documentSources(evalCase);
  }
}

function meaningFor(evalCase: EvalCase, what: string): string {
  if (evalCase.givenResponse !== undefined) {
    return `The response is the dataset's own and is not regenerated: each variant re-scores that same response with ${what} varied, so an attribution says which ${what} the verdict rests on, not what made the model answer so.`;
  }
  return `Each variant asks the model again with ${what} varied and scores the new answer with the method's own scorer.`;
}

// ── RGB, IF-RAG, RAGAS: one source per document ─────────────────────────────────────────────────────────────────

function documentSources(evalCase: EvalCase): CaseSources {
  const byId = new Map(evalCase.documents.map((d) => [d.id, d]));
  const shown = Array.isArray(evalCase.variables.documents) ? (evalCase.variables.documents as Record<string, unknown>[]) : undefined;
  const shownById = new Map((shown ?? []).map((item) => [String(item.id), item]));
  const idFormat = typeof evalCase.params.idFormat === 'string' ? evalCase.params.idFormat : undefined;
  return {
    sources: evalCase.documents.map((d) => ({ id: d.id, role: d.role, answerBearing: d.role === 'positive', preview: preview(d.text) })),
    meaning: meaningFor(evalCase, 'the documents'),
    variant(present) {
      const documents = present.map((id) => byId.get(id) as CaseDocument);
      const variables: Record<string, unknown> = { ...evalCase.variables };
      if (shown) {
        variables.documents = present.map((id, i) => {
          const item = { ...(shownById.get(id) ?? {}) };
          // IF-RAG shows documents by number ("[Document 2]") and scores citations by position: renumber as shown.
          if ('number' in item) item.number = i + 1;
          if ('label' in item && idFormat) item.label = documentLabel(idFormat, i + 1);
          return item;
        });
      }
      if (Array.isArray(evalCase.variables.contexts)) variables.contexts = documents.map((d) => d.text);
      return { ...evalCase, documents, variables, params: paramsShowing(evalCase, documents), messages: [] };
    },
  };
}

/**
 * The case's params as they are for the documents a variant shows: a per-document list (RGB's `order`) follows
 * the documents kept, and a count of a role (`positives`, `negatives`, `counterfactuals`, RGB's effectiveNoiseRate)
 * counts what is shown, so a variant case in the variant log says what it holds, not what the original held.
 */
function paramsShowing(evalCase: EvalCase, documents: readonly CaseDocument[]): EvalCase['params'] {
  const params: Record<string, unknown> = { ...evalCase.params };
  const index = new Map(evalCase.documents.map((d, i) => [d.id, i]));
  for (const [key, value] of Object.entries(evalCase.params)) {
    if (Array.isArray(value) && value.length === evalCase.documents.length && value.length > 0) params[key] = documents.map((d) => value[index.get(d.id) as number]);
  }
  const count = (role: string) => documents.filter((d) => d.role === role).length;
  const counted = (role: string) => evalCase.documents.filter((d) => d.role === role).length;
  for (const role of ['positive', 'negative', 'counterfactual']) {
    if (params[`${role}s`] === counted(role)) params[`${role}s`] = count(role);
  }
  if (typeof params.effectiveNoiseRate === 'number') params.effectiveNoiseRate = documents.length ? count('negative') / documents.length : null;
  return params;
}

// ── Needle in a Haystack: haystack segments and the needle(s) ───────────────────────────────────────────────────

function needleSources(evalCase: EvalCase, segments: number): CaseSources {
  const haystack = evalCase.documents[0];
  if (!haystack) return { sources: [], meaning: 'This case has no haystack to vary.', variant: () => evalCase };
  const needleSpans = haystack.spans.filter((s) => s.kind === 'needle').sort((a, b) => a.start - b.start);
  const pieces: Piece[] = [];
  let at = 0;
  const filler: { start: number; end: number }[] = [];
  for (const span of needleSpans) {
    if (span.start > at) filler.push({ start: at, end: span.start });
    at = span.end;
  }
  if (at < haystack.text.length) filler.push({ start: at, end: haystack.text.length });
  const total = filler.reduce((n, f) => n + f.end - f.start, 0);
  const target = Math.max(1, Math.ceil(total / Math.max(1, segments)));
  // Cut the filler into segments of about equal length at whitespace, keeping each needle where it was.
  let segment = 0;
  let spanIndex = 0;
  for (const part of filler) {
    while (spanIndex < needleSpans.length && (needleSpans[spanIndex] as Span).end <= part.start) {
      pushNeedle(pieces, haystack.text, needleSpans, spanIndex);
      spanIndex += 1;
    }
    let from = part.start;
    while (from < part.end) {
      let to = Math.min(part.end, from + target);
      if (to < part.end) {
        const space = haystack.text.indexOf(' ', to);
        to = space < 0 || space >= part.end ? part.end : space;
      }
      pieces.push({ id: `s${segment}`, role: 'haystack', answerBearing: false, preview: preview(haystack.text.slice(from, to)), text: haystack.text.slice(from, to) });
      segment += 1;
      from = to;
    }
  }
  while (spanIndex < needleSpans.length) {
    pushNeedle(pieces, haystack.text, needleSpans, spanIndex);
    spanIndex += 1;
  }
  const byId = new Map(pieces.map((p) => [p.id, p]));
  return {
    sources: pieces.map(({ text: _text, ...source }) => source),
    meaning: `${meaningFor(evalCase, 'the haystack')} The haystack is cut into ${segment} segments (s0…) and the needle is a source of its own.`,
    variant(present) {
      let text = '';
      const spans: Span[] = [];
      for (const id of present) {
        const piece = byId.get(id) as Piece;
        if (piece.role === 'needle') spans.push({ kind: 'needle', start: text.length, end: text.length + piece.text.length, text: piece.text, label: needleSpans.length > 1 ? `needle ${Number(id.slice(6) || 1)}` : 'needle' });
        text += piece.text;
      }
      const documents: CaseDocument[] = [{ ...haystack, text, spans }];
      return { ...evalCase, documents, variables: { ...evalCase.variables, context: text }, messages: [] };
    },
  };
}

function pushNeedle(pieces: Piece[], text: string, spans: readonly Span[], index: number): void {
  const span = spans[index] as Span;
  const id = spans.length > 1 ? `${span.kind}${index + 1}` : span.kind;
  pieces.push({ id, role: span.kind, answerBearing: true, preview: preview(span.text), text: text.slice(span.start, span.end) });
}

// ── LLM-Eval: the context's lines (dialogue turns) or paragraphs ────────────────────────────────────────────────

function contextSources(evalCase: EvalCase, segments: number): CaseSources {
  const context = typeof evalCase.variables.context === 'string' ? evalCase.variables.context : '';
  // At dialogue level the dialogue is both what is judged and its context: there is nothing to vary apart from it.
  if (context === '' || evalCase.givenResponse === context) {
    return { sources: [], meaning: 'LLM-Eval at dialogue level judges the dialogue itself; there is no context apart from the response to vary.', variant: () => evalCase };
  }
  const lines = context.split('\n').filter((line) => line.trim() !== '');
  const units = lines.length > 1 ? lines : context.split(/(?<=[.!?])\s+/).filter((s) => s.trim() !== '');
  // Units grouped so there are at most `segments` sources.
  const size = Math.max(1, Math.ceil(units.length / Math.max(1, segments)));
  const pieces: Piece[] = [];
  for (let i = 0; i < units.length; i += size) {
    const text = units.slice(i, i + size).join(lines.length > 1 ? '\n' : ' ');
    pieces.push({ id: `l${pieces.length}`, role: 'context', answerBearing: false, preview: preview(text), text });
  }
  const byId = new Map(pieces.map((p) => [p.id, p]));
  const joiner = lines.length > 1 ? '\n' : ' ';
  return {
    sources: pieces.map(({ text: _text, ...source }) => source),
    meaning: meaningFor(evalCase, 'the context'),
    variant(present) {
      const text = present.map((id) => (byId.get(id) as Piece).text).join(joiner);
      const variables: Record<string, unknown> = { ...evalCase.variables, context: text };
      if (evalCase.variables.question === context) variables.question = text;
      // The judge reads the context from `expected`: it must see what the model saw.
      const expected = { ...(evalCase.expected as Record<string, unknown>), context: text };
      return { ...evalCase, variables, expected, question: evalCase.question === context ? text : evalCase.question, messages: [] };
    },
  };
}
