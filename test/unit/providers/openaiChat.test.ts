// A chat completion that is not streamed goes out without the SDK's per-call work (openaiChat.ts): it must send what the
// SDK's own call sends and answer, or fail, exactly as that call does — both against the fixture server, for every kind
// of answer it gives (statuses, bodies that are not JSON, broken and dropped bodies, a refused connection, aborts).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { CompletionRequest } from '../../../src/core/providers/contract.js';
import { chatCompletionBody, OpenAIProvider, openAIClientOnFirstUse, outcomeOfCompletion } from '../../../src/core/providers/openai.js';
import type { OpenAIProviderOptions } from '../../../src/core/providers/openai.js';
import { vendorCall } from '../../../src/core/providers/timedCompletion.js';
import { contextOverflowError } from '../../fixtures/localServers.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { Fault, FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-openai-chat-test-0123456789';
const messages: ChatMessage[] = [
  { role: 'system', content: 'Answer from the documents.' },
  { role: 'user', content: 'Document: Paris is the capital of France.\n\nQuestion: What is the capital of France? ✓' },
];
const request: CompletionRequest = { model: 'gpt-4o-mini', messages, temperature: 0, maxTokens: 64, seed: 7 };

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

/** The provider's call and the SDK's own `chat.completions.create` for the same options, each settled to what it gives. */
async function bothWays(options: OpenAIProviderOptions, signal: () => AbortSignal = () => new AbortController().signal): Promise<{ direct: unknown; sdk: unknown; sent: RecordedRequest[] }> {
  const provider = new OpenAIProvider(options);
  const client = openAIClientOnFirstUse(options)();
  const vendor = { vendor: provider.label, secret: options.apiKey };
  const before = server.requests.length;
  const direct = await settled(provider.complete(request, { signal: signal() }).then(({ latencyMs: _latency, cached: _cached, ...outcome }) => outcome));
  const sdk = await settled(vendorCall(vendor, { signal: signal() }, async (callSignal) => outcomeOfCompletion(await client.chat.completions.create(chatCompletionBody(request), { signal: callSignal }), provider.label)));
  return { direct, sdk, sent: server.requests.slice(before) };
}

/** An answer as it is, a failure as everything a user or the scheduler reads of it. */
async function settled(call: Promise<unknown>): Promise<unknown> {
  try {
    return { answer: await call };
  } catch (error) {
    assert.ok(error instanceof ProviderError, `a ProviderError, not ${String(error)}`);
    return { kind: error.kind, message: error.message, status: error.status, retryAfterMs: error.retryAfterMs, usage: error.usage, retryable: error.retryable };
  }
}

const options = (): OpenAIProviderOptions => ({ apiKey: KEY, baseURL: server.openaiBaseUrl });

