// Where an index lives: `.rag-inspector/index/<hash of settings>/`, the hash over what decides its chunks and vectors
// (folder, which files, chunking, embedding model, store), never over how it is searched (search mode, hybrid weight,
// reranker, k), so every search of one chunking × embedding shares one index.
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import { canonicalJson, endpointIdentity } from '../run/cache.js';

/** Part of the hash: a change to the index's layout on disk starts fresh indexes. */
const INDEX_FORMAT = 1;

/** The settings an index's contents depend on, with no secret (the store's variables are names, its URL without credentials). */
export function indexSettings(spec: IndexSpec): Record<string, unknown> {
  const embeddings = spec.embeddings && spec.search !== 'bm25'
    ? { provider: spec.embeddings.provider, model: spec.embeddings.model, ...(spec.embeddings.baseUrl ? { endpoint: endpointIdentity(spec.embeddings.baseUrl) } : {}) }
    : undefined;
  const { type, ...where } = spec.store as { type: string } & Record<string, unknown>;
  return {
    format: INDEX_FORMAT,
    folder: path.resolve(spec.folder),
    include: spec.include,
    exclude: spec.exclude,
    chunking: spec.chunking,
    ...(embeddings ? { embeddings } : {}),
    store: { type, ...('url' in where && typeof where.url === 'string' ? { ...where, url: endpointIdentity(where.url) } : where) },
  };
}

/** sha256 of the settings, shortened: the index folder's name. */
export function indexHash(spec: IndexSpec): string {
  return createHash('sha256').update(canonicalJson(indexSettings(spec))).digest('hex').slice(0, 16);
}

/** `<stateDir>/index/<hash>`; `stateDir` is the workspace's `.rag-inspector`. */
export function indexDirOf(spec: IndexSpec, stateDir: string): string {
  return path.join(stateDir, 'index', indexHash(spec));
}
