// Benchmark: a vector store at corpus scale — load 100,000 chunks of 256-number vectors, build the approximate index,
// then time top-10 queries (p50/p99) and measure recall@10 against an exact brute-force cosine scan of the same
// vectors. `--store embedded` (LanceDB, HNSW-SQ or --ann ivf-pq) or `--store pglite` (PostgreSQL + pgvector HNSW in
// PGlite, reached with the `pg` client over pglite-socket, as a team's server would be).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { VectorStore } from '../src/core/corpus/contract.js';
import { EMBEDDED_DEFAULTS, openEmbeddedStore } from '../src/core/corpus/stores/embedded.js';
import { bruteForceTopK, chunksOf, syntheticVectors } from '../test/fixtures/vectors.js';
import { machineLine, mb, numberArg, stringArg, table } from './lib/report.js';

const signal = new AbortController().signal;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

async function timeQueries(store: VectorStore, queries: readonly Float32Array[], k: number): Promise<{ p50: number; p99: number; ids: string[][] }> {
  for (const query of queries.slice(0, 20)) await store.search(Array.from(query), k, signal); // warm-up
  const times: number[] = [];
  const ids: string[][] = [];
  for (const query of queries) {
    const vector = Array.from(query);
    const started = performance.now();
    const hits = await store.search(vector, k, signal);
    times.push(performance.now() - started);
    ids.push(hits.map((hit) => hit.id));
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), ids };
}

async function openBenchStore(kind: string, dir: string): Promise<{ store: VectorStore; stop(): Promise<void> }> {
  if (kind === 'embedded') {
    const ann = stringArg('ann') ?? EMBEDDED_DEFAULTS.ann;
    if (ann !== 'hnsw-sq' && ann !== 'ivf-flat' && ann !== 'ivf-pq') throw new Error(`--ann ${ann}: hnsw-sq, ivf-flat or ivf-pq`);
    const store = await openEmbeddedStore(dir, { annMinRows: 1, ann, ef: numberArg('ef', EMBEDDED_DEFAULTS.ef), nprobes: numberArg('nprobes', EMBEDDED_DEFAULTS.nprobes), refineFactor: numberArg('refine', EMBEDDED_DEFAULTS.refineFactor) });
    return { store, stop: async () => store.close() };
  }
  if (kind === 'pglite') {
    const { startPgliteServer } = await import('../test/fixtures/pgliteServer.js');
    const server = await startPgliteServer(path.join(dir, 'pgdata'));
    const { openPgvectorStore } = await import('../src/core/corpus/stores/pgvector.js');
    const store = await openPgvectorStore({ type: 'pgvector', urlEnv: 'BENCH_PG_URL', table: 'rag_chunks', existing: false, columns: { id: 'id', text: 'text', vector: 'embedding' } }, { BENCH_PG_URL: server.url });
    return { store, stop: async () => { await store.close(); await server.stop(); } };
  }
  throw new Error(`--store ${kind}: embedded or pglite`);
}

async function main(): Promise<void> {
  const rows = numberArg('rows', 100_000);
  const dimension = numberArg('dim', 256);
  const queryCount = numberArg('queries', 300);
  const topics = numberArg('topics', 1000);
  const k = 10;
  const kind = stringArg('store') ?? 'embedded';
  console.log(machineLine());
  console.log(`store ${kind}: ${rows} chunks, ${dimension} numbers each, clustered around ${topics} topics (uniform if --topics 1); ${queryCount} top-${k} queries from the same distribution`);
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-vectors-'));
  const { store, stop } = await openBenchStore(kind, dir);
  try {
    const vectors = syntheticVectors(rows, dimension, 1, topics === 1 ? 0 : topics);
    const queries = syntheticVectors(queryCount, dimension, 2, topics === 1 ? 0 : topics).slice(0);
    let started = performance.now();
    const batch = 10_000;
    for (let at = 0; at < rows; at += batch) {
      const chunks = chunksOf(vectors.slice(at, at + batch), 10, at);
      await store.replaceFiles([...new Set(chunks.map((c) => c.file))], chunks, signal);
    }
    const loadMs = performance.now() - started;
    const exact = await timeQueries(store, queries.slice(0, 100), k);
    started = performance.now();
    await store.optimize?.(signal);
    const indexMs = performance.now() - started;
    const approximate = await timeQueries(store, queries, k);

    const items = vectors.map((vector, n) => ({ id: chunksOf([vector], 10, n)[0]!.id, vector }));
    let found = 0;
    let exactAgrees = 0;
    queries.forEach((query, q) => {
      const truth = bruteForceTopK(query, items, k).map((hit) => hit.id);
      const got = new Set(approximate.ids[q]);
      found += truth.filter((id) => got.has(id)).length;
      if (q < exact.ids.length && truth.join() === exact.ids[q]!.join()) exactAgrees++;
    });
    console.log(table(['measure', 'value', 'target'], [
      ['load (replaceFiles in batches of 10,000), s', (loadMs / 1000).toFixed(1), ''],
      ['exact search (no index) p50 / p99, ms', `${exact.p50.toFixed(1)} / ${exact.p99.toFixed(1)}`, ''],
      ['  exact top-10 equal to brute force', `${exactAgrees} of ${exact.ids.length}`, 'all'],
      ['index build (optimize), s', (indexMs / 1000).toFixed(1), ''],
      ['approximate search p50 / p99, ms', `${approximate.p50.toFixed(1)} / ${approximate.p99.toFixed(1)}`, 'p99 < 20'],
      ['recall@10 vs brute force', (found / (queries.length * k)).toFixed(3), '≥ 0.95'],
      ['peak RSS of this process, MB', mb(process.resourceUsage().maxRSS * 1024), ''],
    ]));
  } finally {
    await stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
