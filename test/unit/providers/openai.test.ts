// The OpenAI provider through the real openai SDK over HTTP to the fixture server: bodies sent, answers read, streams.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { chatCompletionBody, OpenAIProvider } from '../../../src/core/providers/openai.js';
import { fixtureTokenCount } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-openai-test-0123456789';
let server: FixtureServer;
let provider: OpenAIProvider;

useFixtureServer((started) => {
  server = started;
  provider = new OpenAIProvider({ apiKey: KEY, baseURL: server.openaiBaseUrl });
});

const question: ChatMessage[] = [
  { role: 'system', content: 'Answer from the documents.' },
  { role: 'user', content: 'Document: Paris is the capital of France.\n\nQuestion: What is the capital of France?' },
];

const questionTokens = fixtureTokenCount(question.map((message) => message.content).join('\n'));

function lastRequest(): RecordedRequest {
  const request = server.requests.at(-1);
  assert.ok(request, 'the fixture saw a request');
  return request;
}

function signal(): AbortSignal {
  return new AbortController().signal;
}

describe('OpenAIProvider', () => {
  it('completes without streaming and reports usage, latency and finish reason', async () => {
    server.addRule({ match: { contains: 'capital of France' }, reply: 'Paris' });
    const response = await provider.complete({ model: 'gpt-4o-mini', messages: question }, { signal: signal() });
    assert.equal(response.text, 'Paris');
    assert.equal(response.cached, false);
    assert.equal(response.finishReason, 'stop');
    assert.deepEqual(response.usage, { inputTokens: questionTokens, outputTokens: 1 });
    assert.ok(response.latencyMs > 0);
    const sent = lastRequest();
    assert.equal(sent.stream, false);
    assert.deepEqual((sent.body as { messages: ChatMessage[] }).messages, question);
  });

  it('streams, accumulating deltas, and asks for usage in the final chunk', async () => {
    server.addRule({ reply: 'Paris is the capital of France.' });
    const response = await provider.complete({ model: 'gpt-4o-mini', messages: question, stream: true }, { signal: signal() });
    assert.equal(response.text, 'Paris is the capital of France.');
    assert.deepEqual(response.usage, { inputTokens: questionTokens, outputTokens: 7 });
    assert.equal(response.finishReason, 'stop');
    const sent = lastRequest().body as { stream: boolean; stream_options: unknown };
    assert.equal(sent.stream, true);
    assert.deepEqual(sent.stream_options, { include_usage: true });
  });

  it('sends decoding parameters, structured output as a json_schema response_format, and extras', async () => {
    server.addRule({ reply: '{"verdict":"supported"}' });
    const schema = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'], additionalProperties: false };
    const response = await provider.complete(
      { model: 'gpt-4o', messages: question, temperature: 0, topP: 0.5, maxTokens: 64, stop: ['\n\n'], seed: 42, structuredOutput: { name: 'verdict', schema }, extra: { user: 'rag-inspector' } },
      { signal: signal() },
    );
    assert.deepEqual(JSON.parse(response.text), { verdict: 'supported' });
    const sent = lastRequest().body as Record<string, unknown>;
    assert.equal(sent.temperature, 0);
    assert.equal(sent.top_p, 0.5);
    assert.equal(sent.max_tokens, 64);
    assert.deepEqual(sent.stop, ['\n\n']);
    assert.equal(sent.seed, 42);
    assert.equal(sent.user, 'rag-inspector');
    assert.deepEqual(sent.response_format, { type: 'json_schema', json_schema: { name: 'verdict', schema, strict: true } });
  });

  it('reports a length finish when max_tokens cuts the answer, in both modes', async () => {
    server.addRule({ reply: 'one two three four five six' });
    for (const stream of [false, true]) {
      const response = await provider.complete({ model: 'gpt-4o-mini', messages: question, maxTokens: 3, stream }, { signal: signal() });
      assert.equal(response.text, 'one two three');
      assert.equal(response.finishReason, 'length');
    }
  });

  it('sends max_completion_tokens instead of max_tokens when the extras ask for it (reasoning models)', () => {
    const body = chatCompletionBody({ model: 'o3', messages: question, maxTokens: 100, extra: { max_completion_tokens: 500 } }) as unknown as Record<string, unknown>;
    assert.equal(body.max_tokens, undefined);
    assert.equal(body.max_completion_tokens, 500);
    assert.ok(!('temperature' in body), 'unset parameters are not sent');
  });

  it('sends the key as a Bearer token, and no Authorization header at all for a keyless server', async () => {
    await provider.complete({ model: 'gpt-4o-mini', messages: question }, { signal: signal() });
    assert.equal(lastRequest().headers.authorization, `Bearer ${KEY}`);

    const keyless = new OpenAIProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl });
    await keyless.complete({ model: 'llama3', messages: question }, { signal: signal() });
    assert.equal(lastRequest().headers.authorization, undefined);
    assert.equal(keyless.id, 'openai-compatible');
    assert.match(keyless.label, /^OpenAI-compatible \(http:\/\/127\.0\.0\.1:\d+\/v1\)$/);
  });

  it('keeps credentials out of its endpoint', () => {
    const withSecrets = new OpenAIProvider({ apiKey: KEY, baseURL: 'https://user:hunter2@example.openai.azure.com/openai/v1/?api-key=secret' });
    assert.equal(withSecrets.endpoint, 'https://example.openai.azure.com/openai/v1');
  });

  it('does not retry on its own: one failed call is one request', async () => {
    server.addRule({ fault: { kind: 'server_error', status: 503 } });
    const before = server.requests.length;
    await assert.rejects(provider.complete({ model: 'gpt-4o-mini', messages: question }, { signal: signal() }), { name: 'ProviderError', kind: 'server' });
    assert.equal(server.requests.length - before, 1);
  });
});
