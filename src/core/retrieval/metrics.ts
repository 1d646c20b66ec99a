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
//
// Units: trec_eval (and BEIR through pytrec_eval) count relevant *documents*, and with ids or grades a passage is one.
// With relevant_spans the relevant units are the spans (retrieval/qrels.ts labelBySpans), and one passage may hold
// two (a multi-hop question's two evidence spans in one big chunk): `relevant` then names that passage once per span.
// Per measure, with R = the relevant units and the cut-off k counted in passages (what the model is sent):
// - recall@k: units found in the first k passages / R — a passage holding two spans finds both, so the denominator
//   is the same whatever the chunking;
// - hit rate@k, MRR: whether / the rank at which the first passage holding a unit comes (passage ranks);
// - precision@k: passages among the first k that bring a unit not found higher / k — of the passages sent, how many
//   were useful, so never above 1;
// - R-precision: units found in the first R passages / R (trec_eval's relevant-in-top-R / R, counted in units);
// - nDCG@k: a passage holding several units stands for that many consecutive ranks (highest grade first), as if the
//   retriever had returned each span on its own, and the ideal DCG is taken over as many ranks: so nDCG stays ≤ 1,
//   finding every span in the best order scores 1, and one chunk holding two spans scores as two chunks one after
//   the other. With one unit per passage every measure is exactly trec_eval's.
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
 * The relevant units of one question as a record holds them, by the passage id they are found under: every entry of
 * `relevant` (those never retrieved too; a passage holding two spans is listed twice), then the grade of each
 * candidate a label judged and `relevant` does not name (a passage judged not relevant, or one the answer match or
 * the judge found).
 */
export function unitsOf(record: RetrievalRecord): Map<string, number[]> {
  const units = new Map<string, number[]>();
  for (const { id, grade } of record.relevant ?? []) units.set(id, [...(units.get(id) ?? []), grade]);
  for (const passage of record.candidates) {
    // Span labels are whole in `relevant` (each span credited to the first passage over it): a later passage over the
    // same span is shown relevant but brings no other relevant unit.
    if (passage.labelSource === 'span') continue;
    if (passage.relevance !== undefined && !units.has(passage.id)) units.set(passage.id, [passage.relevance]);
  }
  return units;
}

/** Each labelled id's grade (the highest of its units): whether a passage is relevant. Empty when nothing is labelled. */
export function qrelsOf(record: RetrievalRecord): Map<string, number> {
  return new Map([...unitsOf(record)].map(([id, grades]) => [id, Math.max(...grades)]));
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
 * One question judged once: at each rank, the grades > 0 of the units first found there (highest first; none for an
 * unlabelled id and for an id's repeats) and how many of them are relevant, R, and every judged grade > 0 in
 * decreasing order (nDCG's ideal ranking). Every measure below reads it.
 */
interface Judged {
  gains: number[][];
  relevant: number[];
  /** R: how many units the labels call relevant (trec_eval's num_rel, counted over the whole qrels). */
  r: number;
  ideal: number[];
}

function judge(ranked: readonly string[], units: ReadonlyMap<string, readonly number[]>, options: RelevanceOptions): Judged {
  const seen = new Set<string>();
  const gains: number[][] = [];
  const relevant: number[] = [];
  for (const id of ranked) {
    const grades = seen.has(id) ? [] : units.get(id) ?? [];
    seen.add(id);
    gains.push(grades.filter((grade) => grade > 0).sort((a, b) => b - a));
    relevant.push(grades.filter((grade) => isRelevant(grade, options)).length);
  }
  const all = [...units.values()].flat();
  const ideal = all.filter((grade) => grade > 0).sort((a, b) => b - a);
  return { gains, relevant, r: all.filter((grade) => isRelevant(grade, options)).length, ideal };
}

/** Ids or grades: each labelled document is one unit. */
const unitsOfQrels = (qrels: Qrels): Map<string, number[]> => new Map([...qrels].map(([id, grade]) => [id, [grade]]));

/** R: how many documents the labels call relevant (trec_eval's num_rel, counted over the whole qrels). */
export function relevantCount(qrels: Qrels, options: RelevanceOptions = {}): number {
  let count = 0;
  for (const grade of qrels.values()) if (isRelevant(grade, options)) count++;
  return count;
}

function relevantInTop(judged: Judged, k: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(k, judged.relevant.length); i++) count += judged.relevant[i] as number;
  return count;
}

function passagesInTop(judged: Judged, k: number): number {
  let count = 0;
  for (let i = 0; i < Math.min(k, judged.relevant.length); i++) if ((judged.relevant[i] as number) > 0) count++;
  return count;
}

const recallOf = (j: Judged, k: number) => (j.r === 0 ? 0 : relevantInTop(j, k) / j.r);
const precisionOf = (j: Judged, k: number) => (k <= 0 ? 0 : passagesInTop(j, k) / k);
const hitOf = (j: Judged, k: number) => (relevantInTop(j, k) > 0 ? 1 : 0);
const firstRankOf = (j: Judged) => {
  const at = j.relevant.findIndex((count) => count > 0);
  return at < 0 ? null : at + 1;
};
const reciprocalOf = (j: Judged) => {
  const rank = firstRankOf(j);
  return rank === null ? 0 : 1 / rank;
};
const rPrecisionOf = (j: Judged) => (j.r === 0 ? 0 : relevantInTop(j, j.r) / j.r);

function ndcgOf(j: Judged, k: number): number {
  // A passage holding n units takes n consecutive ranks; the ideal is cut at as many ranks as the first k passages took.
  let dcg = 0;
  let extra = 0;
  let position = 0;
  for (let i = 0; i < Math.min(k, j.gains.length); i++) {
    const gains = j.gains[i] as number[];
    if (gains.length === 0) position++;
    for (const grade of gains) dcg += grade / Math.log2(++position + 1);
    extra += Math.max(0, gains.length - 1);
  }
  let idcg = 0;
  for (let i = 0; i < Math.min(k + extra, j.ideal.length); i++) idcg += (j.ideal[i] as number) / Math.log2(i + 2);
  return idcg > 0 ? dcg / idcg : 0;
}

/** trec_eval `recall_k` (m_recall.c): relevant retrieved in the top k / R. */
export function recallAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return recallOf(judge(ranked, unitsOfQrels(qrels), options), k);
}

/** trec_eval `P_k` (m_P.c): relevant retrieved in the top k / k, dividing by k even when fewer than k were retrieved. */
export function precisionAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return precisionOf(judge(ranked, unitsOfQrels(qrels), options), k);
}

