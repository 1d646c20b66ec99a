// The Elasticsearch and OpenSearch stores through their official clients, against exchanges recorded from their
// documentation and replayed by a local server (neither server runs here): the documented kNN requests go out, and the
// answers map to hits in the engine's order, the id falling back to _id when the team's documents carry none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openStore } from '../../../../src/core/corpus/stores/open.js';
import { StoreError } from '../../../../src/core/corpus/stores/storeError.js';
import type { StoreSpec } from '../../../../src/core/retrieval/indexSpec.js';
import { startReplayServer } from '../../../fixtures/replayServer.js';
import { elasticOwnExchanges, elasticTeamExchanges, openSearchTeamExchanges, TEAM_DOCS, TEAM_QUERY } from '../../../fixtures/stores/searchEngineExchanges.js';
import { cosine } from '../../../fixtures/vectors.js';

const signal = new AbortController().signal;
const columns = { id: 'id', text: 'title', vector: 'image-vector' };
/** Elasticsearch's cosine kNN score, (1 + cosine) / 2, in cosine order. */
const ranked = TEAM_DOCS.map((d) => ({ _id: d._id, title: d.title, _score: (1 + cosine(TEAM_QUERY, d.vector)) / 2 })).sort((a, b) => b._score - a._score);

for (const type of ['elasticsearch', 'opensearch'] as const) {
  test(`${type}: a team's index is searched with the documented kNN request; hits keep the engine's order and scores`, async (t) => {
    const server = await startReplayServer(type === 'elasticsearch' ? elasticTeamExchanges(ranked) : openSearchTeamExchanges(ranked));
    t.after(() => server.stop());
    const spec: StoreSpec = { type, url: server.url, index: 'team_docs', existing: true, columns };
    const store = await openStore(spec, '/unused', {});
    t.after(() => store.close());
    assert.equal(store.identity, `${type}:${server.url}/team_docs`);
    const hits = await store.search(TEAM_QUERY, 3, signal);
    assert.deepEqual(server.mismatches, []);
    assert.deepEqual(hits.map((h) => [h.id, h.text, h.score]), ranked.map((r) => [r._id, r.title, r._score]));
    assert.deepEqual(hits.map((h) => h.id), ['doc-1', 'doc-3', 'doc-2']);
    assert.equal(await store.count(signal), 3);
    assert.deepEqual(server.mismatches, []);
    assert.deepEqual(server.remaining(), []);
    await assert.rejects(store.replaceFiles(['a.md'], [], signal), (error: unknown) => error instanceof StoreError && error.setting === 'index.store.existing');
  });
}

test('elasticsearch: the own index is created with a cosine dense_vector, the file deleted by query, its chunks bulk-indexed', async (t) => {
  const chunk = { id: 'guide.md#0-40', file: 'guide.md', text: 'Install with npm.', startChar: 0, endChar: 40, startLine: 1, endLine: 2, tokens: 5, vector: [0.1, 0.2, 0.3] };
  const integer = { type: 'integer' };
  const properties = { id: { type: 'keyword' }, text: { type: 'text' }, file: { type: 'keyword' }, heading: { type: 'text' }, startChar: integer, endChar: integer, startLine: integer, endLine: integer, tokens: integer, embedding: { type: 'dense_vector', dims: 3, index: true, similarity: 'cosine' } };
  const bulk = [{ index: { _index: 'rag_chunks', _id: chunk.id } }, { file: 'guide.md', startChar: 0, endChar: 40, startLine: 1, endLine: 2, tokens: 5, id: chunk.id, text: chunk.text, embedding: chunk.vector }];
  const server = await startReplayServer(elasticOwnExchanges('guide.md', bulk, properties));
  t.after(() => server.stop());
  const store = await openStore({ type: 'elasticsearch', url: server.url, index: 'rag_chunks', existing: false, columns: { id: 'id', text: 'text', vector: 'embedding' } }, '/unused', {});
  t.after(() => store.close());
  await store.replaceFiles(['guide.md'], [chunk], signal);
  assert.deepEqual(server.mismatches, []);
  assert.deepEqual(server.remaining(), []);
});

test('a vector field the index lacks is named with the fields it has; an unreachable server names the url setting', async (t) => {
  const exchanges = elasticTeamExchanges(ranked).slice(0, 2);
  const server = await startReplayServer(exchanges);
  t.after(() => server.stop());
  await assert.rejects(openStore({ type: 'elasticsearch', url: server.url, index: 'team_docs', existing: true, columns: { ...columns, vector: 'embedding' } }, '/unused', {}),
    (error: unknown) => error instanceof StoreError && error.setting === 'index.store.columns.vector' && /has no vector field embedding \(its vector fields: image-vector\)/.test(error.message));
  await assert.rejects(openStore({ type: 'opensearch', url: 'http://127.0.0.1:9', index: 'team_docs', existing: true, columns }, '/unused', {}),
    (error: unknown) => error instanceof StoreError && error.setting === 'index.store.url' && /cannot reach OpenSearch at http:\/\/127.0.0.1:9/.test(error.message));
  await assert.rejects(openStore({ type: 'opensearch', url: 'http://127.0.0.1:9', index: 'team_docs', existing: true, apiKeyEnv: 'OS_AUTH', columns }, '/unused', { OS_AUTH: 'no-colon' }),
    (error: unknown) => error instanceof StoreError && /OS_AUTH must hold user:password/.test(error.message));
});
