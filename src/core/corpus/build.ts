// Building an index incrementally: documents → what changed since the last build → chunks of the changed files →
// their embeddings (cached by model and text, so an unchanged chunk costs nothing) → the store → the chunk file, and
// the manifest written last, so a build killed at any point is finished by the next one without losing work.
import { mkdir } from 'node:fs/promises';
import type { InputError } from '../errors.js';
import * as path from 'node:path';
import { tokenizerFor } from '../prompt/tokens.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { CountingEmbeddingClient } from '../run/embeddingClient.js';
import { CHUNKS_FILE, readChunks, writeChunks } from './chunkFile.js';
import { chunkDocument } from './chunker.js';
import type { Chunk, CorpusDocument, IndexBuildSummary, IndexProgress, StoredChunk, VectorStore } from './contract.js';
import { readCorpus } from './documents.js';
import { indexDirOf } from './indexDir.js';
import { PdfTextCache, pdfTextCacheDir } from './pdfTextCache.js';
import { diffManifest, manifestOf, readManifest, writeManifest } from './manifest.js';

/** The index's manifest (manifest.ts): which files, with which bytes, gave which chunks. Written last. */
export const MANIFEST_FILE = 'manifest.json';

/** Texts per embedding step: the progress moves at least this often, and a cancel waits for at most one step. */
const EMBED_STEP = 256;

export interface BuildOptions {
  spec: IndexSpec;
  /** The workspace's `.rag-inspector`: the index goes under its `index/`. */
  stateDir: string;
  /** Dense and hybrid: the index's embedding model through the run's embedding client and its cache. */
  embeddings?: CountingEmbeddingClient;
  /** Opens the index's store (stores/open.ts); only dense and hybrid indexes have one. */
  openStore?: (indexDir: string) => Promise<VectorStore>;
  signal: AbortSignal;
  onProgress?: (progress: IndexProgress) => void;
}

/** A built index, ready to search: every chunk, and the store (open) when the index is dense. */
export interface BuiltIndex {
  indexDir: string;
  chunks: Chunk[];
  /** Files of the folder that could not be read (each names its file): left out, the rest is indexed. */
  problems: InputError[];
  store?: VectorStore;
  summary: IndexBuildSummary;
}

/** The tokenizer chunk sizes are counted with: the embedding model's, else the project's default encoding. */
export function chunkTokenizer(spec: Pick<IndexSpec, 'embeddings' | 'search'>) {
  return tokenizerFor(spec.embeddings && spec.search !== 'bm25' ? `${spec.embeddings.provider}:${spec.embeddings.model}` : 'o200k');
}

/**
 * Builds (or brings up to date) the index `options.spec` names and returns it open. Cancelled through the signal at
 * any stage: nothing half written is taken as done (the manifest, written last, still describes the previous build).
 */
