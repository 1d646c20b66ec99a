// The embeddings provider through the real openai SDK to the fixture server: vectors in order, usage, float format, errors.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/providers/contract.js';
import { OpenAIEmbeddingProvider } from '../../../src/core/providers/embeddings.js';
import { EMBEDDING_DIMENSION, fixtureTokenCount, hashEmbedding } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-embed-test-0123456789';
let server: FixtureServer;
let provider: OpenAIEmbeddingProvider;

useFixtureServer((started) => {
  server = started;
  provider = new OpenAIEmbeddingProvider({ apiKey: KEY, baseURL: server.openaiBaseUrl });
}, { embeddings: { 'Paris is in France.': [0.6, 0.8, 0, 0, 0, 0, 0, 0] } });

function signal(): AbortSignal {
  return new AbortController().signal;
}

describe('OpenAIEmbeddingProvider', () => {
  it('returns one vector per input, in input order, with the usage the server reported', async () => {
    const input = ['Paris is in France.', 'Berlin is in Germany.', '北京是中国的首都。'];
    const result = await provider.embed({ model: 'text-embedding-3-small', input }, { signal: signal() });
    assert.equal(result.vectors.length, 3);
    assert.deepEqual(result.vectors[0], [0.6, 0.8, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(result.vectors[1], hashEmbedding('Berlin is in Germany.'));
    assert.equal(result.vectors[2]?.length, EMBEDDING_DIMENSION);
    assert.deepEqual(result.usage, { inputTokens: input.reduce((sum, text) => sum + fixtureTokenCount(text), 0), outputTokens: 0 });
    assert.ok(result.latencyMs > 0);
  });

  it('asks for floats (compatible servers often lack base64) and sends the key as a Bearer token', async () => {
    await provider.embed({ model: 'text-embedding-3-small', input: ['x'] }, { signal: signal() });
    const request = server.requests.at(-1);
    assert.equal(request?.path, '/v1/embeddings');
    assert.equal((request?.body as { encoding_format: string }).encoding_format, 'float');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
  });

  it('makes no call for an empty input list', async () => {
    const before = server.requests.length;
    const result = await provider.embed({ model: 'text-embedding-3-small', input: [] }, { signal: signal() });
    assert.deepEqual(result.vectors, []);
    assert.equal(server.requests.length, before);
  });

  it('maps failures like the chat providers do', async () => {
    server.addRule({ match: { path: '/v1/embeddings' }, fault: { kind: 'rate_limit', retryAfterMs: 700 }, times: 1 });
    await assert.rejects(provider.embed({ model: 'e', input: ['x'] }, { signal: signal() }), (error: unknown) => error instanceof ProviderError && error.kind === 'rate_limit' && error.retryAfterMs === 700);
    server.addRule({ match: { path: '/v1/embeddings' }, fault: { kind: 'status', status: 200, body: { object: 'list', data: [] } }, times: 1 });
    await assert.rejects(provider.embed({ model: 'e', input: ['x'] }, { signal: signal() }), (error: unknown) => error instanceof ProviderError && error.kind === 'bad_response');
  });
});
