// `index:` of the eval file: the checks the schema cannot make (index: beside retriever:, dense search without an
// embedding model, an overlap not below the chunk size, which store keys go with which type) and the loaded IndexSpec
// (folder absolute, defaults applied).
import * as path from 'node:path';
import { InputError } from '../errors.js';
import type { IndexSpec, StoreColumns, StoreSpec } from '../retrieval/indexSpec.js';
import { asRecord } from './checks.js';
import type { YamlLocator } from './yamlPositions.js';
import type { ModelSpec } from '../providers/contract.js';

type Raw = Record<string, unknown>;

export const DEFAULT_CHUNKING = { by: 'tokens', size: 256, overlap: 32 } as const;
export const DEFAULT_HYBRID = { weight: 0.5, rrfK: 60 } as const;
export const DEFAULT_RERANK_CANDIDATES = 50;
export const DEFAULT_RERANK_TIMEOUT_MS = 30_000;
const DEFAULT_TABLE = 'rag_chunks';
const DEFAULT_COLUMNS: StoreColumns = { id: 'id', text: 'text', vector: 'embedding' };

const STORE_KEYS: Readonly<Record<string, readonly string[]>> = {
  embedded: ['type'],
  pgvector: ['type', 'urlEnv', 'table', 'existing', 'columns'],
  qdrant: ['type', 'url', 'apiKeyEnv', 'collection', 'existing', 'columns'],
  elasticsearch: ['type', 'url', 'apiKeyEnv', 'index', 'existing', 'columns'],
  opensearch: ['type', 'url', 'apiKeyEnv', 'index', 'existing', 'columns'],
};

/** Problems of `index:` beyond its schema, each at its line. */
export function indexProblems(data: Raw, locator: YamlLocator, toModel: (raw: unknown) => ModelSpec): InputError[] {
  const raw = asRecord(data.index);
  if (!raw) return [];
  const problems: InputError[] = [];
  if (data.retriever !== undefined) {
    problems.push(new InputError(locator.keyAt([], 'index'), 'index: and retriever: both say where the rag method\'s passages come from', 'keep index: to search this folder with the product\'s own index, or retriever: to call your own retriever; remove the other'));
  }
  const search = typeof raw.search === 'string' ? raw.search : 'bm25';
  if ((search === 'dense' || search === 'hybrid') && raw.embeddings === undefined) {
    problems.push(new InputError(locator.valueAt(['index', 'search']), `search: ${search} needs an embedding model in index.embeddings`, 'e.g. embeddings: { provider: openai-compatible, model: nomic-embed-text, baseUrl: http://localhost:11434/v1 }, or search: bm25 (no model)'));
  }
  if (raw.embeddings !== undefined && search === 'bm25') {
    problems.push(new InputError(locator.keyAt(['index'], 'embeddings'), 'index.embeddings is not used by search: bm25', 'set search: dense or search: hybrid to use it, or remove embeddings'));
  }
  if (raw.hybrid !== undefined && search !== 'hybrid') {
    problems.push(new InputError(locator.keyAt(['index'], 'hybrid'), `index.hybrid applies to search: hybrid, not ${search}`, 'set search: hybrid, or remove hybrid'));
  }
  const embeddings = raw.embeddings === undefined ? undefined : safeModel(raw.embeddings, toModel);
  if (embeddings && embeddings.provider === 'extractive') {
    problems.push(new InputError(locator.valueAt(['index', 'embeddings']), 'the extractive baseline makes no embeddings', 'name an embedding model (openai, openai-compatible), or use search: bm25'));
  }
  const chunking = asRecord(raw.chunking);
  if (chunking) {
    const size = typeof chunking.size === 'number' ? chunking.size : DEFAULT_CHUNKING.size;
    const overlap = typeof chunking.overlap === 'number' ? chunking.overlap : DEFAULT_CHUNKING.overlap;
    if (overlap >= size) {
      problems.push(new InputError(locator.valueAt(['index', 'chunking', chunking.overlap === undefined ? 'size' : 'overlap']), `chunk overlap (${overlap} tokens) must be less than the chunk size (${size})`, `e.g. size: ${size}, overlap: ${Math.floor(size / 8)}`));
    }
  }
  const store = asRecord(raw.store);
  if (store) problems.push(...storeProblems(store, locator));
  if (store?.existing === true && search !== 'dense') {
    problems.push(new InputError(locator.valueAt(['index', 'store', 'existing']), `search: ${search} needs this folder's chunks, but existing: true searches your own table as it is`, 'use search: dense with existing: true, or existing: false to let the index build write this folder\'s chunks there'));
  }
  return problems;
}