/** trec_eval `success_k` (m_success.c), ir_measures `Success@k`, "hit rate@k": 1 when a relevant one is in the top k. */
export function hitRateAt(ranked: readonly string[], qrels: Qrels, k: number, options: RelevanceOptions = {}): number {
  return hitOf(judge(ranked, unitsOfQrels(qrels), options), k);
}

/** The 1-based rank of the first relevant id, or null when none was retrieved. */
export function firstRelevantRank(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number | null {
  return firstRankOf(judge(ranked, unitsOfQrels(qrels), options));
}

/** trec_eval `recip_rank` (m_recip_rank.c), ir_measures `RR`: 1 / rank of the first relevant, 0 when none retrieved. */
export function reciprocalRank(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number {
  return reciprocalOf(judge(ranked, unitsOfQrels(qrels), options));
}

/**
 * trec_eval `Rprec` (m_Rprec.c), ir_measures `Rprec`: precision after R documents, R = how many are relevant; when
 * fewer than R were retrieved, the relevant among them still divide by R.
 */
export function rPrecision(ranked: readonly string[], qrels: Qrels, options: RelevanceOptions = {}): number {
  return rPrecisionOf(judge(ranked, unitsOfQrels(qrels), options));
}

/**
 * trec_eval `ndcg_cut_k` (m_ndcg_cut.c, 9.0 and later), ir_measures `nDCG@k`: DCG@k = Σ_{rank ≤ k} grade / log2(rank + 1)
 * over the grades > 0; the ideal DCG@k puts every judged grade > 0 of the qrels (retrieved or not) in decreasing order
 * into the first k ranks; nDCG@k = DCG@k / IDCG@k, 0 when nothing is relevant. (trec_eval 8 left ranks 1 and 2 both
 * undiscounted, log2(rank) from rank 2; 9.0 changed to log2(rank + 1), which ir_measures documents.)
 */
export function ndcgAt(ranked: readonly string[], qrels: Qrels, k: number): number {
  return ndcgOf(judge(ranked, unitsOfQrels(qrels), {}), k);
}

/** Every measure of one question, at each of `ks` (same order). */
export interface QuestionMetrics {
  /** R: relevant units the labels know of (documents, or spans). */
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
  return measured(judge(ranked, unitsOfQrels(qrels), options), ks);
}

/**
 * The measures of what a case or a sweep cell recorded, counted in its units (spans hold several per passage): the
 * one way the rag method's report and the sweep measure a question.
 */
export function recordMetrics(record: RetrievalRecord, ks: readonly number[], options: RelevanceOptions = {}): QuestionMetrics | undefined {
  return measured(judge(rankedIds(record), unitsOf(record), options), ks);
}

function measured(j: Judged, ks: readonly number[]): QuestionMetrics | undefined {
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
