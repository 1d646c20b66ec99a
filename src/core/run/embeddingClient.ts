// The EmbeddingClient suites call: one vector per text, from a per-text disk cache, else batched provider calls through the scheduler.
import { createHash } from 'node:crypto';
import { ProviderError } from '../providers/contract.js';
import type { EmbeddingProvider } from '../providers/contract.js';
import type { EmbeddingClient } from '../suites/contract.js';
import { canonicalJson, endpointIdentity } from './cache.js';
import { JsonEntryStore } from './jsonEntryStore.js';
import type { Scheduler } from './scheduler.js';
import { forEachConcurrent } from '../pool.js';

/** Part of every key: a change to what a key covers or to the entry layout invalidates old entries. */
const EMBEDDING_CACHE_FORMAT = 1;

/** OpenAI accepts up to 2048 inputs per request; smaller batches keep one failure cheap to retry. */
const DEFAULT_BATCH_SIZE = 64;

export interface EmbeddingClientOptions {
  /** "provider:model". */
  key: string;
  provider: EmbeddingProvider;
  model: string;
  scheduler: Scheduler;
  /** Folder for cached vectors (one file per text); no disk cache when undefined. */
  cacheDir?: string;
  batchSize?: number;
}

export interface EmbeddingCallCounters {
  /** Texts asked for, duplicates within one call counted once. */
  texts: number;
  /** Texts answered from the disk cache. */
  cacheHits: number;
  /** Texts another call was already embedding (shared, not sent twice). */
  shared: number;
  /** Batches sent to the provider path (retries not counted). */
  batches: number;
  /** Provider invocations, retries included: what the vendor sees and bills. */
  providerCalls: number;
  /** Batches that failed after their retries. */
  failures: number;
  inputTokens: number;
}

export interface CountingEmbeddingClient extends EmbeddingClient {
  readonly counters: Readonly<EmbeddingCallCounters>;
}

/** sha256 of what determines a vector: endpoint (no secrets), provider, model and the exact text. */
export function embeddingCacheKey(providerId: string, endpoint: string, model: string, text: string): string {
  const identity = { format: EMBEDDING_CACHE_FORMAT, kind: 'embedding', providerId, endpoint: endpointIdentity(endpoint), model, text };
  return createHash('sha256').update(canonicalJson(identity)).digest('hex');
}

/**
 * Which of `texts` the disk cache under `cacheDir` holds a vector for, for the embedding model `identity` + `model`:
 * what the cost plan leaves out, since the client will not send them. Reads only; a few files at a time.
 */
export async function cachedEmbeddings(cacheDir: string, identity: { id: string; endpoint: string }, model: string, texts: readonly string[], signal: AbortSignal): Promise<Set<string>> {
  const store = new VectorStore(cacheDir);
  const cached = new Set<string>();
  await forEachConcurrent(new Set(texts), 16, signal, async (text) => {
    if (await store.get(embeddingCacheKey(identity.id, identity.endpoint, model, text)).catch(() => undefined)) cached.add(text);
  });
  signal.throwIfAborted();
  return cached;
}

