// What the last build of an index held, file by file, and the incremental re-index decision it allows: a file whose
// bytes changed (or that is new) is re-chunked and re-embedded, the others are kept, the ones gone are removed.
import { writeFileAtomically } from '../atomicFile.js';
import { FileProblem, readRegularFile } from '../regularFile.js';
import type { CorpusDocument } from './contract.js';

/**
 * Bumped when chunkDocument would cut the same text differently: a manifest of another version re-chunks every file,
 * so an index never mixes chunks of two chunkers.
 */
export const CHUNKER_VERSION = 1;

export interface ManifestEntry {
  /** CorpusDocument.contentHash when the file was indexed. */
  contentHash: string;
  /** The ids of the chunks the file gave, in order. */
  chunkIds: string[];
}

export interface Manifest {
  chunker: number;
  /** Keyed by CorpusDocument.file. */
  files: Record<string, ManifestEntry>;
}

/** What the diff needs of a file: a CorpusDocument, or a CorpusFile from hashCorpus (no text extracted yet). */
export interface HashedFile {
  file: string;
  contentHash: string;
}

export interface ManifestDiff<D extends HashedFile = CorpusDocument> {
  /** New files and files whose bytes changed: to re-chunk and re-embed. */
  changed: D[];
  /** Files indexed with these very bytes: their chunks are kept. */
  unchanged: D[];
  /** Files the last build held that are gone (or no longer selected): their chunks are to be removed. Sorted. */
  removed: string[];
}

/**
 * Splits `documents` by what `previous` (the last build's manifest; undefined for a first build) already holds. Given
 * hashCorpus's files instead of documents, only the changed ones need reading (readCorpusDocument).
 */
export function diffManifest<D extends HashedFile = CorpusDocument>(previous: Manifest | undefined, documents: readonly D[]): ManifestDiff<D> {
  const known = previous?.chunker === CHUNKER_VERSION ? previous.files : {};
  const changed: D[] = [];
  const unchanged: D[] = [];
  const present = new Set<string>();
  for (const document of documents) {
    present.add(document.file);
    const entry = Object.hasOwn(known, document.file) ? known[document.file] : undefined;
    (entry?.contentHash === document.contentHash ? unchanged : changed).push(document);
  }
  const removed = Object.keys(previous?.files ?? {}).filter((file) => !present.has(file)).sort();
  return { changed, unchanged, removed };
}

/** The manifest of a build: each document's hash and the ids of its chunks. */
export function manifestOf(entries: ReadonlyArray<{ document: HashedFile; chunkIds: readonly string[] }>): Manifest {
  const files: Record<string, ManifestEntry> = {};
  for (const { document, chunkIds } of [...entries].sort((a, b) => (a.document.file < b.document.file ? -1 : a.document.file > b.document.file ? 1 : 0))) {
    files[document.file] = { contentHash: document.contentHash, chunkIds: [...chunkIds] };
  }
  return { chunker: CHUNKER_VERSION, files };
}

/**
 * The manifest in `file`: `manifest` undefined when there is none yet, or when it is damaged (`damaged` says how), in
 * which case the index is rebuilt whole rather than trusted.
 */
export async function readManifest(file: string): Promise<{ manifest?: Manifest; damaged?: string }> {
  let text: string;
  try {
    text = (await readRegularFile(file)).toString('utf8');
  } catch (error) {
    if (error instanceof FileProblem && error.kind === 'missing') return {};
    return { damaged: error instanceof FileProblem ? error.says : `cannot be read (${(error as Error).message})` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { damaged: `is not JSON (${(error as Error).message})` };
  }
  const problem = manifestProblem(value);
  return problem === undefined ? { manifest: value as Manifest } : { damaged: problem };
}

function manifestProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'is not a JSON object';
  const { chunker, files } = value as { chunker?: unknown; files?: unknown };
  if (typeof chunker !== 'number') return 'has no chunker version';
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return 'has no files';
  for (const [name, entry] of Object.entries(files)) {
    const { contentHash, chunkIds } = (entry ?? {}) as { contentHash?: unknown; chunkIds?: unknown };
    if (typeof contentHash !== 'string' || !Array.isArray(chunkIds) || !chunkIds.every((id) => typeof id === 'string')) return `has a bad entry for ${name}`;
  }
  return undefined;
}

/** Writes the manifest whole or not at all (a build killed while writing leaves the previous one). */
export function writeManifest(file: string, manifest: Manifest): Promise<void> {
  return writeFileAtomically(file, `${JSON.stringify(manifest)}\n`);
}
