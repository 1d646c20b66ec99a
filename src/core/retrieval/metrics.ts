// Retrieval metrics of one question from its ranked ids and its relevance labels, defined as trec_eval defines them
// (usnistgov/trec_eval, the reference ir_measures reproduces through pytrec_eval), so a user can check our numbers.
//
// Ranking: rank 1 is the first id as the retriever returned it, and ties in score keep that order. trec_eval itself
// re-sorts a run by score, breaking ties by docno in reverse lexical order (form_res_rels.c, comp_sim_docno), and
// pytrec_eval (ir_measures' default provider for these measures) runs the same code. We deliberately do not: the
// model was sent the passages in the retriever's order, and the metrics must describe that list. Both agree whenever
// the scores strictly decrease down the list (feed trec_eval `score = -rank` to reproduce ours exactly).
//
// Relevance: a document is relevant when its grade is > 0, or ≥ `relevanceLevel` when given (trec_eval's `-l`).
// nDCG's gains are the grades themselves (> 0) whatever the level, as trec_eval's ndcg_cut takes them.
// An id repeated further down the list counts only at its first rank (trec_eval refuses such a run outright); the
// retriever check rejects duplicates, so this only keeps a hand-made record from counting a document twice.
import type { Qrels, RetrievalRecord } from './contract.js';

export interface RelevanceOptions {
  /** A grade at or above this is relevant (trec_eval `-l`); undefined: any grade > 0. */
  relevanceLevel?: number;
}

/** Whether a grade counts as relevant under the options. */
export function isRelevant(grade: number | undefined, options: RelevanceOptions = {}): boolean {
  if (grade === undefined || Number.isNaN(grade)) return false;
  return options.relevanceLevel === undefined ? grade > 0 : grade >= options.relevanceLevel;
}

/**
 * The labels of one question as a record holds them: every relevant id from `relevant` (those never retrieved too),
 * then the grade of each candidate a label judged and `relevant` does not name (a passage judged not relevant, or
 * one the answer match or the judge found). Empty when nothing is labelled.
 */
export function qrelsOf(record: RetrievalRecord): Map<string, number> {
  const qrels = new Map<string, number>();
  for (const { id, grade } of record.relevant ?? []) qrels.set(id, grade);
  for (const passage of record.candidates) {
    // Span labels are whole in `relevant` (each span credited to the first passage over it): a later passage over the
    // same span is shown relevant but is not another relevant document.
    if (passage.labelSource === 'span') continue;
    if (passage.relevance !== undefined && !qrels.has(passage.id)) qrels.set(passage.id, passage.relevance);
  }
  return qrels;
}

/** Whether any label speaks about this question at all (a list of relevant ids, or a judged candidate). */
export function isLabelled(record: RetrievalRecord): boolean {
  return record.relevant !== undefined || record.candidates.some((passage) => passage.relevance !== undefined);
}

/** The ids in rank order, rank 1 first (the record's candidates sorted by their 1-based rank, stable). */
export function rankedIds(record: RetrievalRecord): string[] {
  return record.candidates
    .map((passage, index) => ({ passage, index }))
    .sort((a, b) => a.passage.rank - b.passage.rank || a.index - b.index)
    .map(({ passage }) => passage.id);
}

/**
 * One question judged once: the grade at each rank (0 for an unlabelled id and for an id's repeats), which ranks are
 * relevant, R, and the judged grades > 0 in decreasing order (nDCG's ideal ranking). Every measure below reads it.
 */
interface Judged {
  grades: number[];
  relevant: boolean[];
  /** R: how many documents the labels call relevant (trec_eval's num_rel, counted over the whole qrels). */
  r: number;
  ideal: number[];
}

function judge(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions): Judged {
  const seen = new Set<string>();
  const grades: number[] = [];
  const relevant: boolean[] = [];
  for (const id of ranked) {
    const repeat = seen.has(id);
    seen.add(id);
    const grade = repeat ? 0 : qrels.get(id) ?? 0;
    grades.push(grade);
    relevant.push(!repeat && qrels.has(id) && isRelevant(grade, options));
  }
  const ideal = [...qrels.values()].filter((grade) => grade > 0).sort((a, b) => b - a);
  return { grades, relevant, r: relevantCount(qrels, options), ideal };
}

/** R: how many documents the labels call relevant (trec_eval's num_rel, counted over the whole qrels). */
export function relevantCount(qrels: Qrels, options: RelevanceOptions = {}): number {
  let count = 0;
  for (const grade of qrels.values()) if (isRelevant(grade, options)) count++;
  return count;
}

