// Searching a built index: BM25 over its chunks, dense through its store, hybrid by weighted reciprocal-rank fusion,
// then optionally the reranker. What the index retriever asks for each question.
import { termsOf } from '../providers/extractive.js';
import { Bm25Index } from '../providers/bm25.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { EmbeddingClient } from '../suites/contract.js';
import type { Chunk, VectorStore } from './contract.js';
import { reciprocalRankFusion } from './fusion.js';
import type { Reranker } from './rerank.js';

/** A chunk found for a question, with the score of the stage that placed it last (BM25, cosine, RRF or the reranker). */
export interface SearchHit {
  id: string;
  text: string;
  score: number;
  /** The chunk as the index keeps it; undefined for a hit from a team's own store that this index never chunked. */
  chunk?: Chunk;
}

/**
 * BM25 over the chunks' texts, each tokenised once when the search is made: lower-cased word segments by
 * Intl.Segmenter (providers/extractive.ts termsOf), whose dictionaries split Chinese and Japanese into words, so a
 * CJK corpus is searched by words rather than whole lines. Okapi k1 = 1.2, b = 0.75 (providers/bm25.ts).
 */
export class Bm25ChunkSearch {
  private readonly index: Bm25Index;

  constructor(private readonly chunks: readonly Chunk[]) {
    this.index = new Bm25Index(chunks.map((chunk) => termsOf(chunk.text)));
  }

  /** The best `k` chunks sharing a term with the question (a chunk sharing none is no match); ties in chunk order. */
  search(question: string, k: number): SearchHit[] {
    const scores = this.index.scores(termsOf(question));
    const matched: number[] = [];
    scores.forEach((score, index) => {
      if (score > 0) matched.push(index);
    });
    matched.sort((a, b) => scores[b]! - scores[a]! || a - b);
    return matched.slice(0, k).map((index) => {
      const chunk = this.chunks[index]!;
      return { id: chunk.id, text: chunk.text, score: scores[index]!, chunk };
    });
  }
}

/** What a search needs besides the settings: the parts the index's search mode uses. */
export interface SearchParts {
  /** Every chunk of the index, for BM25 and to give a dense hit its place in the file. */
  chunks: readonly Chunk[];
  bm25?: Bm25ChunkSearch;
  /** Dense and hybrid: the store and the client embedding the question (the same model the chunks were embedded with). */
  store?: VectorStore;
  embeddings?: EmbeddingClient;
  reranker?: Reranker;
}

/**
 * The `k` best chunks for `question` as `spec` says to search: each first stage asks for at least `k` (with a
 * reranker, its `candidates`), hybrid fuses the two lists, and a reranker orders the first stage's list.
 */
export async function searchIndex(spec: Pick<IndexSpec, 'search' | 'hybrid' | 'rerank'>, parts: SearchParts, question: string, k: number, signal: AbortSignal): Promise<SearchHit[]> {
  const firstStage = parts.reranker && spec.rerank ? Math.max(k, spec.rerank.candidates) : k;
  const found = await firstStageHits(spec, parts, question, firstStage, signal);
  if (!parts.reranker) return found.slice(0, k);
  const order = await parts.reranker.rerank(question, found.map((hit) => hit.text), k, signal);
  return order.map(({ index, score }) => ({ ...found[index]!, score }));
}

async function firstStageHits(spec: Pick<IndexSpec, 'search' | 'hybrid'>, parts: SearchParts, question: string, k: number, signal: AbortSignal): Promise<SearchHit[]> {
  switch (spec.search) {
    case 'bm25':
      return bm25Of(parts).search(question, k);
    case 'dense':
      return denseHits(parts, question, k, signal);
    case 'hybrid': {
      const lexical = bm25Of(parts).search(question, k);
      const dense = await denseHits(parts, question, k, signal);
      const byId = new Map<string, SearchHit>([...dense, ...lexical].map((hit) => [hit.id, hit]));
      const fused = reciprocalRankFusion([
        { ids: dense.map((hit) => hit.id), weight: spec.hybrid.weight },
        { ids: lexical.map((hit) => hit.id), weight: 1 - spec.hybrid.weight },
      ], spec.hybrid.rrfK);
      return fused.slice(0, k).map(({ id, score }) => ({ ...byId.get(id)!, score }));
    }
  }
}

function bm25Of(parts: SearchParts): Bm25ChunkSearch {
  if (!parts.bm25) throw new Error('the index was opened without its BM25 search');
  return parts.bm25;
}

/** The question embedded with the index's model, then the store's nearest chunks by cosine similarity. */
async function denseHits(parts: SearchParts, question: string, k: number, signal: AbortSignal): Promise<SearchHit[]> {
  if (!parts.store || !parts.embeddings) throw new Error('the index was opened without its store or embedding model');
  const [vector] = await parts.embeddings.embed([question], signal);
  const hits = await parts.store.search(vector!, k, signal);
  const byId = chunkMap(parts.chunks);
  return hits.map((hit) => {
    const chunk = byId.get(hit.id);
    return { id: hit.id, text: chunk?.text ?? hit.text, score: hit.score, ...(chunk ? { chunk } : {}) };
  });
}

const chunkMaps = new WeakMap<readonly Chunk[], Map<string, Chunk>>();

/** Chunk by id, made once per chunk list. */
function chunkMap(chunks: readonly Chunk[]): Map<string, Chunk> {
  let map = chunkMaps.get(chunks);
  if (!map) {
    map = new Map(chunks.map((chunk) => [chunk.id, chunk]));
    chunkMaps.set(chunks, map);
  }
  return map;
}
