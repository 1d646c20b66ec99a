// Elasticsearch and OpenSearch through their official clients, by kNN search: Elasticsearch's top-level `knn` on a
// `dense_vector` field (similarity cosine), OpenSearch's `knn` query on a `knn_vector` field (HNSW, cosinesimil).
// `existing: false`: the product's own index (created on first write with keyword `file`, the ranges and the vector
// field); `existing: true`: the team's index, read only, id and text from the `_source` fields `columns` names (the
// id falls back to `_id`). Scores are the engine's own kNN scores, which rank by cosine but are not the cosine itself.
import type { StoreSpec } from '../../retrieval/indexSpec.js';
import { loadVendor } from '../../vendor/load.js';
import type { StoredChunk, StoreHit, VectorStore } from '../contract.js';
import { apiKeyFrom, callRemote, displayUrl, remoteError } from './remote.js';
import { checkQuery, refuseWrites, replacementDimension, hitOf, placeOf } from './rows.js';
import { StoreError } from './storeError.js';

type SearchEngineSpec = Extract<StoreSpec, { type: 'elasticsearch' | 'opensearch' }>;

/** Documents per bulk request. */
const BULK_BATCH = 500;

interface Hit {
  _id: string;
  _score: number | null;
  _source?: Record<string, unknown>;
}

/** The few calls the store makes, one adapter per client (their request and response shapes differ slightly). */
interface EngineCalls {
  readonly name: string;
  exists(): Promise<boolean>;
  /** The index's field mappings (`properties`). */
  properties(): Promise<Record<string, { type?: string; dims?: number; dimension?: number }>>;
  create(dimension: number, properties: Record<string, { type: string }>): Promise<void>;
  deleteFiles(files: readonly string[]): Promise<void>;
  /** Bulk index with refresh; returns the first item's error, if any. */
  bulk(operations: unknown[]): Promise<string | undefined>;
  knn(vector: number[], k: number): Promise<Hit[]>;
  count(): Promise<number>;
  close(): Promise<void>;
}

function elasticCalls(spec: SearchEngineSpec, key: string | undefined): EngineCalls {
  const client = new (loadVendor('elastic').ElasticClient)({ node: spec.url, ...(key ? { auth: { apiKey: key } } : {}) });
  const index = spec.index;
  const field = spec.columns.vector;
  return {
    name: 'Elasticsearch',
    exists: () => client.indices.exists({ index }),
    properties: async () => ((await client.indices.getMapping({ index }))[index]?.mappings.properties ?? {}) as Record<string, { type?: string; dims?: number }>,
    create: async (dimension, properties) => {
      const mappings = { properties: { ...properties, [field]: { type: 'dense_vector', dims: dimension, index: true, similarity: 'cosine' } } };
      await client.indices.create({ index, mappings } as Parameters<typeof client.indices.create>[0]);
    },
    deleteFiles: async (files) => {
      await client.deleteByQuery({ index, query: { terms: { file: [...files] } }, refresh: true });
    },
    bulk: async (operations) => {
      const answer = await client.bulk({ operations, refresh: true });
      return answer.errors ? JSON.stringify(answer.items.find((item) => item.index?.error)?.index?.error) : undefined;
    },
    knn: async (vector, k) => (await client.search({ index, size: k, knn: { field, query_vector: vector, k, num_candidates: Math.min(10_000, Math.max(100, 10 * k)) }, _source: { excludes: [field] } })).hits.hits as Hit[],
    count: async () => (await client.count({ index })).count,
    close: () => client.close(),
  };
}

function openSearchCalls(spec: SearchEngineSpec, key: string | undefined): EngineCalls {
  let auth: { username: string; password: string } | undefined;
  if (key !== undefined) {
    const colon = key.indexOf(':');
    if (colon < 1) throw new StoreError('index.store.apiKeyEnv', `${spec.apiKeyEnv} must hold user:password for OpenSearch (basic authentication)`, `export ${spec.apiKeyEnv}='user:password'`);
    auth = { username: key.slice(0, colon), password: key.slice(colon + 1) };
  }
  const client = new (loadVendor('opensearch').OpenSearchClient)({ node: spec.url, ...(auth ? { auth } : {}) });
  const index = spec.index;
  const field = spec.columns.vector;
  return {
    name: 'OpenSearch',
    exists: async () => (await client.indices.exists({ index })).body as boolean,
    properties: async () => ((await client.indices.getMapping({ index })).body as Record<string, { mappings?: { properties?: Record<string, { type?: string; dimension?: number }> } }>)[index]?.mappings?.properties ?? {},
    create: async (dimension, properties) => {
      const body = { settings: { index: { knn: true } }, mappings: { properties: { ...properties, [field]: { type: 'knn_vector', dimension, method: { name: 'hnsw', space_type: 'cosinesimil', engine: 'lucene' } } } } };
      await client.indices.create({ index, body } as Parameters<typeof client.indices.create>[0]);
    },
    deleteFiles: async (files) => {
      await client.deleteByQuery({ index, refresh: true, body: { query: { terms: { file: [...files] } } } });
    },
    bulk: async (operations) => {
      const answer = (await client.bulk({ refresh: true, body: operations as Record<string, unknown>[] })).body as { errors: boolean; items: { index?: { error?: unknown } }[] };
      return answer.errors ? JSON.stringify(answer.items.find((item) => item.index?.error)?.index?.error) : undefined;
    },
    knn: async (vector, k) => ((await client.search({ index, body: { size: k, query: { knn: { [field]: { vector, k } } }, _source: { excludes: [field] } } })).body as { hits: { hits: Hit[] } }).hits.hits,
    count: async () => ((await client.count({ index })).body as { count: number }).count,
    close: () => client.close(),
  };
}