function relevantInTop(judged: Judged, k: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(k, judged.relevant.length); i++) if (judged.relevant[i]) count++;
  return count;
}

const recallOf = (j: Judged, k: number) => (j.r === 0 ? 0 : relevantInTop(j, k) / j.r);
const precisionOf = (j: Judged, k: number) => (k <= 0 ? 0 : relevantInTop(j, k) / k);
const hitOf = (j: Judged, k: number) => (relevantInTop(j, k) > 0 ? 1 : 0);
const firstRankOf = (j: Judged) => {
  const at = j.relevant.indexOf(true);
  return at < 0 ? null : at + 1;
};
const reciprocalOf = (j: Judged) => {
  const rank = firstRankOf(j);
  return rank === null ? 0 : 1 / rank;
};
const rPrecisionOf = (j: Judged) => (j.r === 0 ? 0 : relevantInTop(j, j.r) / j.r);

function ndcgOf(j: Judged, k: number): number {
  let dcg = 0;
  for (let i = 0; i < Math.min(k, j.grades.length); i++) {
    const grade = j.grades[i] as number;
    if (grade > 0) dcg += grade / Math.log2(i + 2);
  }
  let idcg = 0;
  for (let i = 0; i < Math.min(k, j.ideal.length); i++) idcg += (j.ideal[i] as number) / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** trec_eval `recall_k` (m_recall.c): relevant retrieved in the top k / R. */
export function recallAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return recallOf(judge(ranked, qrels, options), k);
}

/** trec_eval `P_k` (m_P.c): relevant retrieved in the top k / k, dividing by k even when fewer than k were retrieved. */
export function precisionAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return precisionOf(judge(ranked, qrels, options), k);
}

/** trec_eval `success_k` (m_success.c), ir_measures `Success@k`, "hit rate@k": 1 when a relevant one is in the top k. */
export function hitRateAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return hitOf(judge(ranked, qrels, options), k);
}

/** The 1-based rank of the first relevant id, or null when none was retrieved. */
export function firstRelevantRank(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number | null {
  return firstRankOf(judge(ranked, qrels, options));
}

/** trec_eval `recip_rank` (m_recip_rank.c), ir_measures `RR`: 1 / rank of the first relevant, 0 when none retrieved. */
export function reciprocalRank(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number {
  return reciprocalOf(judge(ranked, qrels, options));
}

/**
 * trec_eval `Rprec` (m_Rprec.c), ir_measures `Rprec`: precision after R documents, R = how many are relevant; when
 * fewer than R were retrieved, the relevant among them still divide by R.
 */
export function rPrecision(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number {
  return rPrecisionOf(judge(ranked, qrels, options));
}

/**
 * trec_eval `ndcg_cut_k` (m_ndcg_cut.c, 9.0 and later), ir_measures `nDCG@k`: DCG@k = Σ_{rank ≤ k} grade / log2(rank + 1)
 * over the grades > 0; the ideal DCG@k puts every judged grade > 0 of the qrels (retrieved or not) in decreasing order
 * into the first k ranks; nDCG@k = DCG@k / IDCG@k, 0 when nothing is relevant. (trec_eval 8 left ranks 1 and 2 both
 * undiscounted, log2(rank) from rank 2; 9.0 changed to log2(rank + 1), which ir_measures documents.)
 */
export function ndcgAt(ranked: readonly string[], qrels: Qrels, k: number): number {
  return ndcgOf(judge(ranked, qrels, {}), k);
}

/** Every measure of one question, at each of `ks` (same order). */
export interface QuestionMetrics {
  /** R: relevant documents the labels know of. */
  relevant: number;
  firstRelevantRank: number | null;
  recall: number[];
  precision: number[];
  hitRate: number[];
  ndcg: number[];
  reciprocalRank: number;
  rPrecision: number;
}

/**
 * The measures of one question, or undefined when its labels call nothing relevant: trec_eval skips such a topic
 * (no relevant documents, every measure undefined), so it is left out of every mean, and the caller counts it.
 */
export function questionMetrics(ranked: readonly string[], qrels: Qrels, ks: readonly number[], options: RelevanceOptions = {}): QuestionMetrics | undefined {
  const j = judge(ranked, qrels, options);
  if (j.r === 0) return undefined;
  return {
    relevant: j.r,
    firstRelevantRank: firstRankOf(j),
    recall: ks.map((k) => recallOf(j, k)),
    precision: ks.map((k) => precisionOf(j, k)),
    hitRate: ks.map((k) => hitOf(j, k)),
    ndcg: ks.map((k) => ndcgOf(j, k)),
    reciprocalRank: reciprocalOf(j),
    rPrecision: rPrecisionOf(j),
  };
}
