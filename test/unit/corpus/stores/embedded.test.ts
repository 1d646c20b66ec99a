// The embedded store (LanceDB): exact search returns the brute-force cosine top-k, a file's re-index touches only that
// file, the table survives a reopen, and what it refuses it refuses in words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { openEmbeddedStore } from '../../../../src/core/corpus/stores/embedded.js';
import { openStore } from '../../../../src/core/corpus/stores/open.js';
import { bruteForceTopK, chunksOf, syntheticVectors } from '../../../fixtures/vectors.js';

const signal = new AbortController().signal;

function tempDir(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'embedded-store-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('exact search: the top 10 ids and scores equal a brute-force cosine scan of the same vectors', async (t) => {
  const store = await openStore({ type: 'embedded' }, tempDir(t), {});
  t.after(() => store.close());
  const chunks = chunksOf(syntheticVectors(2000, 32, 7, 20), 50);
  for (let at = 0; at < chunks.length; at += 500) {
    const part = chunks.slice(at, at + 500);
    await store.replaceFiles([...new Set(part.map((c) => c.file))], part, signal);
  }
  assert.equal(await store.count(signal), 2000);
  for (const query of syntheticVectors(25, 32, 99, 20)) {
    const hits = await store.search(Array.from(query), 10, signal);
    const expected = bruteForceTopK(query, chunks, 10);
    assert.deepEqual(hits.map((h) => h.id), expected.map((e) => e.id));
    hits.forEach((hit, n) => assert.ok(Math.abs(hit.score - expected[n]!.score) < 1e-5, `score of ${hit.id}: ${hit.score} vs ${expected[n]!.score}`));
  }
});

test('a hit carries its text and its place in the source file', async (t) => {
  const store = await openStore({ type: 'embedded' }, tempDir(t), {});
  t.after(() => store.close());
  const chunk = chunksOf(syntheticVectors(1, 8, 1), 1)[0]!;
  await store.replaceFiles([chunk.file], [{ ...chunk, heading: 'Install › Linux' }], signal);
  const hit = (await store.search(chunk.vector, 5, signal))[0]!;
  assert.deepEqual(hit.metadata, { file: chunk.file, startChar: 0, endChar: 100, startLine: 1, endLine: 3, heading: 'Install › Linux', tokens: 20 });
  assert.equal(hit.text, chunk.text);
  assert.ok(Math.abs(hit.score - 1) < 1e-6);
});

test('replaceFiles replaces only that file: the others keep every chunk, the file gets exactly its new ones', async (t) => {
  const dir = tempDir(t);
  const store = await openEmbeddedStore(dir);
  const chunks = chunksOf(syntheticVectors(300, 16, 3), 100); // doc0.md, doc1.md, doc2.md
  await store.replaceFiles(['doc0.md', 'doc1.md', 'doc2.md'], chunks, signal);
  const fresh = chunksOf(syntheticVectors(7, 16, 4), 7).map((c) => ({ ...c, file: 'doc1.md', id: c.id.replace('doc0.md', 'doc1.md'), text: `new ${c.text}` }));
  await store.replaceFiles(['doc1.md'], fresh, signal);
  assert.equal(await store.count(signal), 207);
  const everything = [...chunks.filter((c) => c.file !== 'doc1.md'), ...fresh];
  const all = await store.search(chunks[150]!.vector, 1000, signal);
  assert.deepEqual(all.map((h) => h.id).sort(), everything.map((c) => c.id).sort());
  assert.ok(!all.some((h) => h.text === chunks[150]!.text), 'a replaced chunk is gone');
  for (const kept of [chunks[5]!, chunks[250]!, fresh[3]!]) assert.equal((await store.search(kept.vector, 1, signal))[0]!.id, kept.id);
  await store.close();
  // Reopened from its folder: the same rows.
  const again = await openEmbeddedStore(dir);
  t.after(() => again.close());
  assert.equal(await again.count(signal), 207);
  await again.removeFiles(['doc0.md', "it's.md"], signal);
  assert.equal(await again.count(signal), 107);
});

test('a file name with a quote is matched as itself, not as SQL', async (t) => {
  const store = await openEmbeddedStore(tempDir(t));
  t.after(() => store.close());
  const chunks = chunksOf(syntheticVectors(4, 8, 5), 2).map((c, n) => ({ ...c, file: n < 2 ? "it's.md" : "x' OR '1'='1.md", id: `${n}` }));
  await store.replaceFiles(["it's.md", "x' OR '1'='1.md"], chunks, signal);
  await store.removeFiles(["it's.md"], signal);
  assert.equal(await store.count(signal), 2);
});

test('vectors of another dimension are refused, naming both sizes', async (t) => {
  const store = await openEmbeddedStore(tempDir(t));
  t.after(() => store.close());
  const chunk = chunksOf(syntheticVectors(1, 8, 1), 1)[0]!;
  await store.replaceFiles([chunk.file], [chunk], signal);
  await assert.rejects(store.replaceFiles(['doc9.md'], [{ ...chunk, file: 'doc9.md', vector: [1, 2, 3] }], signal), /holds vectors of 8 numbers, the new chunks 3/);
  await assert.rejects(store.search([1, 2, 3], 3, signal), /query vector has 3 numbers but the index .* holds vectors of 8/);
  await assert.rejects(store.search(new Array(8).fill(0), 3, signal), /all zeros/);
  assert.equal(await store.count(signal), 1);
});

test('an empty store answers with no hits and a count of 0; a cancelled signal stops a write', async (t) => {
  const store = await openEmbeddedStore(tempDir(t));
  t.after(() => store.close());
  assert.deepEqual(await store.search([1, 0, 0], 3, signal), []);
  assert.equal(await store.count(signal), 0);
  const cancelled = AbortSignal.abort(new Error('cancelled by the user'));
  await assert.rejects(store.replaceFiles(['a.md'], chunksOf(syntheticVectors(1, 3, 1), 1).map((c) => ({ ...c, file: 'a.md' })), cancelled), /cancelled by the user/);
  assert.equal(await store.count(signal), 0);
});
