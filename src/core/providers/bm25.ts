// Okapi BM25 over a small in-memory collection: how the extractive baseline ranks a prompt's sentences against its question.
// Written here rather than taken from a library: it is a few lines, it is the baseline's whole behaviour (so it should be
// readable in place), and it must stay deterministic and dependency-free.

export interface Bm25Parameters {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation: 0 ignores sentence length, 1 normalises fully. */
  b: number;
}

export const OKAPI_DEFAULTS: Bm25Parameters = { k1: 1.2, b: 0.75 };

/** One score per document (a document is its list of terms); 0 means the document shares no term with the query. */
export function bm25Scores(query: string[], documents: string[][], parameters: Bm25Parameters = OKAPI_DEFAULTS): number[] {
  if (documents.length === 0) return [];
  const averageLength = documents.reduce((sum, document) => sum + document.length, 0) / documents.length || 1;
  const frequencies = documentFrequencies(documents);
  const queryTerms = [...new Set(query)];
  return documents.map((document) => {
    const counts = termCounts(document);
    let score = 0;
    for (const term of queryTerms) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      const norm = parameters.k1 * (1 - parameters.b + (parameters.b * document.length) / averageLength);
      score += inverseDocumentFrequency(documents.length, frequencies.get(term) ?? 0) * ((tf * (parameters.k1 + 1)) / (tf + norm));
    }
    return score;
  });
}

/** The index of the highest score; the earliest wins a tie. -1 for no scores. */
export function bestIndex(scores: number[]): number {
  let best = -1;
  scores.forEach((score, index) => {
    if (best === -1 || score > (scores[best] ?? 0)) best = index;
  });
  return best;
}

/** The "+1" IDF (as in Lucene): it stays positive for a term found in most sentences, so any shared term beats none. */
function inverseDocumentFrequency(total: number, containing: number): number {
  return Math.log(1 + (total - containing + 0.5) / (containing + 0.5));
}

function documentFrequencies(documents: string[][]): Map<string, number> {
  const frequencies = new Map<string, number>();
  for (const document of documents) {
    for (const term of new Set(document)) frequencies.set(term, (frequencies.get(term) ?? 0) + 1);
  }
  return frequencies;
}

function termCounts(document: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of document) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
