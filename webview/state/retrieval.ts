// Reads what a case stored of its retrieval (`params.retrieval`) and its failure cause, checked field by field: the
// record crosses a run log and the webview channel, so a malformed one is reported in words, never drawn half-read.
import { FAILURE_CAUSES } from '../../src/core/retrieval/contract.js';
import type { CauseFinding, FailureCause, LabelSource, PassageSource, RankedPassage, RetrievalRecord } from '../../src/core/retrieval/contract.js';
import type { Score } from '../../src/core/model.js';

/** Each cause in words, for the case list, its filter and the bar chart. */
export const CAUSE_WORDS: Readonly<Record<FailureCause, string>> = {
  'not-retrieved': 'not retrieved',
  'ranked-out': 'ranked out',
  'retrieved-not-used': 'retrieved, not used',
  distracted: 'distracted',
  position: 'position',
  generation: 'generation',
  undetermined: 'cause undetermined',
};

export const LABEL_SOURCE_WORDS: Readonly<Record<LabelSource, string>> = {
  relevant_ids: 'relevant_ids',
  graded: 'graded labels',
  span: 'relevant_spans',
  'answer-match': 'answer match',
  judge: 'judge',
  verdict: 'your verdict',
};

const LABEL_SOURCES = Object.keys(LABEL_SOURCE_WORDS) as LabelSource[];

export function isFailureCause(value: unknown): value is FailureCause {
  return FAILURE_CAUSES.includes(value as FailureCause);
}

