// The pgvector store through the real `pg` client, against PGlite + pgvector served over the Postgres wire protocol:
// the same rankings as the embedded store and a brute-force cosine scan; a file's re-index touches only that file; a
// team's own table read through mapped columns and never written; a missing or wrong setting stops it in words.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { StoreSpec } from '../../../../src/core/retrieval/indexSpec.js';
import { openStore } from '../../../../src/core/corpus/stores/open.js';
import { openPgvectorStore } from '../../../../src/core/corpus/stores/pgvector.js';
import { StoreError } from '../../../../src/core/corpus/stores/storeError.js';
import { startPgliteServer, type PgliteServer } from '../../../fixtures/pgliteServer.js';
import { bruteForceTopK, chunksOf, syntheticVectors } from '../../../fixtures/vectors.js';

const signal = new AbortController().signal;
const columns = { id: 'id', text: 'text', vector: 'embedding' };
let server: PgliteServer;
const env = (): NodeJS.ProcessEnv => ({ TEST_PG_URL: server.url });
const own = (table: string): StoreSpec => ({ type: 'pgvector', urlEnv: 'TEST_PG_URL', table, existing: false, columns });

before(async () => {
  server = await startPgliteServer();
});
after(async () => {
  await server.stop();
});

test('the same top 10 as the embedded store and as a brute-force cosine scan of the same vectors', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pgvector-vs-embedded-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const pg = await openStore(own('public.rank_check'), dir, env());
  const embedded = await openStore({ type: 'embedded' }, dir, {});
  t.after(async () => {
    await pg.close();
    await embedded.close();
  });
  assert.equal(pg.identity, 'pgvector:public.rank_check');
  const chunks = chunksOf(syntheticVectors(1500, 32, 11, 15), 30);
  const files = [...new Set(chunks.map((c) => c.file))];
  await pg.replaceFiles(files, chunks, signal);
  await embedded.replaceFiles(files, chunks, signal);
  assert.equal(await pg.count(signal), 1500);
  for (const query of syntheticVectors(20, 32, 12, 15)) {
    const vector = Array.from(query);
    const fromPg = await pg.search(vector, 10, signal);
    const fromEmbedded = await embedded.search(vector, 10, signal);
    const exact = bruteForceTopK(query, chunks, 10);
    assert.deepEqual(fromPg.map((h) => h.id), exact.map((e) => e.id));
    assert.deepEqual(fromPg.map((h) => h.id), fromEmbedded.map((h) => h.id));
    fromPg.forEach((hit, n) => assert.ok(Math.abs(hit.score - exact[n]!.score) < 1e-5, `${hit.id}: ${hit.score} vs ${exact[n]!.score}`));
    assert.deepEqual(fromPg[0]!.metadata, fromEmbedded[0]!.metadata);
  }
});

test('replaceFiles replaces only that file, in one transaction', async (t) => {
  const store = await openPgvectorStore({ type: 'pgvector', urlEnv: 'TEST_PG_URL', table: 'replace_check', existing: false, columns }, env());
  t.after(() => store.close());
  const chunks = chunksOf(syntheticVectors(90, 8, 21), 30); // doc0.md … doc2.md
  await store.replaceFiles(['doc0.md', 'doc1.md', 'doc2.md'], chunks, signal);
  const fresh = chunksOf(syntheticVectors(4, 8, 22), 4).map((c) => ({ ...c, file: 'doc1.md', id: c.id.replace('doc0.md', 'doc1.md'), text: `new ${c.text}` }));
  await store.replaceFiles(['doc1.md'], fresh, signal);
  const all = await store.search(chunks[0]!.vector, 500, signal);
  assert.deepEqual(all.map((h) => h.id).sort(), [...chunks.filter((c) => c.file !== 'doc1.md'), ...fresh].map((c) => c.id).sort());
  assert.ok(all.filter((h) => h.metadata?.file === 'doc1.md').every((h) => h.text.startsWith('new ')));
  // A write that fails half-way (a vector of another size) leaves the file as it was.
  await assert.rejects(store.replaceFiles(['doc2.md'], [{ ...fresh[0]!, file: 'doc2.md', vector: [1, 2] }], signal), /holds vectors of 8 numbers, the new chunks 2/);
  assert.equal(await store.count(signal), 64);
  await store.removeFiles(['doc0.md'], signal);
  assert.equal(await store.count(signal), 34);
});

