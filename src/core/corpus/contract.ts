// The corpus layer's shapes: documents cut into chunks that know exactly where they came from, the stores their vectors
// live in, and a built index that answers questions. Sits above run/ (it embeds through the run's embedding client and
// cache) and below engine/ (which makes an index the run's retriever). The settings come from retrieval/indexSpec.ts.
import type { RetrievedItem } from '../retrieval/contract.js';

/** One document read from the folder: its path relative to the folder ('/' separators) and its text. */
export interface CorpusDocument {
  file: string;
  text: string;
  /** sha256 of the file's bytes: what the incremental re-index compares. */
  contentHash: string;
  /** For text the reader extracted from another format (HTML, JSONL, PDF): where each part came from. */
  extracted?: ExtractedText;
}

/**
 * How extracted text maps back to its source file. `lines` holds `[offset, line]` pairs, offsets ascending from 0:
 * the text from `offset` up to the next pair's came from source line `line` (1-based); a PDF has no source lines, so
 * its are the lines of the extracted text itself (what the inspector shows for it). `pages` (PDF) holds
 * `[offset, page]` pairs the same way, one per page with text. `records` (JSONL) are the documents the text joins,
 * in order: a chunk never crosses one, and takes its `title` (else `id`) as its heading.
 */
export interface ExtractedText {
  lines: Array<[offset: number, line: number]>;
  pages?: Array<[offset: number, page: number]>;
  records?: Array<{ start: number; end: number; line: number; id?: string; title?: string }>;
}

/**
 * A piece of one document. `text === document.text.slice(startChar, endChar)` always (chunk ranges map back to the
 * exact source text); lines are 1-based and inclusive. For HTML/JSONL/PDF documents the offsets are into the text the
 * reader extracted, and `startLine`/`endLine` are the source file's lines that text came from (for a PDF, lines of
 * the extracted text).
 */
export interface Chunk {
  /** Stable for the same file, settings and range: `<file>#<startChar>-<endChar>`. */
  id: string;
  file: string;
  text: string;
  startChar: number;
  endChar: number;
  startLine: number;
  endLine: number;
  /** The Markdown heading path ("Install › Linux") when chunked by heading; a JSONL record's title (or id) leads it. */
  heading?: string;
  tokens: number;
  /** A PDF's pages the chunk's first and last characters are on (1-based): "report.pdf p. 3". */
  startPage?: number;
  endPage?: number;
}

/** A chunk as a store keeps it. */
export interface StoredChunk extends Chunk {
  vector: number[];
}

/** A store's answer: best first, `score` the store's similarity (higher is better). */
export type StoreHit = RetrievedItem & { score: number };

/**
 * A vector store, embedded or the team's own. Every method honours the signal. `identity` names it without secrets
 * ("embedded:/…/index/3fa1…", "pgvector:public.rag_chunks").
 */
export interface VectorStore {
  readonly identity: string;
  /** Replaces every chunk of `files` with `chunks` (a changed file re-indexes only itself). */
  replaceFiles(files: readonly string[], chunks: readonly StoredChunk[], signal: AbortSignal): Promise<void>;
  removeFiles(files: readonly string[], signal: AbortSignal): Promise<void>;
  /** The `k` nearest chunks to `vector` by cosine similarity. */
  search(vector: readonly number[], k: number, signal: AbortSignal): Promise<StoreHit[]>;
  count(signal: AbortSignal): Promise<number>;
  /** Builds or refreshes the approximate index when the table is large enough to need one (no-op when small). */
  optimize?(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** What building an index reports as it goes (progress with a count the UI can show, cancel via the signal). */
export interface IndexProgress {
  stage: 'read' | 'chunk' | 'embed' | 'store' | 'optimize';
  done: number;
  total: number;
  file?: string;
}

/** What a build did: files re-chunked (changed), untouched, removed; texts embedded vs taken from the cache. */
export interface IndexBuildSummary {
  folder: string;
  /** `.rag-inspector/index/<hash of settings>/`. */
  indexDir: string;
  files: { changed: number; unchanged: number; removed: number };
  chunks: number;
  embedded: { texts: number; cached: number; inputTokens: number };
}
