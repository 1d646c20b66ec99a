// Anthropic's Message Batches client through the real @anthropic-ai/sdk over HTTP to the fixture server's batch endpoints.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Anthropic } from '@anthropic-ai/sdk';
import { AnthropicBatchClient } from '../../../src/core/providers/anthropicBatch.js';
import type { BatchItem, BatchProgress, SubmittedBatch } from '../../../src/core/providers/batch.js';
import { collect } from '../data/tempFiles.js';
import { byId } from './batchResults.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-ant-batch-test-0123456789';
let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

function client(limits?: { requests: number; bytes: number }): AnthropicBatchClient {
  return new AnthropicBatchClient({ apiKey: KEY, baseURL: server.anthropicBaseUrl }, limits);
}

function item(customId: string, question: string, extra: Partial<BatchItem['request']> = {}): BatchItem {
  return { customId, request: { model: 'claude-haiku-4-5', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: question }], maxTokens: 50, ...extra } };
}

const signal = () => new AbortController().signal;


const posts = (pathname: string) => server.requests.filter((request) => request.method === 'POST' && request.path === pathname).length;

describe('AnthropicBatchClient', () => {
  it('submits the requests inline as one batch, reports progress while it runs, and reads each result back by custom_id', async () => {
    server.setBatchProcessingMs(300);
    server.addRule({ match: { contains: 'capital of France' }, reply: 'Paris' });
    server.addRule({ match: { contains: 'capital of Italy' }, reply: 'Rome' });
    server.addRule({ match: { contains: 'as JSON' }, reply: '{"verdict":"yes"}' });
    const batchClient = client();
    const structured = item('c3', 'Answer as JSON', { structuredOutput: { name: 'verdict', schema: { type: 'object', properties: { verdict: { type: 'string' } } } } });
    const submitted = await collect(batchClient.submit([item('c1', 'What is the capital of France?'), item('c2', 'What is the capital of Italy?'), structured], signal()));
    assert.equal(submitted.length, 1);
    assert.deepEqual(submitted[0]?.customIds, ['c1', 'c2', 'c3']);
    assert.equal(submitted[0]?.inputFileId, undefined);

    // The wire body: the same Messages body an interactive call sends, system apart, under each custom_id.
    const create = server.requests.find((request) => request.method === 'POST' && request.path === '/v1/messages/batches');
    const requests = (create?.body as { requests: { custom_id: string; params: { model: string; max_tokens: number; system?: string; tool_choice?: unknown } }[] }).requests;
    assert.deepEqual(requests.map((request) => [request.custom_id, request.params.model, request.params.max_tokens, request.params.system]), [
      ['c1', 'claude-haiku-4-5', 50, 'Be brief.'],
      ['c2', 'claude-haiku-4-5', 50, 'Be brief.'],
      ['c3', 'claude-haiku-4-5', 50, 'Be brief.'],
    ]);
    assert.deepEqual(requests[2]?.params.tool_choice, { type: 'tool', name: 'verdict' });
    const headers = create?.headers ?? {};
    assert.ok(headers.authorization === `Bearer ${KEY}` || headers['x-api-key'] === KEY, 'the key is sent as Bearer or x-api-key');

    const seen: BatchProgress[] = [];
    const state = await batchClient.waitFor(submitted[0]?.batchId ?? '', { signal: signal(), initialIntervalMs: 40, maxIntervalMs: 40, onProgress: (progress) => seen.push(progress) });
    assert.equal(state, 'completed');
    assert.ok(seen.length >= 3, `polled ${seen.length} times`);
    assert.equal(seen[0]?.total, 3);
    assert.ok(seen.some((progress) => progress.state === 'pending' && progress.done > 0 && progress.done < 3), `partial progress seen: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.at(-1), { batchId: submitted[0]?.batchId, state: 'completed', done: 3, total: 3 });

    const results = byId(await collect(batchClient.results(submitted[0]?.batchId ?? '', signal())));
    const [c1, c2, c3] = ['c1', 'c2', 'c3'].map((id) => results.get(id));
    assert.ok(c1 && 'response' in c1 && c2 && 'response' in c2 && c3 && 'response' in c3);
    assert.equal(c1.response.text, 'Paris');
    assert.equal(c2.response.text, 'Rome');
    assert.equal(c3.response.text, '{"verdict":"yes"}', 'the forced tool input, as an interactive call reads it');
    assert.equal(c1.response.finishReason, 'end_turn');
    assert.equal(c1.response.usage.outputTokens, 1);
    assert.equal(c1.response.cached, false);
    assert.equal(posts('/v1/messages'), 0, 'nothing went through the interactive endpoint');
  });

  it("reports errored items with the vendor's reason (transient ones marked for a retry) and expired items as retryable", async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ match: { contains: 'refused' }, fault: { kind: 'status', status: 400 } });
    server.addRule({ match: { contains: 'overloaded' }, fault: { kind: 'status', status: 529 } });
    server.addRule({ match: { contains: 'too late' }, fault: { kind: 'batch_expired' } });
    server.addRule({ reply: 'fine' });
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('ok', 'a good question'), item('bad', 'a refused question'), item('busy', 'an overloaded question'), item('late', 'too late')], signal()));
    assert.ok(batch);
    const seen: BatchProgress[] = [];
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 1, onProgress: (progress) => seen.push(progress) }), 'completed');
    assert.deepEqual(server.messageBatches.batches.get(batch.batchId)?.counts, { processing: 0, succeeded: 1, errored: 2, canceled: 0, expired: 1 });
    assert.equal(seen.at(-1)?.done, 4);
    const results = byId(await collect(batchClient.results(batch.batchId, signal())));
    const ok = results.get('ok');
    assert.ok(ok && 'response' in ok);
    assert.equal(ok.response.text, 'fine');
    assert.deepEqual(results.get('bad'), { customId: 'bad', error: 'Anthropic batch item failed: Scripted status (invalid_request_error)' });
    assert.deepEqual(results.get('busy'), { customId: 'busy', error: 'Anthropic batch item failed: Scripted status (overloaded_error)', retry: true });
    assert.deepEqual(results.get('late'), { customId: 'late', error: "Anthropic batch item expired: the batch's 24-hour window closed before it was processed", retry: true });
  });

  it('splits the requests over several batches at the request and size limits, each submitted once', async () => {
    server.setBatchProcessingMs(0);
    const byCount: SubmittedBatch[] = await collect(client({ requests: 2, bytes: 1024 * 1024 }).submit(['a', 'b', 'c', 'd', 'e'].map((id) => item(id, `question ${id}`)), signal()));
    assert.deepEqual(byCount.map((batch) => batch.customIds), [['a', 'b'], ['c', 'd'], ['e']]);
    assert.equal(posts('/v1/messages/batches'), 3);
    // One request's JSON is about 145 bytes: a 400-byte limit holds two of them.
    const bySize: SubmittedBatch[] = await collect(client({ requests: 100, bytes: 400 }).submit(['f', 'g', 'h'].map((id) => item(id, `question ${id}`)), signal()));
    assert.deepEqual(bySize.map((batch) => batch.customIds), [['f', 'g'], ['h']]);
    assert.equal(posts('/v1/messages/batches'), 5);
  });

  it('refuses two items with the same custom_id before sending anything', async () => {
    await assert.rejects(collect(client().submit([item('x', 'one'), item('x', 'two')], signal())), /appears twice/);
    assert.equal(server.requests.length, 0);
  });

  it('cancels a batch in progress: it ends cancelled, keeps what was processed and returns no result for the rest', async () => {
    // Four items over an hour: none processed yet when the cancel arrives.
    server.setBatchProcessingMs(60 * 60_000);
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('slow1', 'a slow question'), item('slow2', 'another slow question')], signal()));
    assert.ok(batch);
    assert.equal(await batchClient.state(batch.batchId, signal()), 'pending');
    assert.equal(await batchClient.cancel(batch.batchId, signal()), 'pending', 'canceling until the vendor has stopped it');
    assert.equal(posts(`/v1/messages/batches/${batch.batchId}/cancel`), 1);
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 1 }), 'cancelled');
    assert.deepEqual(server.messageBatches.batches.get(batch.batchId)?.counts, { processing: 0, succeeded: 0, errored: 0, canceled: 2, expired: 0 });
    assert.deepEqual(await collect(batchClient.results(batch.batchId, signal())), []);
  });

  it("the fixture's list endpoint answers the SDK's paginated list, newest first", async () => {
    server.setBatchProcessingMs(0);
    const batchClient = client();
    const first = (await collect(batchClient.submit([item('l1', 'one')], signal())))[0];
    const second = (await collect(batchClient.submit([item('l2', 'two')], signal())))[0];
    const sdk = new Anthropic({ apiKey: KEY, baseURL: server.anthropicBaseUrl, maxRetries: 0 });
    const listed: string[] = [];
    for await (const batch of sdk.messages.batches.list()) listed.push(batch.id);
    // Earlier tests' batches follow: the server lives through the file.
    assert.deepEqual(listed.slice(0, 2), [second?.batchId, first?.batchId]);
    assert.equal(listed.length, server.messageBatches.batches.size);
  });
});
