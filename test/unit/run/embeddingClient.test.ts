// The embeddings client over real HTTP to the fixture server: input order, batching, per-text disk cache, sharing, counters, failures.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/providers/contract.js';
import { OpenAIEmbeddingProvider } from '../../../src/core/providers/embeddings.js';
import { createEmbeddingClient, embeddingCacheKey } from '../../../src/core/run/embeddingClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { hashEmbedding } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
let dir: string;

useFixtureServer((started) => { server = started; }, { embeddings: { 'Paris is in France.': [0.6, 0.8, 0, 0, 0, 0, 0, 0] } });
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-embeddings-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function client(options: { cache?: boolean; batchSize?: number; maxRetries?: number } = {}) {
  return createEmbeddingClient({
    key: 'openai-compatible:embed',
    provider: new OpenAIEmbeddingProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl }),
    model: 'embed',
    scheduler: new Scheduler({ concurrency: 2, maxRetries: options.maxRetries ?? 0, timeoutMs: 5000, random: () => 0, baseDelayMs: 1 }),
    ...(options.cache === false ? {} : { cacheDir: dir }),
    ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
  });
}

const signal = () => new AbortController().signal;
const embeddingRequests = () => server.requests.filter((r) => r.api === 'openai-embeddings');
const inputsOf = (i: number) => (embeddingRequests()[i]!.body as { input: string[] }).input;

describe('createEmbeddingClient', () => {
  it('returns one vector per text in input order, duplicates included, asking once per distinct text', async () => {
    const embed = client();
    const vectors = await embed.embed(['Paris is in France.', 'b', 'Paris is in France.'], signal());
    assert.deepEqual(vectors, [[0.6, 0.8, 0, 0, 0, 0, 0, 0], hashEmbedding('b'), [0.6, 0.8, 0, 0, 0, 0, 0, 0]]);
    assert.deepEqual(inputsOf(0), ['Paris is in France.', 'b']);
    assert.equal(embed.counters.texts, 2);
  });

  it('splits the misses into batches of batchSize', async () => {
    const embed = client({ batchSize: 2, cache: false });
    await embed.embed(['a', 'b', 'c', 'd', 'e'], signal());
    assert.deepEqual(embeddingRequests().map((r) => (r.body as { input: string[] }).input), [['a', 'b'], ['c', 'd'], ['e']]);
    assert.equal(embed.counters.batches, 3);
    assert.equal(embed.counters.providerCalls, 3);
    assert.ok(embed.counters.inputTokens > 0);
  });

  it('caches each vector on disk by text: a new client (a rerun) asks only for texts it has not seen', async () => {
    await client().embed(['a', 'b'], signal());
    const rerun = client();
    const vectors = await rerun.embed(['b', 'c', 'a'], signal());
    assert.deepEqual(vectors, [hashEmbedding('b'), hashEmbedding('c'), hashEmbedding('a')]);
    assert.equal(embeddingRequests().length, 2);
    assert.deepEqual(inputsOf(1), ['c']);
    assert.equal(rerun.counters.cacheHits, 2);
    const files = readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.json'));
    assert.equal(files.length, 3, 'one file per text, no temporary files left');
  });

  it('the key covers endpoint, model and text; credentials in the URL do not enter it', () => {
    const key = embeddingCacheKey('openai', 'https://x.example/v1', 'm', 'text');
    assert.match(key, /^[0-9a-f]{64}$/);
    assert.notEqual(key, embeddingCacheKey('openai', 'https://x.example/v1', 'm2', 'text'));
    assert.notEqual(key, embeddingCacheKey('openai', 'https://y.example/v1', 'm', 'text'));
    assert.notEqual(key, embeddingCacheKey('openai', 'https://x.example/v1', 'm', 'text '));
    assert.equal(key, embeddingCacheKey('openai', 'https://x.example/v1?api-key=secret', 'm', 'text'));
  });

  it('a corrupt cache entry is a miss, fetched again and replaced', async () => {
    await client().embed(['a'], signal());
    const file = readdirSync(dir, { recursive: true }).map(String).find((f) => f.endsWith('.json'))!;
    writeFileSync(path.join(dir, file), '{"format":1,"vector":[1,');
    const vectors = await client().embed(['a'], signal());
    assert.deepEqual(vectors, [hashEmbedding('a')]);
    assert.equal(embeddingRequests().length, 2);
  });

  it('concurrent calls for the same text share one request', async () => {
    server.setLatency(30);
    try {
      const embed = client({ cache: false });
      const [first, second] = await Promise.all([embed.embed(['q', 'x'], signal()), embed.embed(['q'], signal())]);
      assert.deepEqual(first[0], second[0]);
      assert.equal(embeddingRequests().length, 1);
      assert.equal(embed.counters.shared, 1);
    } finally {
      server.setLatency(0);
    }
  });

  it('a failure after the scheduler\'s retries rejects with the provider error, counted; nothing is cached', async () => {
    server.addRule({ match: { path: '/v1/embeddings' }, fault: { kind: 'server_error', status: 503 }, times: 2 });
    const embed = client({ maxRetries: 1 });
    await assert.rejects(embed.embed(['a'], signal()), (error: unknown) => error instanceof ProviderError && error.kind === 'server');
    assert.equal(embed.counters.failures, 1);
    assert.equal(embed.counters.providerCalls, 2);
    assert.equal(readdirSync(dir).length, 0);
  });

  it('a cancelled signal is refused before any call', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client().embed(['a'], controller.signal), (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
    assert.equal(embeddingRequests().length, 0);
  });
});