export async function openSearchEngineStore(spec: SearchEngineSpec, env: NodeJS.ProcessEnv): Promise<SearchEngineStore> {
  const key = apiKeyFrom(spec.apiKeyEnv, env, spec.type === 'elasticsearch' ? 'Elasticsearch API key' : 'OpenSearch user:password');
  const calls = spec.type === 'elasticsearch' ? elasticCalls(spec, key) : openSearchCalls(spec, key);
  const store = new SearchEngineStore(spec, calls);
  try {
    await store.check();
  } catch (error) {
    await calls.close().catch(() => undefined);
    throw error;
  }
  return store;
}

export class SearchEngineStore implements VectorStore {
  readonly identity: string;
  private exists = false;
  private dimension: number | undefined;

  constructor(private readonly spec: SearchEngineSpec, private readonly calls: EngineCalls) {
    this.identity = `${spec.type}:${displayUrl(spec.url)}/${spec.index}`;
  }

  /** Reaches the server; for an index that exists, finds the vector field and its dimension in the mapping. */
  async check(): Promise<void> {
    const { index, columns } = this.spec;
    try {
      this.exists = await this.calls.exists();
      if (!this.exists) {
        if (this.spec.existing) throw new StoreError('index.store.index', `${this.calls.name} at ${displayUrl(this.spec.url)} has no index ${index}`, 'set index: to the name of your index, or existing: false to let the index build create it');
        return;
      }
      const properties = await this.calls.properties();
      const vector = properties[columns.vector];
      if (!vector || (vector.type !== 'dense_vector' && vector.type !== 'knn_vector')) {
        const vectorFields = Object.entries(properties).filter(([, p]) => p.type === 'dense_vector' || p.type === 'knn_vector').map(([name]) => name);
        throw new StoreError('index.store.columns.vector', `the index ${index} has no vector field ${columns.vector} (its vector fields: ${vectorFields.join(', ') || 'none'})`, 'set columns: { vector: … } to the field holding the embeddings');
      }
      this.dimension = vector.dims ?? vector.dimension;
    } catch (error) {
      throw this.failed(error);
    }
  }

  async replaceFiles(files: readonly string[], chunks: readonly StoredChunk[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    const dimension = replacementDimension(files, chunks);
    if (dimension !== undefined && this.dimension !== undefined && dimension !== this.dimension) throw new Error(`the index ${this.spec.index} holds vectors of ${this.dimension} numbers, the new chunks ${dimension}: an index is built with one embedding model`);
    if (dimension !== undefined && !this.exists) {
      const { id, text } = this.spec.columns;
      const integer = { type: 'integer' } as const;
      await this.call(signal, () => this.calls.create(dimension, { [id]: { type: 'keyword' }, [text]: { type: 'text' }, file: { type: 'keyword' }, heading: { type: 'text' }, startChar: integer, endChar: integer, startLine: integer, endLine: integer, tokens: integer }));
      this.exists = true;
      this.dimension = dimension;
    }
    await this.removeFiles(files, signal);
    const { id, text, vector } = this.spec.columns;
    for (let at = 0; at < chunks.length; at += BULK_BATCH) {
      const operations = chunks.slice(at, at + BULK_BATCH).flatMap((chunk) => [{ index: { _index: this.spec.index, _id: chunk.id } }, { ...placeOf(chunk), [id]: chunk.id, [text]: chunk.text, [vector]: chunk.vector }]);
      const failure = await this.call(signal, () => this.calls.bulk(operations));
      if (failure) throw new Error(`${this.calls.name} refused a chunk of the bulk write to ${this.spec.index}: ${failure}`);
    }
  }

  async removeFiles(files: readonly string[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    if (!this.exists || files.length === 0) return;
    await this.call(signal, () => this.calls.deleteFiles(files));
  }

  async search(vector: readonly number[], k: number, signal: AbortSignal): Promise<StoreHit[]> {
    checkQuery(vector, k);
    if (!this.exists) return [];
    if (this.dimension !== undefined && vector.length !== this.dimension) throw new Error(`the query vector has ${vector.length} numbers but the index ${this.spec.index} holds vectors of ${this.dimension}: the question was embedded with another model than the chunks`);
    const hits = await this.call(signal, () => this.calls.knn([...vector], k));
    const { id, text } = this.spec.columns;
    return hits.map((hit) => {
      const source = hit._source ?? {};
      const body = source[text];
      if (typeof body !== 'string') throw new StoreError('index.store.columns.text', `document ${hit._id} of ${this.spec.index} has no text in its field ${text}`, 'set columns: { text: … } to the field holding the passage');
      const own = source[id];
      return hitOf(typeof own === 'string' || typeof own === 'number' ? String(own) : hit._id, body, hit._score ?? 0, this.spec.existing ? undefined : source);
    });
  }

  async count(signal: AbortSignal): Promise<number> {
    return this.exists ? this.call(signal, () => this.calls.count()) : 0;
  }

  async close(): Promise<void> {
    await this.calls.close();
  }

  private refuseWrites(): void {
    refuseWrites(this.spec.existing, `the index ${this.spec.index}`);
  }

  private call<T>(signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    return callRemote(signal, request, (error) => this.failed(error));
  }

  private failed(error: unknown): Error {
    return remoteError(error, { name: this.calls.name, url: this.spec.url, apiKeyEnv: this.spec.apiKeyEnv, missing: `index ${this.spec.index}`, missingHint: 'set index: to an existing index' });
  }
}
