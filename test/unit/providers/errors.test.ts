// Every fixture fault, through each real SDK, arrives as the ProviderError kind the scheduler acts on — and no key leaks.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { AnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { Provider } from '../../../src/core/providers/contract.js';
import { kindOfStatus, retryAfterMsFrom } from '../../../src/core/providers/errors.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { publicEndpoint } from '../../../src/core/providers/secrets.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { Fault, FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';

const OPENAI_KEY = 'sk-openai-secret-0123456789';
const ANTHROPIC_KEY = 'sk-ant-secret-0123456789';
const messages: ChatMessage[] = [{ role: 'user', content: 'What is the capital of France?' }];

let server: FixtureServer;
let vendors: { name: string; provider: Provider }[];

useFixtureServer((started) => {
  server = started;
  vendors = [
    { name: 'openai', provider: new OpenAIProvider({ apiKey: OPENAI_KEY, baseURL: server.openaiBaseUrl }) },
    { name: 'anthropic', provider: new AnthropicProvider({ apiKey: ANTHROPIC_KEY, baseURL: server.anthropicBaseUrl }) },
  ];
});

/** The ProviderError a call fails with; fails the test if the call succeeds or throws anything else. */
async function failureOf(provider: Provider, options: { stream?: boolean; signal?: AbortSignal } = {}): Promise<ProviderError> {
  try {
    await provider.complete({ model: 'm', messages, stream: options.stream }, { signal: options.signal ?? new AbortController().signal });
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    assert.ok(!error.message.includes(OPENAI_KEY) && !error.message.includes(ANTHROPIC_KEY), 'no key in the message');
    return error;
  }
  assert.fail('the call was expected to fail');
}

const statusCases: { fault: Fault; kind: ProviderError['kind']; status: number }[] = [
  { fault: { kind: 'server_error' }, kind: 'server', status: 500 },
  { fault: { kind: 'server_error', status: 502 }, kind: 'server', status: 502 },
  { fault: { kind: 'server_error', status: 503 }, kind: 'server', status: 503 },
  { fault: { kind: 'status', status: 529 }, kind: 'server', status: 529 },
  { fault: { kind: 'status', status: 401 }, kind: 'auth', status: 401 },
  { fault: { kind: 'status', status: 403 }, kind: 'auth', status: 403 },
  { fault: { kind: 'status', status: 400 }, kind: 'bad_request', status: 400 },
  { fault: { kind: 'status', status: 404 }, kind: 'bad_request', status: 404 },
  { fault: { kind: 'status', status: 422, body: { error: { message: 'schema rejected' } } }, kind: 'bad_request', status: 422 },
];

describe('fault mapping through both SDKs', () => {
  for (const vendor of ['openai', 'anthropic']) {
    const provider = () => vendors.find((entry) => entry.name === vendor)?.provider as Provider;

    for (const stream of [false, true]) {
      const mode = stream ? 'streaming' : 'non-streaming';

      it(`${vendor} ${mode}: HTTP statuses map to server, auth and bad_request kinds`, async () => {
        for (const { fault, kind, status } of statusCases) {
          server.clearRules();
          server.addRule({ fault });
          const error = await failureOf(provider(), { stream });
          assert.equal(error.kind, kind, `${status} → ${kind}`);
          assert.equal(error.status, status);
          assert.equal(error.retryable, kind === 'server');
        }
      });

      it(`${vendor} ${mode}: 429 becomes rate_limit with retryAfterMs from retry-after-ms and from Retry-After seconds`, async () => {
        server.addRule({ fault: { kind: 'rate_limit', retryAfterMs: 1500 }, times: 1 });
        server.addRule({ fault: { kind: 'rate_limit', retryAfterSeconds: 3 }, times: 1 });
        const precise = await failureOf(provider(), { stream });
        assert.equal(precise.kind, 'rate_limit');
        assert.equal(precise.retryAfterMs, 1500);
        const inSeconds = await failureOf(provider(), { stream });
        assert.equal(inSeconds.retryAfterMs, 3000);
        assert.equal(server.requests.at(-1)?.reply?.status, 429);
      });

      it(`${vendor} ${mode}: a broken body is bad_response, a dropped connection is network`, async () => {
        server.addRule({ fault: { kind: 'malformed' }, times: 1 });
        server.addRule({ fault: { kind: 'drop' }, times: 1 });
        assert.equal((await failureOf(provider(), { stream })).kind, 'bad_response');
        assert.equal((await failureOf(provider(), { stream })).kind, 'network');
      });

      it(`${vendor} ${mode}: a hang aborted through the signal ends as cancelled and closes the connection`, { timeout: 10_000 }, async () => {
        server.addRule({ fault: { kind: 'hang' } });
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        // The server never answers: only the abort can end the call (the test's timeout fails it otherwise).
        const error = await failureOf(provider(), { stream, signal: controller.signal });
        assert.equal(error.kind, 'cancelled');
        await waitFor(() => server.requests.at(-1)?.clientClosed || undefined, 'the connection closed, not left hanging');
      });
    }

    it(`${vendor}: an error event inside a started stream maps by its error type`, async () => {
      server.addRule({ fault: { kind: 'stream_error' }, times: 1 });
      server.addRule({ fault: { kind: 'stream_error', errorType: vendor === 'anthropic' ? 'rate_limit_error' : 'rate_limit_exceeded' }, times: 1 });
      server.addRule({ fault: { kind: 'stream_error', errorType: 'invalid_request_error' }, times: 1 });
      const kinds = [];
      for (let i = 0; i < 3; i += 1) kinds.push((await failureOf(provider(), { stream: true })).kind);
      assert.deepEqual(kinds, ['server', 'rate_limit', 'bad_request']);
      assert.equal(server.requests.at(-1)?.reply?.status, 200, 'the stream had started with 200');
    });

    it(`${vendor}: a hang cut by AbortSignal.timeout is a timeout, which the scheduler may retry`, async () => {
      server.addRule({ fault: { kind: 'hang' } });
      const error = await failureOf(provider(), { signal: AbortSignal.timeout(100) });
      assert.equal(error.kind, 'timeout');
      assert.equal(error.retryable, true);
    });

    it(`${vendor}: an already aborted signal sends nothing`, async () => {
      const before = server.requests.length;
      const controller = new AbortController();
      controller.abort();
      assert.equal((await failureOf(provider(), { signal: controller.signal })).kind, 'cancelled');
      assert.equal(server.requests.length, before);
    });

    it(`${vendor}: a slow answer still succeeds`, async () => {
      server.addRule({ fault: { kind: 'slow', ms: 80 }, reply: 'Paris' });
      const response = await provider().complete({ model: 'm', messages }, { signal: new AbortController().signal });
      assert.equal(response.text, 'Paris');
      assert.ok(response.latencyMs >= 70);
    });
  }

  it('a refused connection is network', async () => {
    const gone = await startFixtureServer();
    const baseURL = gone.openaiBaseUrl;
    await gone.close();
    const error = await failureOf(new OpenAIProvider({ apiKey: OPENAI_KEY, baseURL }));
    assert.equal(error.kind, 'network');
  });

  it("the fixture's rate limiter reaches the provider as rate_limit with the wait it computed", async () => {
    const limited = await startFixtureServer({ rateLimit: { requestsPerMinute: 1 } });
    try {
      const provider = new OpenAIProvider({ apiKey: OPENAI_KEY, baseURL: limited.openaiBaseUrl });
      await provider.complete({ model: 'm', messages }, { signal: new AbortController().signal });
      const error = await failureOf(provider);
      assert.equal(error.kind, 'rate_limit');
      assert.ok((error.retryAfterMs ?? 0) > 50_000);
    } finally {
      await limited.close();
    }
  });
});

describe('keys stay out of error messages', () => {
  it('redacts a key the server echoes back in its 401 message, for both vendors', async () => {
    const strict = await startFixtureServer({ requireApiKey: 'sk-the-right-key-000000' });
    try {
      const openai = new OpenAIProvider({ apiKey: OPENAI_KEY, baseURL: strict.openaiBaseUrl });
      const anthropic = new AnthropicProvider({ apiKey: ANTHROPIC_KEY, baseURL: strict.anthropicBaseUrl });
      for (const provider of [openai, anthropic]) {
        const error = await failureOf(provider);
        assert.equal(error.kind, 'auth');
        assert.match(error.message, /Incorrect API key provided: \[redacted\]/);
      }
      // The fixture really did send the key back, so the redaction above was needed.
      const raw = await fetch(`${strict.openaiBaseUrl}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${OPENAI_KEY}` }, body: '{}' });
      assert.match(await raw.text(), new RegExp(OPENAI_KEY));
    } finally {
      await strict.close();
    }
  });

  it('publicEndpoint drops userinfo, query and fragment', () => {
    assert.equal(publicEndpoint('http://me:pw@localhost:11434/v1/?key=1#x'), 'http://localhost:11434/v1');
  });
});

describe('status and Retry-After parsing', () => {
  it('classifies statuses', () => {
    assert.deepEqual([429, 500, 503, 529, 401, 403, 400, 404, 422, 408].map(kindOfStatus), ['rate_limit', 'server', 'server', 'server', 'auth', 'auth', 'bad_request', 'bad_request', 'bad_request', 'timeout']);
  });

  it('reads retry-after-ms first, then Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now), 250);
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after': '2' }), now), 2000);
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after': '0.5' }), now), 500);
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }), now), 5000);
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }), now), 0);
    assert.equal(retryAfterMsFrom(new Headers({ 'retry-after': 'soon' }), now), undefined);
    assert.equal(retryAfterMsFrom(new Headers(), now), undefined);
  });
});