export async function buildIndex(options: BuildOptions): Promise<BuiltIndex> {
  const { spec, signal } = options;
  const progress = options.onProgress ?? (() => undefined);
  const dense = spec.search !== 'bm25';
  if (dense && (!options.embeddings || !options.openStore)) throw new Error(`search: ${spec.search} needs the index's embedding model and store`);
  const indexDir = indexDirOf(spec, options.stateDir);
  await mkdir(indexDir, { recursive: true });
  // The team's own table, built by them: searched as it is, never written (its chunks are not this folder's).
  if (spec.store.type !== 'embedded' && spec.store.existing) {
    const store = await options.openStore!(indexDir);
    const count = await store.count(signal).catch(async (error: unknown) => {
      await store.close().catch(() => undefined);
      throw error;
    });
    return { indexDir, chunks: [], problems: [], store, summary: { folder: spec.folder, indexDir, files: { changed: 0, unchanged: 0, removed: 0 }, chunks: count, embedded: { texts: 0, cached: 0, inputTokens: 0 } } };
  }

  const { documents, problems, previousChunks, diff, fresh } = await changedChunks(spec, options.stateDir, indexDir, signal, progress);
  const changed = new Set(diff.changed.map((document) => document.file));
  const removed = new Set(diff.removed);

  const embedded = { texts: 0, cached: 0, inputTokens: 0 };
  let store: VectorStore | undefined;
  try {
    if (dense) {
      const vectors = await embedChunks(fresh, options.embeddings!, signal, (done, total) => progress({ stage: 'embed', done, total }), embedded);
      store = await options.openStore!(indexDir);
      const stored: StoredChunk[] = fresh.map((chunk, i) => ({ ...chunk, vector: vectors[i]! }));
      progress({ stage: 'store', done: 0, total: changed.size + removed.size });
      if (changed.size > 0) await store.replaceFiles([...changed], stored, signal);
      if (removed.size > 0) await store.removeFiles([...removed], signal);
      progress({ stage: 'store', done: changed.size + removed.size, total: changed.size + removed.size });
      if (store.optimize) {
        progress({ stage: 'optimize', done: 0, total: 1 });
        await store.optimize(signal);
        progress({ stage: 'optimize', done: 1, total: 1 });
      }
    }
    const kept = (previousChunks ?? []).filter((chunk) => !changed.has(chunk.file) && !removed.has(chunk.file));
    const chunks = orderedChunks([...kept, ...fresh], documents);
    signal.throwIfAborted();
    await writeChunks(path.join(indexDir, CHUNKS_FILE), chunks);
    const ids = idsByFile(chunks);
    // Last: until it is written, the next build sees these files as changed and does their work again (from the
    // embedding cache, so at no cost).
    await writeManifest(path.join(indexDir, MANIFEST_FILE), manifestOf(documents.map((document) => ({ document, chunkIds: ids.get(document.file) ?? [] }))));
    return {
      indexDir,
      chunks,
      problems,
      ...(store ? { store } : {}),
      summary: {
        folder: spec.folder,
        indexDir,
        files: { changed: changed.size, unchanged: diff.unchanged.length, removed: removed.size },
        chunks: chunks.length,
        embedded,
      },
    };
  } catch (error) {
    await store?.close().catch(() => undefined);
    throw error;
  }
}

/** The documents, the previous build's chunks, what changed since, and the changed files' new chunks. */
async function changedChunks(spec: IndexSpec, stateDir: string, indexDir: string, signal: AbortSignal, progress: (progress: IndexProgress) => void) {
  const pdfCache = new PdfTextCache(pdfTextCacheDir(stateDir));
  const { documents, problems } = await readCorpus(spec, { signal, onProgress: progress, pdfCache });
  signal.throwIfAborted();
  // A damaged chunk file (or none) means the manifest cannot be trusted: every file is chunked again.
  const previousChunks = await readChunks(path.join(indexDir, CHUNKS_FILE));
  const previous = previousChunks ? (await readManifest(path.join(indexDir, MANIFEST_FILE))).manifest : undefined;
  const diff = diffManifest(previous, documents);
  const tokenizer = chunkTokenizer(spec);
  const fresh: Chunk[] = [];
  diff.changed.forEach((document: CorpusDocument, i) => {
    signal.throwIfAborted();
    fresh.push(...chunkDocument(document, spec.chunking, tokenizer));
    progress({ stage: 'chunk', done: i + 1, total: diff.changed.length, file: document.file });
  });
  return { documents, problems, previousChunks, diff, fresh };
}

/** What a build would embed: the changed files' chunks, less those whose vector the embedding cache already holds. */
export interface BuildPlan {
  files: IndexBuildSummary['files'];
  /** Chunks of the changed files (an unchanged file's chunks are in the index already, and cost nothing). */
  chunks: number;
  /** Of those, the ones whose (model, text) vector is in the embedding cache: not sent. */
  cached: number;
  /** Texts that will be sent, and their tokens. */
  texts: number;
  inputTokens: number;
}