test('optimize creates the HNSW index (vector_cosine_ops) once the table is large enough, and search goes on answering', async (t) => {
  const store = await openPgvectorStore({ type: 'pgvector', urlEnv: 'TEST_PG_URL', table: 'hnsw_check', existing: false, columns }, env(), { annMinRows: 400 });
  t.after(() => store.close());
  const chunks = chunksOf(syntheticVectors(300, 16, 31, 5), 30);
  await store.replaceFiles([...new Set(chunks.map((c) => c.file))], chunks, signal);
  await store.optimize(signal);
  const indexes = async () => (await server.db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE tablename = 'hnsw_check'")).rows.map((r) => r.indexdef);
  assert.ok(!(await indexes()).some((d) => /USING hnsw/.test(d)), 'no HNSW index below annMinRows');
  const more = chunksOf(syntheticVectors(200, 16, 32, 5), 30, 300);
  await store.replaceFiles([...new Set(more.map((c) => c.file))], more, signal);
  await store.optimize(signal);
  assert.ok((await indexes()).some((d) => /USING hnsw \(embedding vector_cosine_ops\)/.test(d)), (await indexes()).join('\n'));
  for (const probe of [chunks[7]!, more[150]!]) assert.equal((await store.search(probe.vector, 1, signal))[0]!.id, probe.id);
});

test("a team's own table is read through its mapped columns and never written", async (t) => {
  await server.db.exec(`
    CREATE TABLE team_docs (doc_key integer PRIMARY KEY, body text NOT NULL, emb vector(3));
    INSERT INTO team_docs VALUES (1, 'Paris is the capital of France.', '[1,0,0]'), (2, 'Berlin is in Germany.', '[0,1,0]'), (3, 'Lyon is in France.', '[0.9,0.1,0]');
  `);
  const store = await openStore({ type: 'pgvector', urlEnv: 'TEST_PG_URL', table: 'team_docs', existing: true, columns: { id: 'doc_key', text: 'body', vector: 'emb' } }, '/unused', env());
  t.after(() => store.close());
  const hits = await store.search([1, 0, 0], 2, signal);
  assert.deepEqual(hits.map((h) => [h.id, h.text]), [['1', 'Paris is the capital of France.'], ['3', 'Lyon is in France.']]);
  assert.ok(Math.abs(hits[0]!.score - 1) < 1e-9);
  assert.equal(await store.count(signal), 3);
  await assert.rejects(store.replaceFiles(['a.md'], [], signal), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.existing' && /only reads it/.test(error.message) && !/rag-inspector index/.test(error.message));
});

test('a wrong column mapping names the columns setting', async () => {
  await assert.rejects(openStore({ type: 'pgvector', urlEnv: 'TEST_PG_URL', table: 'team_docs', existing: true, columns: { id: 'id', text: 'body', vector: 'emb' } }, '/unused', env()),
    (error: unknown) => error instanceof StoreError && error.setting === 'index.store.columns' && /cannot read the columns id, body, emb of the table team_docs/.test(error.message) && /set table: and columns:/.test(error.message));
});

test('a connection-string variable that is not set names it and how to set it', async () => {
  await assert.rejects(openStore(own('x'), '/unused', {}),
    (error: unknown) => error instanceof StoreError && error.setting === 'index.store.urlEnv' && /TEST_PG_URL is not set/.test(error.message) && /export TEST_PG_URL=postgres:\/\//.test(error.message));
});

test('a server that cannot be reached is named by host, never by its password', async () => {
  const closed = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  await assert.rejects(openStore(own('x'), '/unused', { TEST_PG_URL: `postgres://me:s3cret@127.0.0.1:${closed}/db` }), (error: unknown) => {
    assert.ok(error instanceof StoreError);
    assert.match(error.message, new RegExp(`cannot reach PostgreSQL at 127.0.0.1:${closed} \\(.*ECONNREFUSED.*\\) — check that the server is running and that TEST_PG_URL`));
    assert.doesNotMatch(error.message, /s3cret/);
    return true;
  });
});
