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
  return new Bm25Index(documents, parameters).scores(query);
}

/**
 * The collection's statistics computed once (document frequencies, lengths, term counts), so a corpus index scores
 * each question without going over every document's terms again.
 */
export class Bm25Index {
  private readonly frequencies: Map<string, number>;
  private readonly counts: Map<string, number>[];
  private readonly lengths: number[];
  private readonly averageLength: number;
  /** For each term, the documents holding it: a question's terms visit only those. */
  private readonly postings = new Map<string, number[]>();

  constructor(documents: readonly string[][], private readonly parameters: Bm25Parameters = OKAPI_DEFAULTS) {
    this.lengths = documents.map((document) => document.length);
    this.averageLength = documents.length === 0 ? 1 : this.lengths.reduce((sum, length) => sum + length, 0) / documents.length || 1;
    this.frequencies = documentFrequencies(documents);
    this.counts = documents.map(termCounts);
    this.counts.forEach((counts, index) => {
      for (const term of counts.keys()) {
        const list = this.postings.get(term);
        if (list) list.push(index);
        else this.postings.set(term, [index]);
      }
    });
  }

  get size(): number {
    return this.lengths.length;
  }

  /** One score per document, in the collection's order. */
  scores(query: readonly string[]): number[] {
    const scores = new Array<number>(this.size).fill(0);
    const { k1, b } = this.parameters;
    for (const term of new Set(query)) {
      const idf = inverseDocumentFrequency(this.size, this.frequencies.get(term) ?? 0);
      for (const index of this.postings.get(term) ?? []) {
        const tf = this.counts[index]!.get(term) ?? 0;
        const norm = k1 * (1 - b + (b * this.lengths[index]!) / this.averageLength);
        scores[index]! += idf * ((tf * (k1 + 1)) / (tf + norm));
      }
    }
    return scores;
  }
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

function documentFrequencies(documents: readonly string[][]): Map<string, number> {
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
