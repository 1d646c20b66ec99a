// `index:` of the eval file, loaded: a folder of documents the product indexes itself (chunked, searched by BM25,
// dense embeddings or both, optionally reranked) and the store its vectors live in — an embedded one by default, the
// team's own PostgreSQL + pgvector / Qdrant / Elasticsearch / OpenSearch when they outgrow one machine. Shapes only:
// the corpus layer (src/core/corpus/) builds and searches the index; the spec layer reads the block into these.
import type { ModelSpec } from '../providers/contract.js';

/** How documents are cut into chunks. Sizes are in tokens (prompt/tokens.ts, the project's counter). */
export type ChunkingSpec =
  | { by: 'tokens'; size: number; overlap: number }
  /** A chunk per Markdown heading section; a section longer than `size` tokens is cut like `by: tokens`. */
  | { by: 'heading'; size: number; overlap: number };

export type SearchMode = 'bm25' | 'dense' | 'hybrid';

/** A reranker endpoint of the common `/rerank` shape (TEI, Jina, Cohere): `{ query, documents|texts, model?, top_n? }`. */
export interface RerankSpec {
  url: string;
  model?: string;
  /** How many first-stage candidates the reranker sees (default 50). */
  candidates: number;
  /** Header name → the environment variable holding its value (read at call time, never stored). */
  headers: Record<string, { env: string; prefix?: string }>;
  timeoutMs: number;
}

/**
 * Where the vectors (and chunk texts) live. `embedded`: the product's own store under
 * `.rag-inspector/index/<hash of settings>/`. The others are the team's production store through its official client;
 * a connection string or key is always an environment variable's name, never the value. `existing: true` queries a
 * table/collection the team built (column/field names mapped), `false` lets `rag-inspector index` write to it.
 */
export type StoreSpec =
  | { type: 'embedded' }
  | { type: 'pgvector'; urlEnv: string; table: string; existing: boolean; columns: StoreColumns }
  | { type: 'qdrant'; url: string; apiKeyEnv?: string; collection: string; existing: boolean; columns: StoreColumns }
  | { type: 'elasticsearch' | 'opensearch'; url: string; apiKeyEnv?: string; index: string; existing: boolean; columns: StoreColumns };

/** Names of the id, text and vector columns (fields) in a team's own store; defaults id, text, embedding. */
export interface StoreColumns {
  id: string;
  text: string;
  vector: string;
}

export interface IndexSpec {
  /** Absolute folder of documents. */
  folder: string;
  /** Globs relative to `folder` (default: Markdown, text, HTML and JSONL files). */
  include: string[];
  exclude: string[];
  chunking: ChunkingSpec;
  search: SearchMode;
  /** Required for dense and hybrid: any OpenAI-compatible /v1/embeddings model (OpenAI, llama.cpp, Ollama, vLLM, TEI). */
  embeddings?: ModelSpec;
  /** Hybrid: reciprocal-rank fusion, `weight` on the dense list (0..1, BM25 gets 1 − weight), `rrfK` the RRF constant (60). */
  hybrid: { weight: number; rrfK: number };
  rerank?: RerankSpec;
  store: StoreSpec;
}

/**
 * `sweep:` of the eval file: values to try for each index setting, as a grid (every combination). A key left out keeps
 * the index's own value. Retrieval metrics for every cell cost no model call; `endToEnd` names cells to also run the
 * method on (cost plan first).
 */
export interface SweepSpec {
  chunkSize?: number[];
  overlap?: number[];
  embeddings?: ModelSpec[];
  hybridWeight?: number[];
  rerank?: boolean[];
  k?: number[];
  endToEnd?: SweepCellRef[];
  /** The measure the best cell is chosen by, at each cell's own k (default ndcg). */
  metric?: SweepMetric;
  /** The rag suite whose questions are measured (default the file's first). */
  suite?: string;
}

/** The measures a sweep reports per cell, each at the cell's own k (MRR and R-precision over its first k passages). */
/** The files an index reads when its `include:` names none (also the eval file schema's documentation of it). */
export const DEFAULT_CORPUS_INCLUDE: readonly string[] = ['**/*.md', '**/*.markdown', '**/*.txt', '**/*.html', '**/*.htm', '**/*.jsonl', '**/*.pdf'];

export const SWEEP_METRICS = ['recall', 'precision', 'hit_rate', 'ndcg', 'mrr', 'r_precision'] as const;
export type SweepMetric = (typeof SWEEP_METRICS)[number];

export const SWEEP_METRIC_WORDS: Readonly<Record<SweepMetric, string>> = {
  recall: 'Recall@k',
  precision: 'Precision@k',
  hit_rate: 'Hit rate@k',
  ndcg: 'nDCG@k',
  mrr: 'MRR@k',
  r_precision: 'R-precision',
};

/** One cell of the grid by its settings (the ones the sweep varies). */
export type SweepCellRef = Partial<{ chunkSize: number; overlap: number; embeddings: string; hybridWeight: number; rerank: boolean; k: number }>;
