// The `index` retriever: the eval file's `index:` searched as the rag method's retriever. Built (or brought up to date)
// on the first question, once for every question of the run; each passage says where it came from (file, lines,
// characters, heading, a PDF's pages) so the inspector opens it at its place.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { displayUrl } from '../retrieval/http.js';
import { RetrieverError } from '../retrieval/contract.js';
import type { RetrievalResponse, RetrievedItem, Retriever } from '../retrieval/contract.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { CountingEmbeddingClient } from '../run/embeddingClient.js';
import { buildIndex } from './build.js';
import type { BuiltIndex } from './build.js';
import type { IndexProgress, VectorStore } from './contract.js';
import { indexHash } from './indexDir.js';
import { createReranker } from './rerank.js';
import { Bm25ChunkSearch, searchIndex } from './search.js';
import type { SearchHit, SearchParts } from './search.js';

export interface IndexRetrieverOptions {
  spec: IndexSpec;
  stateDir: string;
  /** Header variables of the reranker are read from here at every call. */
  env: NodeJS.ProcessEnv;
  embeddings?: CountingEmbeddingClient;
  openStore?: (indexDir: string) => Promise<VectorStore>;
  onProgress?: (progress: IndexProgress) => void;
  /** Told once the index is ready (what the build did). */
  onBuilt?: (built: BuiltIndex) => void;
}

/** "index: hybrid (dense 0.7, RRF k 60), rerank: http://…/rerank, docs/ [3fa1…]": what the cache key and the report name. */
export function indexIdentity(spec: IndexSpec): string {
  const search = spec.search === 'hybrid' ? `hybrid (dense ${spec.hybrid.weight}, RRF k ${spec.hybrid.rrfK})` : spec.search;
  const rerank = spec.rerank ? `, rerank: ${displayUrl(spec.rerank.url)}${spec.rerank.model ? ` ${spec.rerank.model}` : ''} of ${spec.rerank.candidates}` : '';
  return `index: ${search}${rerank}, ${spec.folder} [${indexHash(spec)}]`;
}

/** `version`: the index's contents, built first if need be, so an edited corpus is searched again, not answered from the cache. */
export type IndexRetriever = Retriever & Required<Pick<Retriever, 'version'>>;

export function createIndexRetriever(options: IndexRetrieverOptions): IndexRetriever {
  const { spec } = options;
  const identity = indexIdentity(spec);
  const reranker = spec.rerank ? createReranker(spec.rerank, options.env) : undefined;
  let opening: Promise<{ parts: SearchParts; version: string }> | undefined;
  let store: VectorStore | undefined;
  let closed = false;

  /** One build for every question; a cancelled one is started again by the next question, a failed one is told to each. */
  function open(signal: AbortSignal): Promise<{ parts: SearchParts; version: string }> {
    opening ??= (async () => {
      try {
        const built = await buildIndex({ spec, stateDir: options.stateDir, ...(options.embeddings ? { embeddings: options.embeddings } : {}), ...(options.openStore ? { openStore: options.openStore } : {}), signal, ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
        store = built.store;
        if (closed) await store?.close();
        options.onBuilt?.(built);
        const parts: SearchParts = {
          chunks: built.chunks,
          ...(spec.search === 'dense' ? {} : { bm25: new Bm25ChunkSearch(built.chunks) }),
          ...(built.store ? { store: built.store } : {}),
          ...(options.embeddings ? { embeddings: options.embeddings } : {}),
          ...(reranker ? { reranker } : {}),
        };
        return { parts, version: contentVersion(built) };
      } catch (error) {
        if (signal.aborted) {
          opening = undefined;
          throw error;
        }
        throw error instanceof RetrieverError ? error : new RetrieverError('start', `the index of ${spec.folder} could not be built: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    return opening;
  }

  return {
    identity,
    kind: 'index',
    version: async (signal) => (await open(signal)).version,
    async retrieve(request, signal): Promise<RetrievalResponse> {
      const { parts } = await open(signal);
      const started = performance.now();
      const hits = await searchIndex(spec, parts, request.question, request.k, signal);
      return { items: hits.map((hit) => itemOf(hit, spec.folder)), latencyMs: performance.now() - started, cached: false };
    },
    async close() {
      closed = true;
      await store?.close();
    },
  };
}

/** A hit as the rag method records it: the chunk's id and text, and where it is (`path` absolute, for the inspector). */
function itemOf(hit: SearchHit, folder: string): RetrievedItem {
  const chunk = hit.chunk;
  if (!chunk) return { id: hit.id, text: hit.text, score: hit.score };
  return {
    id: hit.id,
    text: hit.text,
    score: hit.score,
    metadata: {
      file: chunk.file,
      startLine: chunk.startLine,
      endLine: chunk.endLine,
      startChar: chunk.startChar,
      endChar: chunk.endChar,
      ...(chunk.heading ? { heading: chunk.heading } : {}),
      ...(chunk.startPage === undefined ? {} : { startPage: chunk.startPage, endPage: chunk.endPage }),
      path: path.join(folder, chunk.file),
    },
  };
}

/** sha256 over every chunk's id and text: changes exactly when what a search can return changes. */
function contentVersion(built: BuiltIndex): string {
  const hash = createHash('sha256');
  for (const chunk of built.chunks) hash.update(chunk.id).update('\0').update(chunk.text).update('\0');
  return hash.digest('hex').slice(0, 16);
}