export function createEmbeddingClient(options: EmbeddingClientOptions): CountingEmbeddingClient {
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a whole number ≥ 1, got ${batchSize}`);
  const counters: EmbeddingCallCounters = { texts: 0, cacheHits: 0, shared: 0, batches: 0, providerCalls: 0, failures: 0, inputTokens: 0 };
  const store = options.cacheDir ? new VectorStore(options.cacheDir) : undefined;
  const keyOf = (text: string) => embeddingCacheKey(options.provider.id, options.provider.endpoint, options.model, text);
  // Concurrent cases often embed the same text (every model's case embeds the same question): one request serves them.
  const inFlight = new Map<string, Promise<number[]>>();

  async function embedBatch(texts: string[], signal: AbortSignal): Promise<number[][]> {
    counters.batches++;
    try {
      const { value } = await options.scheduler.schedule((attemptSignal) => {
        counters.providerCalls++;
        return options.provider.embed({ model: options.model, input: texts }, { signal: attemptSignal });
      }, { signal, estimatedTokens: estimateTokens(texts) });
      counters.inputTokens += value.usage.inputTokens;
      if (value.vectors.length !== texts.length) {
        throw new ProviderError('bad_response', `${options.key}: expected ${texts.length} embeddings, got ${value.vectors.length}`);
      }
      return value.vectors;
    } catch (error) {
      counters.failures++;
      throw error;
    }
  }

  /** Sends the misses in batches, stores each vector, and settles the in-flight promise of every text. */
  async function fetchMisses(misses: string[], signal: AbortSignal): Promise<Map<string, number[]>> {
    const found = new Map<string, number[]>();
    for (let start = 0; start < misses.length; start += batchSize) {
      const batch = misses.slice(start, start + batchSize);
      const vectors = await embedBatch(batch, signal);
      await Promise.all(batch.map(async (text, i) => {
        const vector = vectors[i] as number[];
        found.set(text, vector);
        // A cache that cannot be written costs reruns, not this call's answer.
        await store?.set(keyOf(text), vector).catch(() => undefined);
      }));
    }
    return found;
  }

  /** Own the texts nobody else is fetching: one promise per text, settled when its batch is back. */
  function claim(texts: string[], signal: AbortSignal): void {
    if (texts.length === 0) return;
    const all = fetchMisses(texts, signal);
    for (const text of texts) {
      const own = all.then((found) => found.get(text) as number[]);
      inFlight.set(text, own);
      own.catch(() => undefined).finally(() => {
        if (inFlight.get(text) === own) inFlight.delete(text);
      });
    }
  }

  /** A text another call was fetching; if that call failed or was cancelled, fetch it ourselves. */
  async function awaitShared(text: string, shared: Promise<number[]>, signal: AbortSignal): Promise<number[]> {
    try {
      return await shared;
    } catch (error) {
      if (signal.aborted) throw error;
      const found = await fetchMisses([text], signal);
      return found.get(text) as number[];
    }
  }

  return {
    key: options.key,
    counters,
    async embed(texts, signal) {
      if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { cause: signal.reason });
      const unique = [...new Set(texts)];
      counters.texts += unique.length;
      const cached = await Promise.all(unique.map((text) => (inFlight.has(text) ? undefined : store?.get(keyOf(text)))));
      // From here to claim() nothing awaits, so two calls cannot both decide to fetch the same text.
      const vectors = new Map<string, number[]>();
      const pending: [string, Promise<number[]>][] = [];
      const misses: string[] = [];
      unique.forEach((text, i) => {
        const hit = cached[i];
        const shared = inFlight.get(text);
        if (hit) {
          counters.cacheHits++;
          vectors.set(text, hit);
        } else if (shared) {
          counters.shared++;
          pending.push([text, awaitShared(text, shared, signal)]);
        } else misses.push(text);
      });
      claim(misses, signal);
      for (const text of misses) pending.push([text, inFlight.get(text) as Promise<number[]>]);
      // Promise.all, not a loop of awaits: every pending promise gets a handler even when one fails first.
      const settled = await Promise.all(pending.map(([, promise]) => promise));
      pending.forEach(([text], i) => vectors.set(text, settled[i] as number[]));
      return texts.map((text) => vectors.get(text) as number[]);
    },
  };
}

/** ~4 characters per token, like the chat client's pacing estimate; only the tokens-per-minute budget reads it. */
function estimateTokens(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
}

interface VectorEntry {
  format: number;
  vector: number[];
}

/** One JSON file per text (jsonEntryStore.ts); only a non-empty list of finite numbers can be stored or read back. */
class VectorStore extends JsonEntryStore<number[]> {
  constructor(dir: string) {
    super(dir, (entry) => {
      const vector = (entry as VectorEntry | null)?.format === EMBEDDING_CACHE_FORMAT ? (entry as VectorEntry).vector : undefined;
      return isVector(vector) ? vector : undefined;
    }, (vector) => {
      if (!isVector(vector)) throw new TypeError('only non-empty lists of finite numbers can be cached as embeddings');
      return { format: EMBEDDING_CACHE_FORMAT, vector } satisfies VectorEntry;
    });
  }
}

function isVector(value: unknown): value is number[] {
  return Array.isArray(value) && value.length > 0 && value.every((x) => typeof x === 'number' && Number.isFinite(x));
}