function storeProblems(store: Raw, locator: YamlLocator): InputError[] {
  const type = typeof store.type === 'string' ? store.type : 'embedded';
  const allowed = STORE_KEYS[type];
  if (!allowed) return []; // the schema reports the type
  const problems: InputError[] = [];
  for (const key of Object.keys(store)) {
    if (!allowed.includes(key)) problems.push(new InputError(locator.keyAt(['index', 'store'], key), `index.store.${key} does not apply to a ${type} store`, `a ${type} store takes ${allowed.join(', ')}`));
  }
  if (type === 'pgvector' && store.urlEnv === undefined) problems.push(new InputError(locator.valueAt(['index', 'store']), 'a pgvector store needs urlEnv: the environment variable holding its connection string', 'e.g. urlEnv: DATABASE_URL (the value is never written in the eval file)'));
  if ((type === 'qdrant' || type === 'elasticsearch' || type === 'opensearch') && store.url === undefined) problems.push(new InputError(locator.valueAt(['index', 'store']), `a ${type} store needs url:`, type === 'qdrant' ? 'e.g. url: http://localhost:6333' : 'e.g. url: http://localhost:9200'));
  return problems;
}

/** The model an entry names, or undefined when the schema has already reported it malformed. */
function safeModel(raw: unknown, toModel: (raw: unknown) => ModelSpec): ModelSpec | undefined {
  try {
    return toModel(raw);
  } catch {
    return undefined;
  }
}

/** The checked `index:` as the run uses it. */
export function toIndexSpec(raw: unknown, evalFolder: string, toModel: (raw: unknown) => ModelSpec): IndexSpec {
  const source = asRecord(raw) ?? {};
  const chunking = asRecord(source.chunking) ?? {};
  const hybrid = asRecord(source.hybrid) ?? {};
  const rerank = asRecord(source.rerank);
  return {
    folder: path.resolve(evalFolder, source.folder as string),
    // Empty: the corpus reader's defaults (Markdown, text, HTML, JSONL; corpus/documents.ts).
    include: (source.include as string[] | undefined) ?? [],
    exclude: (source.exclude as string[] | undefined) ?? [],
    chunking: {
      by: (chunking.by as 'tokens' | 'heading' | undefined) ?? DEFAULT_CHUNKING.by,
      size: (chunking.size as number | undefined) ?? DEFAULT_CHUNKING.size,
      overlap: (chunking.overlap as number | undefined) ?? DEFAULT_CHUNKING.overlap,
    },
    search: (source.search as IndexSpec['search'] | undefined) ?? 'bm25',
    ...(source.embeddings === undefined ? {} : { embeddings: toModel(source.embeddings) }),
    hybrid: { weight: (hybrid.weight as number | undefined) ?? DEFAULT_HYBRID.weight, rrfK: (hybrid.rrfK as number | undefined) ?? DEFAULT_HYBRID.rrfK },
    ...(rerank ? {
      rerank: {
        url: rerank.url as string,
        ...(typeof rerank.model === 'string' ? { model: rerank.model } : {}),
        candidates: (rerank.candidates as number | undefined) ?? DEFAULT_RERANK_CANDIDATES,
        headers: (rerank.headers as Record<string, { env: string; prefix?: string }> | undefined) ?? {},
        timeoutMs: (rerank.timeoutMs as number | undefined) ?? DEFAULT_RERANK_TIMEOUT_MS,
      },
    } : {}),
    store: toStoreSpec(asRecord(source.store)),
  };
}

function toStoreSpec(store: Raw | undefined): StoreSpec {
  const type = (store?.type as StoreSpec['type'] | undefined) ?? 'embedded';
  if (!store || type === 'embedded') return { type: 'embedded' };
  const existing = store.existing === true;
  const columns = { ...DEFAULT_COLUMNS, ...(asRecord(store.columns) as Partial<StoreColumns> | undefined) };
  const apiKeyEnv = typeof store.apiKeyEnv === 'string' ? { apiKeyEnv: store.apiKeyEnv } : {};
  switch (type) {
    case 'pgvector':
      return { type, urlEnv: store.urlEnv as string, table: (store.table as string | undefined) ?? DEFAULT_TABLE, existing, columns };
    case 'qdrant':
      return { type, url: store.url as string, ...apiKeyEnv, collection: (store.collection as string | undefined) ?? DEFAULT_TABLE, existing, columns };
    default:
      return { type, url: store.url as string, ...apiKeyEnv, index: (store.index as string | undefined) ?? DEFAULT_TABLE, existing, columns };
  }
}
