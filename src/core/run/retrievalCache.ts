// The run's retriever through the on-disk cache: a question asked before (same retriever, question, k and params) is
// answered from disk, so a rerun makes no retriever call; the calls it does make are counted and timed.
import { createHash } from 'node:crypto';
import type { Retriever, RetrievalRequest, RetrievalResponse, RetrievedItem } from '../retrieval/contract.js';
import { canonicalJson } from './cache.js';
import { JsonEntryStore } from './jsonEntryStore.js';

const RETRIEVAL_CACHE_FORMAT = 1;

interface RetrievalEntry {
  format: number;
  items: RetrievedItem[];
  latencyMs: number;
}

export interface RetrieverCounters {
  /** Calls that reached the retriever (failed ones included). */
  calls: number;
  cacheHits: number;
}

export type CountedRetriever = Retriever & { readonly counters: RetrieverCounters };

/** The cache key: the retriever's identity (never a secret), the question, k and the params passed through. */
export function retrievalKey(identity: string, request: RetrievalRequest): string {
  const input = { format: RETRIEVAL_CACHE_FORMAT, retriever: identity, question: request.question, k: request.k, params: request.params ?? {} };
  return createHash('sha256').update(canonicalJson(input)).digest('hex');
}

/**
 * `inner` through the cache in `dir` (none: every question is asked); `refresh` asks again and stores the fresh
 * answer. Only a successful answer is stored: a failure is asked again next time. `close` closes `inner`.
 */
export function cachedRetriever(inner: Retriever, dir: string | undefined, options: { refresh?: boolean } = {}): CountedRetriever {
  const store = dir ? new JsonEntryStore<RetrievalEntry>(dir, readEntry, (entry) => entry) : undefined;
  const counters: RetrieverCounters = { calls: 0, cacheHits: 0 };
  return {
    identity: inner.identity,
    kind: inner.kind,
    counters,
    async retrieve(request, signal): Promise<RetrievalResponse> {
      const key = store ? retrievalKey(inner.version ? `${inner.identity} @${await inner.version(signal)}` : inner.identity, request) : undefined;
      const hit = key && !options.refresh ? await store!.get(key) : undefined;
      if (hit) {
        counters.cacheHits += 1;
        return { items: hit.items, latencyMs: 0, cached: true };
      }
      counters.calls += 1;
      const response = await inner.retrieve(request, signal);
      // A cache that cannot be written costs reruns, not this answer.
      if (key) await store!.set(key, { format: RETRIEVAL_CACHE_FORMAT, items: response.items, latencyMs: response.latencyMs }).catch(() => undefined);
      return response;
    },
    close: () => inner.close?.() ?? Promise.resolve(),
  };
}

function readEntry(entry: unknown): RetrievalEntry | undefined {
  const e = entry as RetrievalEntry | null;
  if (e?.format !== RETRIEVAL_CACHE_FORMAT || !Array.isArray(e.items) || typeof e.latencyMs !== 'number') return undefined;
  return e.items.every((item) => typeof item?.id === 'string' && typeof item.text === 'string') ? e : undefined;
}