/**
 * The embedding work the next build of `spec` does, found without embedding or writing anything (the cost plan,
 * before anything is spent). A BM25 index embeds nothing. `cachedOf` says which texts the embedding cache holds.
 */
export async function planBuild(spec: IndexSpec, stateDir: string, signal: AbortSignal, cachedOf?: (texts: string[]) => Promise<Set<string>>): Promise<BuildPlan> {
  const none = { chunks: 0, cached: 0, texts: 0, inputTokens: 0 };
  if (spec.store.type !== 'embedded' && spec.store.existing) return { files: { changed: 0, unchanged: 0, removed: 0 }, ...none };
  const { diff, fresh } = await changedChunks(spec, stateDir, indexDirOf(spec, stateDir), signal, () => undefined);
  const files = { changed: diff.changed.length, unchanged: diff.unchanged.length, removed: diff.removed.length };
  if (spec.search === 'bm25') return { files, ...none };
  const cached = cachedOf ? await cachedOf(fresh.map((chunk) => chunk.text)) : new Set<string>();
  // A text repeated in several chunks is sent once per step at most; counting each is the safe side of the bound.
  const sent = fresh.filter((chunk) => !cached.has(chunk.text));
  return { files, chunks: fresh.length, cached: fresh.length - sent.length, texts: sent.length, inputTokens: sent.reduce((sum, chunk) => sum + chunk.tokens, 0) };
}

/** Each file's chunk ids, in order. */
function idsByFile(chunks: readonly Chunk[]): Map<string, string[]> {
  const ids = new Map<string, string[]>();
  for (const chunk of chunks) {
    const list = ids.get(chunk.file);
    if (list) list.push(chunk.id);
    else ids.set(chunk.file, [chunk.id]);
  }
  return ids;
}

/** Every chunk in the documents' order, then by position in its file: the order BM25 breaks ties by. */
function orderedChunks(chunks: Chunk[], documents: readonly CorpusDocument[]): Chunk[] {
  const order = new Map(documents.map((document, i) => [document.file, i]));
  return chunks.sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0) || a.startChar - b.startChar);
}

/** The chunks' vectors in steps, counting what was sent and what the cache answered. */
async function embedChunks(chunks: readonly Chunk[], client: CountingEmbeddingClient, signal: AbortSignal, onStep: (done: number, total: number) => void, counted: IndexBuildSummary['embedded']): Promise<number[][]> {
  const before = { ...client.counters };
  const vectors: number[][] = [];
  onStep(0, chunks.length);
  for (let start = 0; start < chunks.length; start += EMBED_STEP) {
    signal.throwIfAborted();
    const step = chunks.slice(start, start + EMBED_STEP).map((chunk) => chunk.text);
    vectors.push(...await client.embed(step, signal));
    onStep(Math.min(chunks.length, start + EMBED_STEP), chunks.length);
  }
  counted.cached = client.counters.cacheHits - before.cacheHits;
  counted.texts = client.counters.texts - before.texts - counted.cached;
  counted.inputTokens = client.counters.inputTokens - before.inputTokens;
  return vectors;
}

/** "index docs/ (.rag-inspector/index/3fa1…): 2 files changed, 5 unchanged, 0 removed; 48 chunks; 12 texts embedded (30 from the cache, 1,024 tokens)". */
export function describeBuild(summary: IndexBuildSummary): string {
  const { files, embedded } = summary;
  const vectors = embedded.texts + embedded.cached > 0
    ? `; ${embedded.texts} text${embedded.texts === 1 ? '' : 's'} embedded (${embedded.cached} from the cache, ${embedded.inputTokens.toLocaleString('en-US')} tokens)`
    : '';
  return `index ${summary.folder} (${summary.indexDir}): ${files.changed} file${files.changed === 1 ? '' : 's'} changed, ${files.unchanged} unchanged, ${files.removed} removed; ${summary.chunks} chunk${summary.chunks === 1 ? '' : 's'}${vectors}`;
}
