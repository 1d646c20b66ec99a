// Identical requests in flight at once share one call, through the real openai SDK over HTTP to the fixture server.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { ResponseCache } from '../../../src/core/run/cache.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { caseRequests } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';

let server: FixtureServer;
let cacheRoot: string;
let cacheDirs = 0;

useFixtureServer((started) => {
  server = started;
});
before(async () => {
  cacheRoot = await mkdtemp(path.join(tmpdir(), 'rag-single-flight-'));
});
after(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

const question = (text: string): ChatMessage[] => [{ role: 'user', content: text }];

/** Two model clients of one run (the model under test and another sharing its endpoint), over one cache. */
function runClients(options: { noCache?: boolean } = {}) {
  const cache = options.noCache ? undefined : new ResponseCache(path.join(cacheRoot, `cache-${++cacheDirs}`));
  const provider = new OpenAIProvider({ apiKey: 'sk-test', baseURL: server.openaiBaseUrl });
  const make = () => createModelClient({
    key: 'openai:gpt-4o-mini', provider, model: 'gpt-4o-mini', parameters: {}, cache,
    scheduler: new Scheduler({ concurrency: 8, maxRetries: 0, timeoutMs: 60_000 }),
  });
  return [make(), make()] as const;
}

describe('single-flight: identical requests in flight share one call', () => {
  it('sends two identical requests made at once as one HTTP request; the second counts as a cache hit that cost nothing', async () => {
    server.addRule({ match: { contains: 'shared question' }, reply: 'one answer', fault: { kind: 'slow', ms: 100 } });
    const [first, second] = runClients();
    const [a, b] = await Promise.all([
      first.complete({ messages: question('shared question') }, new AbortController().signal),
      second.complete({ messages: question('shared question') }, new AbortController().signal),
    ]);
    assert.equal(caseRequests(server.requests).length, 1);
    assert.equal(a.text, 'one answer');
    assert.equal(b.text, 'one answer');
    assert.equal(a.cached, false);
    assert.equal(b.cached, true);
    assert.equal(b.costUsd, 0);
    assert.deepEqual(first.counters, { requests: 1, providerCalls: 1, cacheHits: 0, failures: 0, failedAttemptTokens: { inputTokens: 0, outputTokens: 0 }, failedAttemptCostUsd: 0 });
    assert.deepEqual(second.counters, { requests: 0, providerCalls: 0, cacheHits: 1, failures: 0, failedAttemptTokens: { inputTokens: 0, outputTokens: 0 }, failedAttemptCostUsd: 0 });
  });

  it('still sends requests that differ, and shares nothing with --no-cache (every request goes to the model)', async () => {
    const [first, second] = runClients();
    await Promise.all([
      first.complete({ messages: question('question one') }, new AbortController().signal),
      second.complete({ messages: question('question two') }, new AbortController().signal),
    ]);
    assert.equal(caseRequests(server.requests).length, 2);
    const [third, fourth] = runClients({ noCache: true });
    await Promise.all([
      third.complete({ messages: question('question one') }, new AbortController().signal),
      fourth.complete({ messages: question('question one') }, new AbortController().signal),
    ]);
    assert.equal(caseRequests(server.requests).length, 4);
  });

  it('one waiter cancelling leaves the call running for the other', async () => {
    server.addRule({ match: { contains: 'cancel one' }, reply: 'kept', fault: { kind: 'slow', ms: 200 } });
    const [first, second] = runClients();
    const cancelled = new AbortController();
    const a = first.complete({ messages: question('cancel one') }, cancelled.signal);
    const b = second.complete({ messages: question('cancel one') }, new AbortController().signal);
    await waitFor(() => (caseRequests(server.requests).length === 1 ? true : undefined), 'the request to arrive');
    cancelled.abort();
    await assert.rejects(a, (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
    assert.equal((await b).text, 'kept');
    const [request] = caseRequests(server.requests);
    assert.equal(request?.clientClosed, undefined);
    assert.equal(request?.reply?.status, 200);
    assert.equal(caseRequests(server.requests).length, 1);
  });

  it('aborts the call once every waiter has cancelled', async () => {
    server.addRule({ match: { contains: 'cancel both' }, fault: { kind: 'hang' } });
    const [first, second] = runClients();
    const one = new AbortController();
    const two = new AbortController();
    const a = first.complete({ messages: question('cancel both') }, one.signal);
    const b = second.complete({ messages: question('cancel both') }, two.signal);
    await waitFor(() => (caseRequests(server.requests).length === 1 ? true : undefined), 'the request to arrive');
    one.abort();
    await assert.rejects(a, (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
    two.abort();
    await assert.rejects(b, (error: unknown) => error instanceof ProviderError && error.kind === 'cancelled');
    await waitFor(() => (caseRequests(server.requests)[0]?.clientClosed ? true : undefined), 'the server to see the request closed');
  });

  it('gives the error of the shared call to both waiters, and caches nothing: the next request is sent', async () => {
    server.addRule({ match: { contains: 'failing question' }, fault: { kind: 'status', status: 400, body: { error: { message: 'bad request from the fixture' } } }, times: 1 });
    server.addRule({ match: { contains: 'failing question' }, reply: 'fine now' });
    const [first, second] = runClients();
    const results = await Promise.allSettled([
      first.complete({ messages: question('failing question') }, new AbortController().signal),
      second.complete({ messages: question('failing question') }, new AbortController().signal),
    ]);
    assert.equal(caseRequests(server.requests).length, 1);
    assert.equal(results[0].status, 'rejected');
    assert.equal(results[1].status, 'rejected');
    assert.equal((results[0] as PromiseRejectedResult).reason, (results[1] as PromiseRejectedResult).reason);
    assert.match(String((results[0] as PromiseRejectedResult).reason), /bad request from the fixture/);
    const again = await first.complete({ messages: question('failing question') }, new AbortController().signal);
    assert.equal(again.text, 'fine now');
    assert.equal(caseRequests(server.requests).length, 2);
  });
});
