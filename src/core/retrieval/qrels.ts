// Relevance labels of one question from its row: a list of relevant ids, graded relevance ({id: grade}), spans of the
// source files (which survive a change of chunking), or, when the row has none, the answer found in a passage (the
// caller's rule); and the ranked candidates labelled with them and placed (their source).
import * as path from 'node:path';
import type { LabelSource, PassageSource, Qrels, RankedPassage, RetrievalRecord, RetrievedItem } from './contract.js';

/** The labels a row gives for its question, or undefined when it names none; a bad cell is a message, not a guess. */
export type RowQrels = { qrels: Qrels; source: Extract<LabelSource, 'relevant_ids' | 'graded'> };

/**
 * Reads `relevantIds` (a list of ids, each relevant with grade 1) or `graded` (an object id → grade ≥ 0) from the
 * row's data; the list wins when both are there. Returns a string describing what is wrong with a cell.
 */
export function qrelsOfRow(data: Readonly<Record<string, unknown>>, columns: { relevantIds: string; graded: string }): RowQrels | string | undefined {
  const list = data[columns.relevantIds];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.some((id) => typeof id !== 'string' && typeof id !== 'number')) return `${columns.relevantIds}: expected a list of document ids, e.g. ["doc-3", "doc-7"]`;
    return { qrels: new Map(list.map((id) => [String(id), 1])), source: 'relevant_ids' };
  }
  const graded = data[columns.graded];
  if (graded !== undefined && graded !== null) {
    if (typeof graded !== 'object' || Array.isArray(graded)) return `${columns.graded}: expected an object of document id → grade, e.g. {"doc-3": 2, "doc-7": 1}`;
    const entries = Object.entries(graded as Record<string, unknown>);
    const bad = entries.find(([, grade]) => typeof grade !== 'number' || !Number.isFinite(grade) || grade < 0);
    if (bad) return `${columns.graded}.${bad[0]}: expected a grade ≥ 0 (0 not relevant, 1 relevant, higher more relevant), got ${JSON.stringify(bad[1])}`;
    return { qrels: new Map(entries as [string, number][]), source: 'graded' };
  }
  return undefined;
}

/**
 * The retriever's candidates ranked 1…n in the order returned (ties keep it), the first `k` sent as d0…, each labelled
 * by the row's qrels (an id they do not name is not relevant: grade 0) or, without qrels, by `answerMatch` (1 when the
 * passage bears the answer, 0 when not; undefined without a rule).
 */
export function rankedCandidates(items: readonly RetrievedItem[], k: number, labels: RowQrels | undefined, answerMatch?: (text: string) => boolean): RankedPassage[] {
  return items.map((item, index) => {
    const sent = index < k;
    const relevance = labels ? labels.qrels.get(item.id) ?? 0 : answerMatch ? (answerMatch(item.text) ? 1 : 0) : undefined;
    const labelSource: LabelSource | undefined = labels ? labels.source : answerMatch ? 'answer-match' : undefined;
    return {
      rank: index + 1,
      id: item.id,
      ...(item.score === undefined ? {} : { score: item.score }),
      ...(item.metadata === undefined ? {} : { metadata: item.metadata }),
      sent,
      ...(sent ? { documentId: `d${index}` } : {}),
      ...(relevance === undefined ? {} : { relevance }),
      ...(labelSource === undefined ? {} : { labelSource }),
      ...sourceOf(item.metadata),
    };
  });
}

/**
 * Where a passage came from, when its metadata says: an absolute file (`path`, as the index gives it, else an
 * absolute `file`) with its 1-based lines (and a PDF's pages), or a `url`. The inspector opens the file at the line;
 * a URL is shown.
 */
export function sourceOf(metadata: Record<string, unknown> | undefined): { source?: PassageSource } {
  if (!metadata) return {};
  const file = typeof metadata.path === 'string' ? metadata.path : typeof metadata.file === 'string' && path.isAbsolute(metadata.file) ? metadata.file : undefined;
  const line = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined);
  const startLine = line(metadata.startLine);
  const endLine = line(metadata.endLine);
  const startPage = line(metadata.startPage);
  const endPage = line(metadata.endPage);
  const url = typeof metadata.url === 'string' && /^https?:\/\//.test(metadata.url) ? metadata.url : undefined;
  if (!file && !url) return {};
  return {
    source: {
      ...(file ? { file } : {}),
      ...(file && startLine ? { startLine } : {}),
      ...(file && endLine ? { endLine } : {}),
      ...(file && startPage ? { startPage } : {}),
      ...(file && endPage ? { endPage } : {}),
      ...(url ? { url } : {}),
    },
  };
}

/** Every id the row's qrels call relevant (grade > 0), retrieved or not: recall's denominator. */
export function relevantOf(labels: RowQrels | undefined): RetrievalRecord['relevant'] {
  if (!labels) return undefined;
  return [...labels.qrels].filter(([, grade]) => grade > 0).map(([id, grade]) => ({ id, grade }));
}

/**
 * A passage of a source file the answer is in: `[start, end)` character offsets into the file's text (the text the
 * index reads: for HTML and JSONL, the extracted text), `file` relative to the indexed folder with '/' separators.
 */
export interface RelevantSpan {
  file: string;
  start: number;
  end: number;
  /** > 0; 1 unless the row says. */
  grade: number;
}

