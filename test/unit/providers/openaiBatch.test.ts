// The OpenAI Batch API client through the real openai SDK over HTTP to the fixture server's batch endpoints.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OpenAIBatchClient, splitIntoFiles } from '../../../src/core/providers/openaiBatch.js';
import type { BatchItem, BatchProgress, SubmittedBatch } from '../../../src/core/providers/batch.js';
import { collect } from '../data/tempFiles.js';
import { byId } from './batchResults.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-openai-batch-test-0123456789';
let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

function client(limits?: { requests: number; bytes: number }): OpenAIBatchClient {
  return new OpenAIBatchClient({ apiKey: KEY, baseURL: server.openaiBaseUrl }, limits);
}

function item(customId: string, question: string): BatchItem {
  return { customId, request: { model: 'gpt-4o-mini', messages: [{ role: 'user', content: question }], maxTokens: 50 } };
}

const signal = () => new AbortController().signal;


describe('OpenAIBatchClient', () => {
  it('uploads the requests as one JSONL file, submits one batch and reads each result back by custom_id', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ match: { contains: 'capital of France' }, reply: 'Paris' });
    server.addRule({ match: { contains: 'capital of Italy' }, reply: 'Rome' });
    const batchClient = client();
    const submitted = await collect(batchClient.submit([item('c1', 'What is the capital of France?'), item('c2', 'What is the capital of Italy?')], signal()));
    assert.equal(submitted.length, 1);
    assert.deepEqual(submitted[0]?.customIds, ['c1', 'c2']);

    const uploaded = server.batches.files.get(submitted[0]?.inputFileId ?? '');
    assert.equal(uploaded?.purpose, 'batch');
    const lines = (uploaded?.content ?? '').trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string; url: string; body: { model: string; max_tokens: number } });
    assert.deepEqual(lines.map((line) => [line.custom_id, line.url, line.body.model, line.body.max_tokens]), [
      ['c1', '/v1/chat/completions', 'gpt-4o-mini', 50],
      ['c2', '/v1/chat/completions', 'gpt-4o-mini', 50],
    ]);

    const state = await batchClient.waitFor(submitted[0]?.batchId ?? '', { signal: signal(), initialIntervalMs: 1 });
    assert.equal(state, 'completed');
    const results = byId(await collect(batchClient.results(submitted[0]?.batchId ?? '', signal())));
    const c1 = results.get('c1');
    const c2 = results.get('c2');
    assert.ok(c1 && 'response' in c1 && c2 && 'response' in c2);
    assert.equal(c1.response.text, 'Paris');
    assert.equal(c2.response.text, 'Rome');
    assert.equal(c1.response.usage.outputTokens, 1);
    assert.equal(c1.response.cached, false);
    // Nothing went through the interactive endpoint, and the key never reached a stored file.
    assert.equal(server.requests.filter((request) => request.path === '/v1/chat/completions').length, 0);
    assert.ok(!uploaded?.content.includes(KEY));
  });

  it("reports a per-item error with the vendor's reason and still returns the other items", async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ match: { contains: 'broken' }, fault: { kind: 'server_error' } });
    server.addRule({ reply: 'fine' });
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('ok', 'a good question'), item('bad', 'a broken question')], signal()));
    assert.ok(batch);
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 1 }), 'completed');
    const results = byId(await collect(batchClient.results(batch.batchId, signal())));
    const ok = results.get('ok');
    const bad = results.get('bad');
    assert.ok(ok && 'response' in ok);
    assert.equal(ok.response.text, 'fine');
    assert.ok(bad && 'error' in bad);
    assert.match(bad.error, /batch item failed: Scripted server_error/);
    assert.equal(bad.retry, true, 'a server fault may pass: the engine asks once more');
  });

  it('reports request_counts moving while the batch is in progress, then the end', async () => {
    server.setBatchProcessingMs(300);
    const batchClient = client();
    const [batch] = await collect(batchClient.submit(['p1', 'p2', 'p3'].map((id) => item(id, `question ${id}`)), signal()));
    assert.ok(batch);
    const seen: BatchProgress[] = [];
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 40, maxIntervalMs: 40, onProgress: (progress) => seen.push(progress) }), 'completed');
    assert.ok(seen.some((progress) => progress.state === 'pending' && progress.done > 0 && progress.done < 3), `partial progress seen: ${JSON.stringify(seen)}`);
    assert.deepEqual(seen.at(-1), { batchId: batch.batchId, state: 'completed', done: 3, total: 3 });
  });

  it('a batch whose window closed on some items ends expired: answered items are read back, expired ones marked for a retry', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ match: { contains: 'too late' }, fault: { kind: 'batch_expired' } });
    server.addRule({ reply: 'in time' });
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('early', 'in time'), item('late', 'too late')], signal()));
    assert.ok(batch);
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 1 }), 'expired');
    const results = byId(await collect(batchClient.results(batch.batchId, signal())));
    const early = results.get('early');
    assert.ok(early && 'response' in early);
    assert.equal(early.response.text, 'in time');
    assert.deepEqual(results.get('late'), { customId: 'late', error: 'OpenAI batch item expired: This request could not be executed before the completion window expired.', retry: true });
  });

  it('a batch that fails validation ends failed, with no item answered', async () => {
    server.setBatchProcessingMs(0);
    server.batches.failNextBatch('the input file is not valid');
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('v', 'a question')], signal()));
    assert.ok(batch);
    assert.equal(await batchClient.waitFor(batch.batchId, { signal: signal(), initialIntervalMs: 1 }), 'failed');
    assert.deepEqual(await collect(batchClient.results(batch.batchId, signal())), []);
  });

  it('splits the requests over several batches at the request limit, each submitted once', async () => {
    server.setBatchProcessingMs(0);
    const batchClient = client({ requests: 2, bytes: 1024 * 1024 });
    const submitted: SubmittedBatch[] = await collect(batchClient.submit(['a', 'b', 'c', 'd', 'e'].map((id) => item(id, `question ${id}`)), signal()));
    assert.deepEqual(submitted.map((batch) => batch.customIds), [['a', 'b'], ['c', 'd'], ['e']]);
    assert.equal(server.requests.filter((request) => request.method === 'POST' && request.path === '/v1/batches').length, 3);
  });

  it('refuses two items with the same custom_id before uploading anything', async () => {
    await assert.rejects(collect(client().submit([item('x', 'one'), item('x', 'two')], signal())), /appears twice/);
    assert.equal(server.requests.length, 0);
  });

  it('cancels a batch still in progress; it ends cancelled with no results', async () => {
    server.setBatchProcessingMs(60 * 60_000);
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('slow', 'a slow question')], signal()));
    assert.ok(batch);
    assert.equal(await batchClient.state(batch.batchId, signal()), 'pending');
    assert.equal(await batchClient.cancel(batch.batchId, signal()), 'cancelled');
    assert.equal(server.requests.filter((request) => request.path === `/v1/batches/${batch.batchId}/cancel`).length, 1);
    assert.deepEqual(await collect(batchClient.results(batch.batchId, signal())), []);
  });

  it('stops polling when the caller cancels, with a cancellation error', async () => {
    server.setBatchProcessingMs(60 * 60_000);
    const batchClient = client();
    const [batch] = await collect(batchClient.submit([item('wait', 'never answered')], signal()));
    assert.ok(batch);
    const controller = new AbortController();
    const waiting = batchClient.waitFor(batch.batchId, { signal: controller.signal, initialIntervalMs: 10_000 });
    setTimeout(() => controller.abort(), 20);
    await assert.rejects(waiting, (error: Error & { kind?: string }) => error.kind === 'cancelled');
  });
});

describe('splitIntoFiles', () => {
  it('starts a new file at the size limit, counting each newline', () => {
    // Each line is 4 bytes with its newline: 3 fit in 12 bytes, the 4th starts a new file.
    assert.deepEqual(splitIntoFiles(['aaa', 'bbb', 'ccc', 'ddd'], { requests: 100, bytes: 12 }), [['aaa', 'bbb', 'ccc'], ['ddd']]);
  });

  it('gives a line over the size limit a file of its own rather than dropping it', () => {
    assert.deepEqual(splitIntoFiles(['a', 'toolongline', 'b'], { requests: 100, bytes: 4 }), [['a'], ['toolongline'], ['b']]);
  });
});
