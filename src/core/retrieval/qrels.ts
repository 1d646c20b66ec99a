// Relevance labels of one question from its row: a list of relevant ids, graded relevance ({id: grade}), or, when the
// row has neither, the answer found in a passage (the caller's rule); and the ranked candidates labelled with them
// and placed (their source).
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
 * absolute `file`) with its 1-based lines, or a `url`. The inspector opens the file at the line; a URL is shown.
 */
export function sourceOf(metadata: Record<string, unknown> | undefined): { source?: PassageSource } {
  if (!metadata) return {};
  const file = typeof metadata.path === 'string' ? metadata.path : typeof metadata.file === 'string' && path.isAbsolute(metadata.file) ? metadata.file : undefined;
  const line = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined);
  const startLine = line(metadata.startLine);
  const endLine = line(metadata.endLine);
  const url = typeof metadata.url === 'string' && /^https?:\/\//.test(metadata.url) ? metadata.url : undefined;
  if (!file && !url) return {};
  return { source: { ...(file ? { file } : {}), ...(file && startLine ? { startLine } : {}), ...(file && endLine ? { endLine } : {}), ...(url ? { url } : {}) } };
}

/** Every id the row's qrels call relevant (grade > 0), retrieved or not: recall's denominator. */
export function relevantOf(labels: RowQrels | undefined): RetrievalRecord['relevant'] {
  if (!labels) return undefined;
  return [...labels.qrels].filter(([, grade]) => grade > 0).map(([id, grade]) => ({ id, grade }));
}
