// Qdrant through its official REST client. `existing: false`: the product's own collection (created with a named
// cosine vector on first write, a keyword index on `file` for re-indexing a file); `existing: true`: the team's
// collection, read only, its id and text taken from the payload fields `columns` names and its vector (named or the
// unnamed default) found from the collection's config. Scores are Qdrant's: cosine similarity.
import type { StoreSpec } from '../../retrieval/indexSpec.js';
import { loadVendor } from '../../vendor/load.js';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { StoredChunk, StoreHit, VectorStore } from '../contract.js';
import { apiKeyFrom, callRemote, displayUrl, remoteError, uuidOf } from './remote.js';
import { checkQuery, refuseWrites, replacementDimension, hitOf, placeOf } from './rows.js';
import { StoreError } from './storeError.js';

type QdrantSpec = Extract<StoreSpec, { type: 'qdrant' }>;

/** Points per upsert request. */
const UPSERT_BATCH = 256;

export async function openQdrantStore(spec: QdrantSpec, env: NodeJS.ProcessEnv): Promise<QdrantStore> {
  const key = apiKeyFrom(spec.apiKeyEnv, env, 'Qdrant API key');
  const { QdrantClient } = loadVendor('qdrant');
  // The key goes as the api-key header rather than the client's apiKey option, which warns on the console over http.
  const client = new QdrantClient({ url: spec.url, checkCompatibility: false, ...(key ? { headers: { 'api-key': key } } : {}) });
  const store = new QdrantStore(spec, client);
  await store.check();
  return store;
}

export class QdrantStore implements VectorStore {
  readonly identity: string;
  /** The vector's name in the collection; undefined: the unnamed default vector. */
  private using: string | undefined;
  private dimension: number | undefined;
  private exists = false;

  constructor(private readonly spec: QdrantSpec, private readonly client: QdrantClient) {
    this.identity = `qdrant:${displayUrl(spec.url)}/${spec.collection}`;
  }

  /** Reaches the server and reads the collection's vector config (the team's collection must exist). */
  async check(): Promise<void> {
    const { collection, columns } = this.spec;
    try {
      this.exists = (await this.client.collectionExists(collection)).exists;
      if (!this.exists) {
        if (this.spec.existing) throw new StoreError('index.store.collection', `Qdrant at ${displayUrl(this.spec.url)} has no collection ${collection}`, 'set collection: to the name of your collection, or existing: false to let the index build create it');
        this.using = columns.vector;
        return;
      }
      const info = await this.client.getCollection(collection);
      const vectors = info.config.params.vectors as ({ size: number } | Record<string, { size: number }> | undefined);
      if (vectors && typeof vectors.size === 'number') {
        this.using = undefined;
        this.dimension = vectors.size as number;
      } else {
        const named = (vectors ?? {}) as Record<string, { size: number }>;
        const config = named[columns.vector];
        if (!config) throw new StoreError('index.store.columns.vector', `the collection ${collection} has no vector named ${columns.vector} (it has ${Object.keys(named).join(', ') || 'none'})`, 'set columns: { vector: … } to one of those names');
        this.using = columns.vector;
        this.dimension = config.size;
      }
    } catch (error) {
      throw this.failed(error);
    }
  }

  async replaceFiles(files: readonly string[], chunks: readonly StoredChunk[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    const dimension = replacementDimension(files, chunks);
    if (dimension !== undefined && this.dimension !== undefined && dimension !== this.dimension) throw new Error(`the collection ${this.spec.collection} holds vectors of ${this.dimension} numbers, the new chunks ${dimension}: an index is built with one embedding model`);
    if (dimension !== undefined && !this.exists) await this.createCollection(dimension, signal);
    await this.removeFiles(files, signal);
    const { id, text } = this.spec.columns;
    for (let at = 0; at < chunks.length; at += UPSERT_BATCH) {
      const points = chunks.slice(at, at + UPSERT_BATCH).map((chunk) => ({
        id: uuidOf(chunk.id),
        vector: this.using === undefined ? chunk.vector : { [this.using]: chunk.vector },
        payload: { ...placeOf(chunk), [id]: chunk.id, [text]: chunk.text },
      }));
      await this.call(signal, () => this.client.upsert(this.spec.collection, { wait: true, points }));
    }
  }

  async removeFiles(files: readonly string[], signal: AbortSignal): Promise<void> {
    this.refuseWrites();
    if (!this.exists || files.length === 0) return;
    await this.call(signal, () => this.client.delete(this.spec.collection, { wait: true, filter: { must: [{ key: 'file', match: { any: [...files] } }] } }));
  }

  async search(vector: readonly number[], k: number, signal: AbortSignal): Promise<StoreHit[]> {
    checkQuery(vector, k);
    if (!this.exists) return [];
    if (this.dimension !== undefined && vector.length !== this.dimension) throw new Error(`the query vector has ${vector.length} numbers but the collection ${this.spec.collection} holds vectors of ${this.dimension}: the question was embedded with another model than the chunks`);
    const answer = await this.call(signal, () => this.client.query(this.spec.collection, { query: [...vector], limit: k, with_payload: true, ...(this.using === undefined ? {} : { using: this.using }) }));
    const { id, text } = this.spec.columns;
    return answer.points.map((point) => {
      const payload = (point.payload ?? {}) as Record<string, unknown>;
      const body = payload[text];
      if (typeof body !== 'string') throw new StoreError('index.store.columns.text', `point ${String(point.id)} of ${this.spec.collection} has no text in its payload field ${text}`, 'set columns: { text: … } to the payload field holding the passage');
      const own = payload[id];
      return hitOf(typeof own === 'string' || typeof own === 'number' ? String(own) : String(point.id), body, point.score, this.spec.existing ? undefined : payload);
    });
  }

  async count(signal: AbortSignal): Promise<number> {
    if (!this.exists) return 0;
    return (await this.call(signal, () => this.client.count(this.spec.collection, { exact: true }))).count;
  }

  async close(): Promise<void> {
    // The REST client holds no connection of its own to close.
  }

  private async createCollection(dimension: number, signal: AbortSignal): Promise<void> {
    const { collection, columns } = this.spec;
    await this.call(signal, () => this.client.createCollection(collection, { vectors: { [columns.vector]: { size: dimension, distance: 'Cosine' } } }));
    await this.call(signal, () => this.client.createPayloadIndex(collection, { field_name: 'file', field_schema: 'keyword', wait: true }));
    this.exists = true;
    this.using = columns.vector;
    this.dimension = dimension;
  }

  private refuseWrites(): void {
    refuseWrites(this.spec.existing, `the collection ${this.spec.collection}`);
  }

  private call<T>(signal: AbortSignal, request: () => Promise<T>): Promise<T> {
    return callRemote(signal, request, (error) => this.failed(error));
  }

  private failed(error: unknown): Error {
    return remoteError(error, { name: 'Qdrant', url: this.spec.url, apiKeyEnv: this.spec.apiKeyEnv, missing: `collection ${this.spec.collection}`, missingHint: 'set collection: to an existing collection' });
  }
}
