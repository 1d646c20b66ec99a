// The Qdrant store through the official client, against exchanges recorded from Qdrant's API documentation and
// replayed by a local server (no Qdrant server runs here): the requests the client sends are the documented ones,
// and the answers map to hits in the store's order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../../../src/core/corpus/stores/open.js';
import { StoreError } from '../../../../src/core/corpus/stores/storeError.js';
import { uuidOf } from '../../../../src/core/corpus/stores/remote.js';
import type { StoreSpec } from '../../../../src/core/retrieval/indexSpec.js';
import { startReplayServer } from '../../../fixtures/replayServer.js';
import { CITY_POINTS, CITY_QUERY, ownCollectionExchanges, teamCollectionExchanges } from '../../../fixtures/stores/qdrantExchanges.js';
import { cosine } from '../../../fixtures/vectors.js';

const signal = new AbortController().signal;
const teamSpec = (url: string): StoreSpec => ({ type: 'qdrant', url, collection: 'team_docs', existing: true, apiKeyEnv: 'QDRANT_KEY', columns: { id: 'doc_id', text: 'content', vector: 'embedding' } });

test("a team's collection: the documented query, hits with the payload's id and text in Qdrant's order, the count", async (t) => {
  const scores = CITY_POINTS.map((p) => ({ id: p.id, score: cosine(CITY_QUERY, p.vector) })).sort((a, b) => b.score - a.score).slice(0, 3);
  const server = await startReplayServer(teamCollectionExchanges(scores));
  t.after(() => server.stop());
  const store = await openStore(teamSpec(server.url), '/unused', { QDRANT_KEY: 'k-123' });
  assert.equal(store.identity, `qdrant:${server.url}/team_docs`);
  const hits = await store.search(CITY_QUERY, 3, signal);
  assert.deepEqual(hits.map((h) => h.id), ['new-york', 'berlin', 'moscow']);
  assert.equal(hits[0]!.text, 'New York is the largest city of the United States.');
  assert.equal(hits[0]!.score, scores[0]!.score);
  assert.equal(await store.count(signal), 4);
  assert.deepEqual(server.mismatches, []);
  assert.deepEqual(server.remaining(), []);
  assert.ok(server.received.every((r) => r.headers['api-key'] === 'k-123'), 'the key goes in the api-key header');
  await assert.rejects(store.removeFiles(['a.md'], signal), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.existing');
});

test('the own collection: created with a named cosine vector and a file index, then a file deleted and upserted', async (t) => {
  const chunk = { id: 'guide.md#0-40', file: 'guide.md', text: 'Install with npm.', startChar: 0, endChar: 40, startLine: 1, endLine: 2, tokens: 5, vector: [0.1, 0.2, 0.3, 0.4] };
  const points = [{ id: uuidOf(chunk.id), vector: { embedding: chunk.vector }, payload: { file: 'guide.md', startChar: 0, endChar: 40, startLine: 1, endLine: 2, tokens: 5, id: chunk.id, text: chunk.text } }];
  const server = await startReplayServer(ownCollectionExchanges(points, 'guide.md'));
  t.after(() => server.stop());
  const store = await openStore({ type: 'qdrant', url: server.url, collection: 'rag_chunks', existing: false, columns: { id: 'id', text: 'text', vector: 'embedding' } }, '/unused', {});
  await store.replaceFiles(['guide.md'], [chunk], signal);
  assert.deepEqual(server.mismatches, []);
  assert.deepEqual(server.remaining(), []);
  assert.match(uuidOf(chunk.id), /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

test('a key variable that is not set, a collection that is not there, a server that cannot be reached: each names its setting', async (t) => {
  await assert.rejects(openStore(teamSpec('http://127.0.0.1:9'), '/unused', {}), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.apiKeyEnv' && /QDRANT_KEY is not set/.test(error.message));
  await assert.rejects(openStore(teamSpec('http://127.0.0.1:9'), '/unused', { QDRANT_KEY: 'k' }), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.url' && /cannot reach Qdrant at http:\/\/127.0.0.1:9/.test(error.message));
  const server = await startReplayServer([{ source: 'https://api.qdrant.tech/api-reference/collections/collection-exists', request: { method: 'GET', path: '/collections/team_docs/exists' }, response: { status: 200, body: { result: { exists: false }, status: 'ok', time: 0.0001 } } }]);
  t.after(() => server.stop());
  await assert.rejects(openStore(teamSpec(server.url), '/unused', { QDRANT_KEY: 'k' }), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.collection' && /has no collection team_docs — .*existing: false to let the index build create it$/.test(error.message));
});
