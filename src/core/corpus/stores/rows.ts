// What every store keeps of a chunk beside its vector, and the checks every store makes before writing or searching,
// so the embedded store and the team's stores answer with the same hit shape.
import type { Chunk, StoredChunk, StoreHit } from '../contract.js';
import { StoreError } from './storeError.js';

/** The chunk's place in its source, as a hit's `metadata` carries it (what the inspector links to). */
export type ChunkPlace = Omit<Chunk, 'id' | 'text'>;

export function placeOf(chunk: StoredChunk): ChunkPlace {
  return { file: chunk.file, startChar: chunk.startChar, endChar: chunk.endChar, startLine: chunk.startLine, endLine: chunk.endLine, tokens: chunk.tokens, ...(chunk.heading ? { heading: chunk.heading } : {}) };
}

/** A hit with its place when the store kept one (a team's own table may hold only id and text). */
export function hitOf(id: string, text: string, score: number, place?: Partial<ChunkPlace>): StoreHit {
  const metadata = place && Object.fromEntries(Object.entries(place).filter(([, value]) => value !== undefined && value !== null && value !== ''));
  return { id, text, score, ...(metadata && Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/**
 * What every store checks before `replaceFiles` writes: every chunk belongs to one of `files`, and their vectors
 * share one dimension. Returns that dimension (undefined when there are no chunks).
 */
export function replacementDimension(files: readonly string[], chunks: readonly StoredChunk[]): number | undefined {
  const replaced = new Set(files);
  const stray = chunks.find((chunk) => !replaced.has(chunk.file));
  if (stray) throw new Error(`chunk ${stray.id} is of ${stray.file}, which is not among the files being replaced`);
  return dimensionOf(chunks);
}

/** A team's own table, collection or index (`existing: true`) is never written. */
export function refuseWrites(existing: boolean, what: string): void {
  if (existing) throw new StoreError('index.store.existing', `${what} is your own (existing: true), so RAG Inspector only reads it`, 'build it with your own pipeline, or set existing: false and one of its own for the index build to write');
}

/** The one dimension of `chunks`' vectors; throws naming the first chunk that differs or holds a non-number. */
function dimensionOf(chunks: readonly StoredChunk[]): number | undefined {
  const first = chunks[0];
  if (!first) return undefined;
  const dimension = first.vector.length;
  for (const chunk of chunks) {
    if (chunk.vector.length !== dimension) throw new Error(`chunk ${chunk.id} has a vector of ${chunk.vector.length} numbers, chunk ${first.id} one of ${dimension}: every vector of an index comes from one embedding model`);
    if (!chunk.vector.every(Number.isFinite)) throw new Error(`chunk ${chunk.id} has a vector holding something other than finite numbers`);
  }
  if (dimension === 0) throw new Error(`chunk ${first.id} has an empty vector`);
  return dimension;
}

/** A query vector a store can search with: finite numbers, not all zero (cosine is undefined for a zero vector). */
export function checkQuery(vector: readonly number[], k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new Error(`k must be a whole number of at least 1, not ${k}`);
  if (vector.length === 0 || !vector.every(Number.isFinite)) throw new Error('the query vector must be a non-empty list of finite numbers');
  if (vector.every((x) => x === 0)) throw new Error('the query vector is all zeros, so its cosine similarity to any chunk is undefined');
}

/**
 * `work` unless `signal` aborts first: a store call that cannot itself be cancelled (a native call, a query in flight)
 * is left to finish in the background, and the caller stops waiting with the signal's reason.
 */
export async function unlessAborted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) {
    // The work has started already (it is the argument): its failure after a close must not go unhandled.
    work.catch(() => undefined);
    signal.throwIfAborted();
  }
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('cancelled'));
    signal.addEventListener('abort', stop, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (stop) signal.removeEventListener('abort', stop);
    work.catch(() => undefined);
  }
}
