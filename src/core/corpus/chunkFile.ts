// An index's chunks on disk (`chunks.jsonl`, one chunk per line): what BM25 searches, what a dense hit is placed in its
// file by, and what an incremental build keeps for the files that did not change.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { replaceFileAtomically } from '../atomicFile.js';
import { readLines } from '../run/jsonLines.js';
import type { Chunk } from './contract.js';

export const CHUNKS_FILE = 'chunks.jsonl';

/** Writes every chunk, replacing the file whole (a build killed half way leaves the previous file). */
export async function writeChunks(file: string, chunks: Iterable<Chunk>): Promise<void> {
  await replaceFileAtomically(file, async (temporary) => {
    const out = createWriteStream(temporary, { flags: 'wx' });
    try {
      for (const chunk of chunks) {
        if (!out.write(`${JSON.stringify(chunk)}\n`)) await once(out, 'drain');
      }
    } finally {
      out.end();
      await once(out, 'close');
    }
  });
}

/**
 * The chunks in the file, or undefined when there is none or a line is damaged or not a chunk: the build then
 * rebuilds the index from the documents rather than search half of it.
 */
export async function readChunks(file: string): Promise<Chunk[] | undefined> {
  const chunks: Chunk[] = [];
  try {
    for await (const line of readLines(file)) {
      if (line.text === '') continue;
      if (!line.complete || !line.utf8) return undefined;
      const value = JSON.parse(line.text) as unknown;
      if (!isChunk(value)) return undefined;
      chunks.push(value);
    }
  } catch {
    return undefined;
  }
  return chunks;
}

function isChunk(value: unknown): value is Chunk {
  const c = value as Partial<Chunk> | null;
  return typeof c?.id === 'string' && typeof c.file === 'string' && typeof c.text === 'string'
    && [c.startChar, c.endChar, c.startLine, c.endLine, c.tokens].every((n) => typeof n === 'number' && Number.isFinite(n));
}
