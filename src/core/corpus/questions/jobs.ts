// Which generations to make: source chunks drawn by the seed, kinds in turn, and for multi-hop a related second chunk
// (the chunk BM25 finds closest to the first). The same corpus, kinds, count and seed always plan the same jobs, in
// the same order, so a rerun (or a larger --count) skips what is done.
import { fnv1a, mulberry32, shuffled } from '../../random.js';
import type { Chunk } from '../contract.js';
import { Bm25ChunkSearch } from '../search.js';
import { jobKey } from './model.js';
import type { QuestionJob, QuestionKind } from './model.js';

/** Chunks shorter than this (headings alone, a stray line) hold no fact worth a question, when longer ones exist. */
const MIN_SOURCE_CHARS = 80;

export interface JobPlan {
  jobs: QuestionJob[];
  /** Kinds that got fewer jobs than their share of the count, and why (too few chunks, no related pair). */
  shortfalls: string[];
}

function overlaps(a: Chunk, b: Chunk): boolean {
  return a.file === b.file && a.startChar < b.endChar && b.startChar < a.endChar;
}

/** The chunk most related to `chunk` by shared terms (BM25 over the chunks with its text as the query), never itself or an overlapping one. */
export function relatedChunk(chunk: Chunk, search: Bm25ChunkSearch): Chunk | undefined {
  return search.search(chunk.text, 8).map((hit) => hit.chunk).find((other): other is Chunk => other !== undefined && other.id !== chunk.id && !overlaps(chunk, other));
}

/**
 * `count` jobs, the kinds taking turns. Each kind walks its own seeded order of the chunks (so kinds draw different
 * chunks), one job per chunk; a kind runs short when its chunks run out.
 */
export function planJobs(chunks: readonly Chunk[], kinds: readonly QuestionKind[], count: number, seed: number): JobPlan {
  const long = chunks.filter((chunk) => chunk.text.trim().length >= MIN_SOURCE_CHARS);
  const sources = long.length > 0 ? long : [...chunks];
  const search = kinds.includes('multi-hop') ? new Bm25ChunkSearch(chunks) : undefined;
  const orders = new Map(kinds.map((kind) => [kind, shuffled(sources, mulberry32(fnv1a(`${seed}\u0000${kind}`)))]));
  const cursors = new Map(kinds.map((kind) => [kind, 0]));
  const wanted = new Map(kinds.map((kind) => [kind, 0]));
  const jobs: QuestionJob[] = [];
  const exhausted = new Set<QuestionKind>();
  for (let i = 0; jobs.length < count && exhausted.size < kinds.length; i++) {
    const kind = kinds[i % kinds.length] as QuestionKind;
    if (exhausted.has(kind)) continue;
    wanted.set(kind, (wanted.get(kind) ?? 0) + 1);
    const order = orders.get(kind) as Chunk[];
    let job: QuestionJob | undefined;
    while (!job && (cursors.get(kind) as number) < order.length) {
      const chunk = order[cursors.get(kind) as number] as Chunk;
      cursors.set(kind, (cursors.get(kind) as number) + 1);
      const partner = kind === 'multi-hop' && search ? relatedChunk(chunk, search) : undefined;
      if (kind === 'multi-hop' && !partner) continue;
      const source = partner ? [chunk, partner] : [chunk];
      job = { key: jobKey(kind, source, seed), kind, chunks: source, seed };
    }
    if (job) jobs.push(job);
    else exhausted.add(kind);
  }
  const shortfalls = kinds.flatMap((kind) => {
    const made = jobs.filter((job) => job.kind === kind).length;
    const share = wanted.get(kind) ?? 0;
    if (!exhausted.has(kind) || made >= share) return [];
    const why = kind === 'multi-hop' ? 'chunks with a related chunk (sharing terms) ran out' : `the corpus has ${sources.length} usable chunk(s)`;
    return [`${kind}: ${made} question(s) planned, fewer than asked: ${why}`];
  });
  return { jobs, shortfalls };
}