export type RowSpans = { spans: RelevantSpan[]; source: Extract<LabelSource, 'span'> };

/** Either kind of label a row can hold about its question's passages. */
export type RowLabels = RowQrels | RowSpans;

/**
 * Reads `column` (`relevant_spans: [{file, start, end, grade?}]`) from the row's data. Returns a string describing
 * what is wrong with the cell, undefined when the row has none.
 */
export function spansOfRow(data: Readonly<Record<string, unknown>>, column: string): RowSpans | string | undefined {
  const raw = data[column];
  if (raw === undefined || raw === null) return undefined;
  const example = `e.g. ${column}: [{"file": "guide/install.md", "start": 120, "end": 310}]`;
  if (!Array.isArray(raw)) return `${column}: expected a list of spans, ${example}`;
  const spans: RelevantSpan[] = [];
  for (const [i, entry] of raw.entries()) {
    const at = `${column}[${i}]`;
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return `${at}: expected { file, start, end, grade? }, ${example}`;
    const { file, start, end, grade } = entry as Record<string, unknown>;
    const extra = Object.keys(entry).find((key) => !['file', 'start', 'end', 'grade'].includes(key));
    if (extra !== undefined) return `${at}.${extra}: unknown key; a span has file, start, end and an optional grade`;
    if (typeof file !== 'string' || file.trim() === '') return `${at}.file: expected the file's path relative to the indexed folder`;
    if (!isOffset(start) || !isOffset(end) || end <= start) return `${at}: expected whole-number character offsets with start < end, got start ${JSON.stringify(start)}, end ${JSON.stringify(end)}`;
    if (grade !== undefined && (typeof grade !== 'number' || !Number.isFinite(grade) || grade <= 0)) return `${at}.grade: expected a grade > 0 (1 relevant, higher more relevant), got ${JSON.stringify(grade)}`;
    spans.push({ file: normalFile(file), start, end, grade: grade ?? 1 });
  }
  return spans.length === 0 ? `${column}: the list is empty; leave the column out when no span is known` : { spans, source: 'span' };
}

const isOffset = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Paths compared the way the index writes them: '/' separators, no leading "./". */
function normalFile(file: string): string {
  return file.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

/** Where a retrieved passage sits in its file, from its metadata `{ file, startChar, endChar }`; undefined when not said. */
export function passagePosition(metadata: Readonly<Record<string, unknown>> | undefined): { file: string; start: number; end: number } | undefined {
  if (!metadata) return undefined;
  const { file, startChar, endChar } = metadata;
  if (typeof file !== 'string' || !isOffset(startChar) || !isOffset(endChar)) return undefined;
  return { file: normalFile(file), start: startChar, end: endChar };
}

/** The id a span has in `relevant` when no candidate covers it (never a passage id: chunk ids have no "span:"). */
export function spanId(span: Pick<RelevantSpan, 'file' | 'start' | 'end'>): string {
  return `span:${span.file}#${span.start}-${span.end}`;
}

/**
 * The candidates labelled by spans, and what is relevant for the question. A passage overlapping a span (half-open
 * ranges in the same file) is relevant with the span's grade (the highest when it overlaps several). The unit the
 * metrics count is the span (retrieval/metrics.ts says how each measure counts), so a chunking that cuts one span
 * into three chunks does not find three relevant documents, and one that puts two spans in one chunk does not find
 * one: `relevant` has an entry per span, under the first candidate (by rank) that covers it — a passage over two
 * spans is named twice — or as never retrieved (`span:<file>#<start>-<end>`) when none does. A later passage over an
 * already-credited span is shown relevant but counts once, like a repeated document in trec_eval. A candidate without
 * a position in its metadata cannot be judged: its relevance stays unknown.
 */
export function labelBySpans(candidates: readonly RankedPassage[], labels: RowSpans): { candidates: RankedPassage[]; relevant: NonNullable<RetrievalRecord['relevant']> } {
  const creditedTo = new Map<RelevantSpan, string>();
  const labelled = [...candidates].sort((a, b) => a.rank - b.rank).map((passage) => {
    const position = passagePosition(passage.metadata);
    if (!position) return passage;
    const overlapping = labels.spans.filter((span) => span.file === position.file && position.start < span.end && span.start < position.end);
    for (const span of overlapping) if (!creditedTo.has(span)) creditedTo.set(span, passage.id);
    const relevance = overlapping.reduce((best, span) => Math.max(best, span.grade), 0);
    return { ...passage, relevance, labelSource: 'span' as const };
  });
  const relevant = labels.spans.map((span) => ({ id: creditedTo.get(span) ?? spanId(span), grade: span.grade }));
  return { candidates: labelled, relevant };
}

/**
 * The whole labelling of one question's ranked list, by whichever labels the row has (ids, grades or spans), else
 * by `answerMatch`: the candidates (first `k` sent) and the relevant list for recall's denominator.
 */
export function labelledRetrieval(items: readonly RetrievedItem[], k: number, labels: RowLabels | undefined, answerMatch?: (text: string) => boolean): Pick<RetrievalRecord, 'candidates' | 'relevant'> {
  if (labels?.source === 'span') return labelBySpans(rankedCandidates(items, k, undefined), labels);
  const relevant = relevantOf(labels);
  return { candidates: rankedCandidates(items, k, labels, answerMatch), ...(relevant ? { relevant } : {}) };
}