/** What a case has of a retrieval: nothing, a record that reads, or one that does not (with the reason). */
export type RetrievalReading = { kind: 'none' } | { kind: 'record'; record: RetrievalRecord } | { kind: 'invalid'; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const optional = (v: unknown, check: (x: unknown) => boolean): boolean => v === undefined || check(v);
const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';

/** `params.retrieval` of a case, checked; `none` when the case has no retrieval at all. */
export function readRetrieval(params: unknown): RetrievalReading {
  const raw = isObject(params) ? params.retrieval : undefined;
  if (raw === undefined) return { kind: 'none' };
  if (!isObject(raw)) return { kind: 'invalid', reason: 'params.retrieval is not an object' };
  if (!isString(raw.retriever)) return { kind: 'invalid', reason: 'params.retrieval.retriever is not a string' };
  if (!isCount(raw.k)) return { kind: 'invalid', reason: 'params.retrieval.k is not a whole number ≥ 0' };
  if (!Array.isArray(raw.candidates)) return { kind: 'invalid', reason: 'params.retrieval.candidates is not a list' };
  const candidates: RankedPassage[] = [];
  for (const [i, c] of raw.candidates.entries()) {
    const passage = readPassage(c);
    if (typeof passage === 'string') return { kind: 'invalid', reason: `params.retrieval.candidates[${i}]: ${passage}` };
    candidates.push(passage);
  }
  const record: RetrievalRecord = { retriever: raw.retriever, k: raw.k, candidates };
  if (raw.relevant !== undefined) {
    if (!Array.isArray(raw.relevant) || !raw.relevant.every((r) => isObject(r) && isString(r.id) && isFiniteNumber(r.grade))) {
      return { kind: 'invalid', reason: 'params.retrieval.relevant is not a list of { id, grade }' };
    }
    record.relevant = raw.relevant.map((r) => ({ id: (r as { id: string }).id, grade: (r as { grade: number }).grade }));
  }
  if (isFiniteNumber(raw.latencyMs)) record.latencyMs = raw.latencyMs;
  if (typeof raw.cached === 'boolean') record.cached = raw.cached;
  return { kind: 'record', record };
}

/** A candidate, or what is wrong with it. */
function readPassage(c: unknown): RankedPassage | string {
  if (!isObject(c)) return 'not an object';
  if (!isCount(c.rank) || c.rank < 1) return 'rank is not a whole number ≥ 1';
  if (!isString(c.id)) return 'id is not a string';
  if (typeof c.sent !== 'boolean') return 'sent is not true or false';
  if (!optional(c.score, isFiniteNumber)) return 'score is not a number';
  if (!optional(c.documentId, isString)) return 'documentId is not a string';
  if (!optional(c.relevance, isFiniteNumber)) return 'relevance is not a number';
  if (!optional(c.labelSource, (v) => LABEL_SOURCES.includes(v as LabelSource))) return `labelSource is not one of ${LABEL_SOURCES.join(', ')}`;
  const passage: RankedPassage = { rank: c.rank, id: c.id, sent: c.sent };
  if (c.score !== undefined) passage.score = c.score as number;
  if (c.documentId !== undefined) passage.documentId = c.documentId as string;
  if (c.relevance !== undefined) passage.relevance = c.relevance as number;
  if (c.labelSource !== undefined) passage.labelSource = c.labelSource as LabelSource;
  const source = readSource(c.source);
  if (source) passage.source = source;
  return passage;
}

/** Only the fields that can be used: a file with sane lines, an http(s) URL; anything else is dropped. */
function readSource(raw: unknown): PassageSource | undefined {
  if (!isObject(raw)) return undefined;
  const source: PassageSource = {};
  if (isString(raw.file) && raw.file) source.file = raw.file;
  if (isCount(raw.startLine) && raw.startLine >= 1) source.startLine = raw.startLine;
  if (isCount(raw.endLine) && raw.endLine >= 1) source.endLine = raw.endLine;
  if (isCount(raw.startPage) && raw.startPage >= 1) source.startPage = raw.startPage;
  if (isCount(raw.endPage) && raw.endPage >= 1) source.endPage = raw.endPage;
  if (isString(raw.url) && raw.url) source.url = raw.url;
  return source.file || source.url ? source : undefined;
}

/**
 * Where in its file a passage is, as the source column says it after the file's name: a PDF's pages (" p. 3",
 * " pp. 3–4"), else its lines (":12", ":12–18"), else nothing.
 */
export function placeInFile(source: PassageSource): string {
  const range = (start: number, end: number | undefined) => (end !== undefined && end !== start ? `${start}–${end}` : `${start}`);
  if (source.startPage !== undefined) return source.endPage !== undefined && source.endPage !== source.startPage ? ` pp. ${range(source.startPage, source.endPage)}` : ` p. ${source.startPage}`;
  return source.startLine !== undefined ? `:${range(source.startLine, source.endLine)}` : '';
}

/** Relevant, not relevant, or unknown (no label says), for a ranked passage. */
export type Relevance = 'relevant' | 'not-relevant' | 'unknown';

export function relevanceOf(passage: RankedPassage): Relevance {
  if (passage.relevance === undefined) return 'unknown';
  return passage.relevance > 0 ? 'relevant' : 'not-relevant';
}

/** The case's failure cause with its evidence (the `cause` score), when the case has one that reads. */
export function causeFindingOf(scores: readonly Score[]): CauseFinding | undefined {
  const score = scores.find((s) => s.metric === 'cause');
  if (!score || !isFailureCause(score.label)) return undefined;
  const details = isObject(score.details) ? score.details : {};
  const words = isString(details.words) && details.words ? details.words : score.explanation ?? '';
  const finding: CauseFinding = { cause: score.label, words };
  if (isString(details.passageId)) finding.passageId = details.passageId;
  if (isCount(details.rank)) finding.rank = details.rank;
  return finding;
}

/** Rows shown before "show all": enough for a usual candidate list, short enough to keep the case readable. */
export const RANKED_PREVIEW = 20;

/** The ranked rows to draw: every row when asked, else the first RANKED_PREVIEW. */
export function visibleCandidates(record: RetrievalRecord, showAll: boolean): RankedPassage[] {
  return showAll ? record.candidates : record.candidates.slice(0, RANKED_PREVIEW);
}