const answers: [string, Fault | undefined][] = [
  ['an answer', undefined],
  ['400 with an error object', { kind: 'status', status: 400, body: { error: { message: 'bad things', type: 'invalid_request_error', code: 'bad' } } }],
  ['401', { kind: 'status', status: 401 }],
  ['404 whose body has no error object', { kind: 'status', status: 404, body: { detail: 'Not Found' } }],
  ['422 whose body is a bare message', { kind: 'status', status: 422, body: { message: 'schema rejected' } }],
  ['429 with retry-after-ms', { kind: 'rate_limit', retryAfterMs: 1500 }],
  ['429 with Retry-After seconds', { kind: 'rate_limit', retryAfterSeconds: 3 }],
  ['429 with a usage the failed attempt spent', { kind: 'status', status: 429, body: { error: { message: 'slow down', usage: { prompt_tokens: 12, completion_tokens: 3 } } } }],
  ['500', { kind: 'server_error' }],
  ['503 loading model', { kind: 'loading' }],
  ['500 shared context full', { kind: 'shared_context' }],
  ['llama.cpp prompt too long', { kind: 'status', status: 400, body: contextOverflowError('llama.cpp', 900, 512, 0).body }],
  ['vLLM prompt too long', { kind: 'status', status: 400, body: contextOverflowError('vllm', 900, 512, 64).body }],
  ['a proxy\'s HTML 502', { kind: 'raw', status: 502, headers: { 'content-type': 'text/html' }, body: `<html><body>${'Bad Gateway '.repeat(80)}</body></html>` }],
  ['a 500 whose JSON is a bare number', { kind: 'raw', status: 500, headers: { 'content-type': 'application/json' }, body: '0' }],
  ['a 500 with no body', { kind: 'raw', status: 500 }],
  ['a 200 in plain text', { kind: 'raw', status: 200, headers: { 'content-type': 'text/plain' }, body: 'Paris' }],
  ['a 200 JSON with a byte order mark', { kind: 'raw', status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: '\ufeff{"choices":[{"index":0,"message":{"role":"assistant","content":"Paris ✓"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}' }],
  ['a 200 as +json', { kind: 'raw', status: 200, headers: { 'content-type': 'application/vnd.answer+json' }, body: '{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I cannot"},"finish_reason":"stop"}]}' }],
  ['an empty JSON 200', { kind: 'raw', status: 200, headers: { 'content-type': 'application/json', 'content-length': '0' } }],
  ['a 204', { kind: 'raw', status: 204 }],
  ['a JSON 200 that does not parse', { kind: 'malformed' }],
  ['a connection dropped mid-body', { kind: 'drop' }],
];

describe('a chat completion without the SDK per call', () => {
  for (const [name, fault] of answers) {
    it(`${name}: the same answer or error as the SDK's call`, async () => {
      server.addRule({ ...(fault ? { fault } : { reply: 'Paris' }), times: 2 });
      const { direct, sdk } = await bothWays(options());
      assert.deepEqual(direct, sdk);
    });
  }

  it('sends the same request as the SDK: URL, headers and body, with a key, without one, with default headers and the organization from the environment', async () => {
    const saved = { org: process.env.OPENAI_ORG_ID, project: process.env.OPENAI_PROJECT_ID };
    process.env.OPENAI_ORG_ID = 'org-from-env';
    process.env.OPENAI_PROJECT_ID = 'proj-from-env';
    try {
      for (const variant of [options(), { baseURL: `${server.openaiBaseUrl}/`, id: 'openai-compatible' }, { ...options(), defaultHeaders: { 'api-key': 'azure-style', 'X-Team': 'evals' } }]) {
        const { direct, sdk, sent } = await bothWays(variant);
        assert.deepEqual(direct, sdk);
        assert.equal(sent.length, 2);
        const [ours, theirs] = sent as [RecordedRequest, RecordedRequest];
        assert.deepEqual([ours.method, ours.path, ours.body, ours.headers], [theirs.method, theirs.path, theirs.body, theirs.headers]);
        assert.equal(ours.headers['openai-organization'], 'org-from-env');
      }
    } finally {
      for (const [name, value] of [['OPENAI_ORG_ID', saved.org], ['OPENAI_PROJECT_ID', saved.project]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('a refused connection fails as the SDK\'s call does', async () => {
    const gone = await startFixtureServer();
    const baseURL = gone.openaiBaseUrl;
    await gone.close();
    const { direct, sdk } = await bothWays({ apiKey: KEY, baseURL });
    assert.deepEqual(direct, sdk);
    assert.equal((direct as { kind: string }).kind, 'network');
  });

  it('a hang ended by the caller, or by AbortSignal.timeout, fails as the SDK\'s call does', { timeout: 10_000 }, async () => {
    server.addRule({ fault: { kind: 'hang' } });
    const cancelled = await bothWays(options(), () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      return controller.signal;
    });
    assert.deepEqual(cancelled.direct, cancelled.sdk);
    assert.equal((cancelled.direct as { kind: string }).kind, 'cancelled');
    const timedOut = await bothWays(options(), () => AbortSignal.timeout(50));
    assert.deepEqual(timedOut.direct, timedOut.sdk);
    assert.equal((timedOut.direct as { kind: string }).kind, 'timeout');
  });
});
