// Weighted reciprocal-rank fusion: how a hybrid index joins its BM25 and dense rankings into one.

/** One ranking to fuse: ids best first, and how much it counts. */
export interface RankedList {
  ids: readonly string[];
  weight: number;
}

/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, "Reciprocal Rank Fusion outperforms Condorcet and Individual
 * Rank Learning Methods", SIGIR 2009): RRFscore(d) = Σ_r 1 / (k + r(d)) over the rankings r that hold d, ranks 1-based,
 * k = 60 in the paper. Weighted as the hybrid search engines do (a ranking's term multiplied by its weight), so
 * weight 0.7 on the dense list leans the fusion towards it. Only a rank enters, never a score, which is why BM25 and
 * cosine scores need no normalisation. Best first; a tie keeps the order of first appearance (the first list's
 * order, then the next's), so the result is deterministic.
 */
export function reciprocalRankFusion(lists: readonly RankedList[], k: number): { id: string; score: number }[] {
  if (!(k > 0)) throw new RangeError(`the RRF constant must be positive, got ${k}`);
  const scores = new Map<string, number>();
  for (const list of lists) {
    list.ids.forEach((id, index) => {
      scores.set(id, (scores.get(id) ?? 0) + list.weight / (k + index + 1));
    });
  }
  // Map iteration keeps insertion order, and Array.prototype.sort is stable: ties stay in first-appearance order.
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
