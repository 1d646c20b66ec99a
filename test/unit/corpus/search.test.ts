// Searching an index's chunks: weighted reciprocal-rank fusion against hand-computed values, BM25 over chunks (CJK
// included), and the reranker of both request shapes against the fixture server's deterministic /rerank.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Chunk } from '../../../src/core/corpus/contract.js';
import { reciprocalRankFusion } from '../../../src/core/corpus/fusion.js';
import { createReranker, scoresOf } from '../../../src/core/corpus/rerank.js';
import { Bm25ChunkSearch, searchIndex } from '../../../src/core/corpus/search.js';
import { RetrieverError } from '../../../src/core/retrieval/contract.js';
import { fixtureRerankScore, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

function chunk(file: string, text: string, start = 0): Chunk {
  return { id: `${file}#${start}-${start + text.length}`, file, text, startChar: start, endChar: start + text.length, startLine: 1, endLine: 1, tokens: text.length };
}

const signal = new AbortController().signal;

describe('reciprocalRankFusion', () => {
  it('adds weight / (k + rank) over the lists holding each id (Cormack et al. 2009), best first', () => {
    const fused = reciprocalRankFusion([{ ids: ['a', 'b', 'c'], weight: 0.7 }, { ids: ['c', 'a', 'd'], weight: 0.3 }], 60);
    const expected = new Map([
      ['a', 0.7 / 61 + 0.3 / 62],
      ['b', 0.7 / 62],
      ['c', 0.7 / 63 + 0.3 / 61],
      ['d', 0.3 / 63],
    ]);
    assert.deepEqual(fused.map((f) => f.id), ['a', 'c', 'b', 'd']);
    for (const { id, score } of fused) assert.ok(Math.abs(score - expected.get(id)!) < 1e-15, id);
  });

  it('keeps the order of first appearance on a tie', () => {
    const fused = reciprocalRankFusion([{ ids: ['x', 'y'], weight: 0.5 }, { ids: ['y', 'x'], weight: 0.5 }], 60);
    assert.deepEqual(fused.map((f) => f.id), ['x', 'y']);
    assert.equal(fused[0]!.score, fused[1]!.score);
  });

  it('refuses a constant that is not positive', () => {
    assert.throws(() => reciprocalRankFusion([], 0), RangeError);
  });
});

describe('Bm25ChunkSearch', () => {
  const chunks = [
    chunk('a.md', 'The kettle boils water in three minutes.'),
    chunk('b.md', 'A teapot keeps tea warm for an hour.'),
    chunk('c.md', 'Water boils at 100 degrees Celsius at sea level; water boils lower on mountains.'),
  ];

  it('ranks the chunks sharing the question\'s words and leaves out those sharing none', () => {
    const hits = new Bm25ChunkSearch(chunks).search('At what temperature does water boil? It boils at 100 degrees', 5);
    assert.deepEqual(hits.map((h) => h.id), [chunks[2]!.id, chunks[0]!.id]);
    assert.ok(hits[0]!.score > hits[1]!.score);
    assert.equal(hits[0]!.chunk, chunks[2]);
  });

  it('cuts at k', () => {
    assert.equal(new Bm25ChunkSearch(chunks).search('water boils', 1).length, 1);
  });

  it('finds a Chinese chunk by a word inside a sentence without spaces (segmented, not whole lines)', () => {
    const cjk = [chunk('zh1.md', '太阳是太阳系中心的一颗恒星。'), chunk('zh2.md', '水星是离太阳最近的行星。'), chunk('zh3.md', '月球绕地球运行。')];
    const hits = new Bm25ChunkSearch(cjk).search('哪颗行星离太阳最近？', 3);
    assert.equal(hits[0]!.id, cjk[1]!.id);
    assert.ok(!hits.some((h) => h.id === cjk[2]!.id), 'the moon chunk shares no word with the question');
  });
});

describe('reranker against the fixture server', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  const passages = ['nothing relevant here', 'water boils at 100 degrees', 'water is wet'];

  it('sends TEI\'s { query, texts } without a model and reads its [{ index, score }]', async () => {
    const reranker = createReranker({ url: `${server.url}/rerank`, candidates: 50, headers: {}, timeoutMs: 5000 }, {});
    const order = await reranker.rerank('when does water boil', passages, 3, signal);
    assert.deepEqual(order.map((o) => o.index), [1, 2, 0]);
    assert.equal(order[0]!.score, fixtureRerankScore('when does water boil', passages[1]!));
    const request = server.requests.at(-1)!;
    assert.deepEqual(request.body, { query: 'when does water boil', texts: passages });
  });

  it('sends { model, query, documents, top_n } with a model (Jina, Cohere) and reads { results }', async () => {
    const reranker = createReranker({ url: `${server.url}/v2/rerank`, model: 'rerank-v3.5', candidates: 50, headers: { Authorization: { env: 'RERANK_KEY', prefix: 'Bearer ' } }, timeoutMs: 5000 }, { RERANK_KEY: 'k-123' });
    const order = await reranker.rerank('when does water boil', passages, 2, signal);
    assert.deepEqual(order.map((o) => o.index), [1, 2]);
    const request = server.requests.at(-1)!;
    assert.deepEqual(request.body, { model: 'rerank-v3.5', query: 'when does water boil', documents: passages, top_n: 2 });
    assert.equal(request.headers.authorization, 'Bearer k-123');
  });

  it('says which variable is missing before sending anything', async () => {
    const before = server.requests.length;
    const reranker = createReranker({ url: `${server.url}/rerank`, candidates: 50, headers: { 'x-api-key': { env: 'RERANK_KEY_UNSET' } }, timeoutMs: 5000 }, {});
    await assert.rejects(reranker.rerank('q', passages, 3, signal), (error: unknown) => error instanceof RetrieverError && error.kind === 'start' && /RERANK_KEY_UNSET/.test(error.message));
    assert.equal(server.requests.length, before);
  });

  it('an HTTP error is a RetrieverError with the status, never an empty order', async () => {
    server.addRule({ match: { path: '/rerank' }, fault: { kind: 'status', status: 422, body: { error: 'batch too large' } }, times: 1 });
    const reranker = createReranker({ url: `${server.url}/rerank`, candidates: 50, headers: {}, timeoutMs: 5000 }, {});
    await assert.rejects(reranker.rerank('q', passages, 3, signal), (error: unknown) => error instanceof RetrieverError && error.kind === 'http-status' && error.status === 422);
  });

  it('reorders the first stage in searchIndex and keeps the reranker\'s scores', async () => {
    const chunks = [chunk('a.md', 'cat cat cat'), chunk('b.md', 'where is the cat'), chunk('c.md', 'tea')];
    const reranker = createReranker({ url: `${server.url}/rerank`, candidates: 10, headers: {}, timeoutMs: 5000 }, {});
    const spec = { search: 'bm25' as const, hybrid: { weight: 0.5, rrfK: 60 }, rerank: { url: `${server.url}/rerank`, candidates: 10, headers: {}, timeoutMs: 5000 } };
    const parts = { chunks, bm25: new Bm25ChunkSearch(chunks) };
    const plain = await searchIndex({ ...spec, rerank: undefined }, parts, 'where is the cat', 2, signal);
    assert.deepEqual(plain.map((h) => h.id), [chunks[0]!.id, chunks[1]!.id], 'BM25 alone puts the repeated word first');
    const reranked = await searchIndex(spec, { ...parts, reranker }, 'where is the cat', 1, signal);
    assert.deepEqual(reranked.map((h) => [h.id, h.score]), [[chunks[1]!.id, 1]]);
    assert.deepEqual((server.requests.at(-1)!.body as { texts: string[] }).texts, ['cat cat cat', 'where is the cat'], 'the first stage, in its order');
  });
});

describe('scoresOf', () => {
  it('refuses an index that was not sent and a passage scored twice', () => {
    assert.throws(() => scoresOf([{ index: 3, score: 1 }], 3, 'rerank: x'), /not one of the 3 passages/);
    assert.throws(() => scoresOf({ results: [{ index: 0, relevance_score: 1 }, { index: 0, relevance_score: 0.5 }] }, 3, 'rerank: x'), /twice/);
    assert.throws(() => scoresOf({ hits: [] }, 3, 'rerank: x'), /neither a list/);
  });
});
