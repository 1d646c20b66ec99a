// Batch mode on a case's one path: the model client (cache first) over the batching provider, through the real openai
// SDK over HTTP to the fixture server's batch endpoints.
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { AnthropicBatchClient } from '../../../src/core/providers/anthropicBatch.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { OpenAIBatchClient } from '../../../src/core/providers/openaiBatch.js';
import type { BatchClient, SubmittedBatch } from '../../../src/core/providers/batch.js';
import { BatchingProvider } from '../../../src/core/run/batchingProvider.js';
import { ResponseCache } from '../../../src/core/run/cache.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';

const KEY = 'sk-openai-batch-test-0123456789';
let server: FixtureServer;
let cacheRoot: string;

useFixtureServer((started) => {
  server = started;
});

before(async () => {
  cacheRoot = await mkdtemp(path.join(tmpdir(), 'rag-batching-'));
});

after(async () => {
  await rm(cacheRoot, { recursive: true, force: true });
});

interface Setup {
  runSignal: AbortSignal;
  backend?: BatchClient;
  resumed?: SubmittedBatch[];
  cacheDir?: string;
  vendor?: 'openai' | 'anthropic';
}

function batchingClient(setup: Setup) {
  const anthropic = setup.vendor === 'anthropic';
  const interactive = anthropic ? new AnthropicProvider({ apiKey: KEY, baseURL: server.anthropicBaseUrl }) : new OpenAIProvider({ apiKey: KEY, baseURL: server.openaiBaseUrl });
  const submitted: SubmittedBatch[] = [];
  const provider = new BatchingProvider({
    provider: interactive,
    backend: setup.backend ?? (anthropic ? new AnthropicBatchClient({ apiKey: KEY, baseURL: server.anthropicBaseUrl }) : new OpenAIBatchClient({ apiKey: KEY, baseURL: server.openaiBaseUrl })),
    runSignal: setup.runSignal,
    idleMs: 20,
    poll: { initialIntervalMs: 5, maxIntervalMs: 20 },
    onSubmitted: (batch) => submitted.push(batch),
    resumed: setup.resumed,
  });
  const cache = setup.cacheDir ? new ResponseCache(setup.cacheDir) : undefined;
  const scheduler = new Scheduler({ concurrency: 1000, maxRetries: 0, timeoutMs: 24 * 60 * 60_000 });
  const client = createModelClient({ key: 'openai:gpt-4o-mini', provider, model: 'gpt-4o-mini', parameters: {}, scheduler, cache });
  return { client, submitted, cache };
}

const ask = (question: string) => ({ messages: [{ role: 'user' as const, content: question }] });

function posts(pathname: string): number {
  return server.requests.filter((request) => request.method === 'POST' && request.path === pathname).length;
}

function uploadedCustomIds(batch: SubmittedBatch | undefined): string[] {
  const file = server.batches.files.get(batch?.inputFileId ?? '');
  return (file?.content ?? '').trim().split('\n').map((line) => (JSON.parse(line) as { custom_id: string }).custom_id);
}

describe('BatchingProvider', () => {
  it('sends the calls that arrive together as one batch; cached and repeated requests are not sent again', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
    const cacheDir = path.join(cacheRoot, 'mixed');
    const first = batchingClient({ runSignal: new AbortController().signal, cacheDir });
    // A first batch fills the cache with one answer.
    assert.equal((await first.client.complete(ask('q0'), new AbortController().signal)).text, 'answer to q0');
    server.requests.length = 0;

    const second = batchingClient({ runSignal: new AbortController().signal, cacheDir });
    const signal = new AbortController().signal;
    const answers = await Promise.all(['q0', 'q1', 'q2', 'q1'].map((question) => second.client.complete(ask(question), signal)));
    assert.deepEqual(answers.map((answer) => answer.text), ['answer to q0', 'answer to q1', 'answer to q2', 'answer to q1']);
    assert.equal(answers[0]?.cached, true);
    assert.equal(posts('/v1/batches'), 1);
    assert.equal(posts('/v1/chat/completions'), 0);
    // q0 came from the cache and q1 was asked twice: the file holds q1 and q2 once each.
    assert.equal(second.submitted.length, 1);
    assert.equal(uploadedCustomIds(second.submitted[0]).length, 2);
    assert.deepEqual(uploadedCustomIds(second.submitted[0]), second.submitted[0]?.customIds);

    // The batch's answers went into the cache: asking again sends nothing.
    server.requests.length = 0;
    const third = batchingClient({ runSignal: new AbortController().signal, cacheDir });
    assert.equal((await third.client.complete(ask('q2'), signal)).cached, true);
    assert.equal(server.requests.length, 0);
  });

  it('calls that stream in over a while are one wave even across a pause longer than idleMs; a short burst goes after idleMs', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
    const streamed = batchingClient({ runSignal: new AbortController().signal });
    const signal = new AbortController().signal;
    const answers: Promise<unknown>[] = [];
    // 30 calls at least 10 ms apart (300 ms of arrivals), a 40 ms pause (twice idleMs, well under half the stream's age), 5 more.
    for (let i = 0; i < 35; i++) {
      answers.push(streamed.client.complete(ask(`s${i}`), signal));
      await new Promise((resolve) => setTimeout(resolve, i === 29 ? 40 : 10));
    }
    await Promise.all(answers);
    assert.deepEqual(streamed.submitted.map((batch) => batch.customIds.length), [35]);

    // A burst, a pause of three times idleMs, another burst: two waves, the first not held back.
    const burst = batchingClient({ runSignal: new AbortController().signal });
    const first = Promise.all(['b0', 'b1'].map((question) => burst.client.complete(ask(question), signal)));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await Promise.all([first, burst.client.complete(ask('b2'), signal)]);
    assert.deepEqual(burst.submitted.map((batch) => batch.customIds.length), [2, 1]);
  });

  it('a batch API call that may be repeated (upload, poll) is tried again after a server fault; a failed create is not repeated', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
    const signal = new AbortController().signal;
    // The create fails: its wave's calls get the error, and it is not sent again (it might have created a batch).
    server.batches.faultNextRequests(1, 500, '/v1/batches');
    const refused = batchingClient({ runSignal: new AbortController().signal });
    await assert.rejects(refused.client.complete(ask('f1'), signal), /500/);
    assert.equal(posts('/v1/batches'), 1, 'the create was sent once');
    assert.equal(refused.submitted.length, 0);

    // The upload fails once, then each of the batch's first two polls: each is asked again, and the call is answered.
    server.requests.length = 0;
    server.batches.faultNextRequests(1, 503, '/v1/files');
    server.batches.faultNextRequests(2, 502, '/v1/batches/');
    const retried = batchingClient({ runSignal: new AbortController().signal });
    const first = await retried.client.complete(ask('f2'), signal);
    assert.equal(first.text, 'answer to f2');
    assert.equal(posts('/v1/files'), 2, 'the upload was sent again after its 503');
    assert.equal(posts('/v1/batches'), 1);
    assert.ok(server.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/v1/batches/')).length >= 3, 'the polls that met a 502 were asked again');
  });

  it('a process that dies after submitting leaves a batch the next one collects without submitting again', async () => {
    server.setBatchProcessingMs(60 * 60_000);
    server.addRule({ reply: (request) => `late answer to ${request.lastUserMessage}` });
    const realBackend = new OpenAIBatchClient({ apiKey: KEY, baseURL: server.openaiBaseUrl });
    // The first process submits, then is gone before its first poll (a crash, not a cancel: nothing is cancelled).
    const dying: BatchClient = { ...bind(realBackend), waitFor: () => Promise.reject(new Error('process killed')) };
    const first = batchingClient({ runSignal: new AbortController().signal, backend: dying });
    await assert.rejects(Promise.all([first.client.complete(ask('k1'), new AbortController().signal), first.client.complete(ask('k2'), new AbortController().signal)]), /process killed/);
    assert.equal(first.submitted.length, 1);
    assert.equal(posts('/v1/batches'), 1);

    server.setBatchProcessingMs(0);
    const second = batchingClient({ runSignal: new AbortController().signal, resumed: first.submitted });
    const signal = new AbortController().signal;
    // The resumed run reaches its cases one at a time; the second is answered from the batch already read.
    assert.equal((await second.client.complete(ask('k1'), signal)).text, 'late answer to k1');
    assert.equal((await second.client.complete(ask('k2'), signal)).text, 'late answer to k2');
    assert.equal(second.submitted.length, 0);
    assert.equal(posts('/v1/batches'), 1);
    assert.equal(posts('/v1/files'), 1);
  });

  it('cancelling the run cancels the remote batch and the waiting calls end cancelled', async () => {
    server.setBatchProcessingMs(60 * 60_000);
    const run = new AbortController();
    const { client, submitted } = batchingClient({ runSignal: run.signal });
    const waiting = client.complete(ask('never'), run.signal);
    while (submitted.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    run.abort();
    await assert.rejects(waiting, (error: Error & { kind?: string }) => error.kind === 'cancelled');
    const batchId = submitted[0]?.batchId ?? '';
    while (posts(`/v1/batches/${batchId}/cancel`) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal(server.batches.batches.get(batchId)?.status, 'cancelled');
  });

  it("records a failed item as that call's error with the vendor's reason", async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ match: { contains: 'broken' }, fault: { kind: 'server_error' } });
    const { client } = batchingClient({ runSignal: new AbortController().signal });
    await assert.rejects(client.complete(ask('a broken question'), new AbortController().signal), /batch item failed: Scripted server_error/);
  });

  for (const vendor of ['openai', 'anthropic'] as const) {
    const interactivePath = vendor === 'anthropic' ? '/v1/messages' : '/v1/chat/completions';
    const batchPath = vendor === 'anthropic' ? '/v1/messages/batches' : '/v1/batches';

    it(`${vendor}: expired and transiently failed items are asked once more interactively; each caller gets one answer`, async () => {
      server.setBatchProcessingMs(0);
      // The batch meets each fault once; the interactive call that follows is answered.
      server.addRule({ match: { contains: 'expires' }, fault: { kind: 'batch_expired' }, times: 1 });
      server.addRule({ match: { contains: 'busy' }, fault: { kind: 'server_error', status: 503 }, times: 1 });
      server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
      const { client, submitted } = batchingClient({ runSignal: new AbortController().signal, vendor });
      const signal = new AbortController().signal;
      const answers = await Promise.all(['fine', 'expires', 'busy', 'expires'].map((question) => client.complete(ask(question), signal)));
      assert.deepEqual(answers.map((answer) => answer.text), ['answer to fine', 'answer to expires', 'answer to busy', 'answer to expires']);
      assert.equal(submitted.length, 1);
      assert.equal(posts(batchPath), 1, 'never resubmitted');
      // One interactive call per unanswered item, none for the answered one or the repeated request.
      const retried = server.requests.filter((request) => request.method === 'POST' && request.path === interactivePath).map((request) => request.lastUserMessage).sort();
      assert.deepEqual(retried, ['busy', 'expires']);
    });

    it(`${vendor}: an item whose interactive retry fails too is that call's error, with the vendor's reason for both`, async () => {
      server.setBatchProcessingMs(0);
      server.addRule({ match: { contains: 'expires' }, fault: { kind: 'batch_expired' }, times: 1 });
      server.addRule({ match: { contains: 'expires' }, fault: { kind: 'status', status: 400 } });
      const { client } = batchingClient({ runSignal: new AbortController().signal, vendor });
      await assert.rejects(client.complete(ask('expires'), new AbortController().signal), (error: Error & { kind?: string }) => {
        assert.match(error.message, /batch item expired: .*; asked again interactively: .*HTTP 400/);
        assert.equal(error.kind, 'bad_request');
        return true;
      });
      assert.equal(posts(interactivePath), 1, 'retried once, not more');
    });

    it(`${vendor}: an item the vendor refused is not retried: its error carries the vendor's reason`, async () => {
      server.setBatchProcessingMs(0);
      server.addRule({ match: { contains: 'refused' }, fault: { kind: 'status', status: 400 } });
      const { client } = batchingClient({ runSignal: new AbortController().signal, vendor });
      await assert.rejects(client.complete(ask('refused'), new AbortController().signal), /batch item failed: Scripted status/);
      assert.equal(posts(interactivePath), 0);
    });
  }

  it('anthropic: a run cancelled mid-batch, then resumed, keeps the processed items and sends only the rest again', async () => {
    // Four items over 2 s, one each 500 ms: the run is cancelled once two are processed, well before the last.
    server.setBatchProcessingMs(2_000);
    server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
    const questions = ['m1', 'm2', 'm3', 'm4'];
    const run = new AbortController();
    const first = batchingClient({ runSignal: run.signal, vendor: 'anthropic' });
    const waiting = Promise.allSettled(questions.map((question) => first.client.complete(ask(question), run.signal)));
    await waitFor(() => {
      const batch = [...server.messageBatches.batches.values()].at(-1);
      return batch && batch.counts.succeeded >= 2 ? batch : undefined;
    }, 'two items processed');
    run.abort();
    assert.ok((await waiting).every((outcome) => outcome.status === 'rejected'));
    const [cancelled] = first.submitted;
    assert.ok(cancelled);
    await waitFor(() => (posts(`/v1/messages/batches/${cancelled.batchId}/cancel`) > 0 ? true : undefined), 'the cancel');

    const second = batchingClient({ runSignal: new AbortController().signal, vendor: 'anthropic', resumed: first.submitted });
    const signal = new AbortController().signal;
    const answers = await Promise.all(questions.map((question) => second.client.complete(ask(question), signal)));
    assert.deepEqual(answers.map((answer) => answer.text), questions.map((question) => `answer to ${question}`));
    const counts = server.messageBatches.batches.get(cancelled.batchId)?.counts;
    assert.equal((counts?.succeeded ?? 0) + (counts?.canceled ?? 0), 4);
    // Only the canceled items went out again, in one new batch; nothing interactively.
    assert.equal(second.submitted.length, 1);
    assert.equal(second.submitted[0]?.customIds.length, counts?.canceled);
    assert.equal(posts('/v1/messages/batches'), 2);
    assert.equal(posts('/v1/messages'), 0);
  });

  it('a run cancelled while its batch is being created still records that batch, then cancels it at the vendor', async () => {
    server.setBatchProcessingMs(60 * 60_000);
    const real = new AnthropicBatchClient({ apiKey: KEY, baseURL: server.anthropicBaseUrl });
    const run = new AbortController();
    // The create is under way when the run is cancelled (a slow upload, a slow vendor).
    const slowCreate: BatchClient = {
      ...bind(real),
      submit: async function* (items, signal) {
        run.abort();
        yield* real.submit(items, signal);
      },
    };
    const { client, submitted } = batchingClient({ runSignal: run.signal, vendor: 'anthropic', backend: slowCreate });
    await assert.rejects(client.complete(ask('cut short'), new AbortController().signal), (error: Error & { kind?: string }) => error.kind === 'cancelled');
    assert.equal(submitted.length, 1, 'the batch the vendor created is recorded');
    const batchId = submitted[0]?.batchId ?? '';
    await waitFor(() => (posts(`/v1/messages/batches/${batchId}/cancel`) > 0 ? true : undefined), 'the cancel of the recorded batch');
  });

  it('anthropic: a wave over the (lowered) batch limit goes out as several batches, each recorded and collected', async () => {
    server.setBatchProcessingMs(0);
    server.addRule({ reply: (request) => `answer to ${request.lastUserMessage}` });
    const backend = new AnthropicBatchClient({ apiKey: KEY, baseURL: server.anthropicBaseUrl }, { requests: 2, bytes: 1024 * 1024 });
    const { client, submitted } = batchingClient({ runSignal: new AbortController().signal, vendor: 'anthropic', backend });
    const signal = new AbortController().signal;
    const answers = await Promise.all(['s1', 's2', 's3', 's4', 's5'].map((question) => client.complete(ask(question), signal)));
    assert.deepEqual(answers.map((answer) => answer.text), ['answer to s1', 'answer to s2', 'answer to s3', 'answer to s4', 'answer to s5']);
    assert.deepEqual(submitted.map((batch) => batch.customIds.length), [2, 2, 1]);
    assert.equal(posts('/v1/messages/batches'), 3);
    assert.equal(posts('/v1/messages'), 0);
  });

  it('an OpenAI batch that failed validation ends its requests as errors with the reason, never resubmitted', async () => {
    server.setBatchProcessingMs(0);
    server.batches.failNextBatch('the input file is not valid');
    const { client } = batchingClient({ runSignal: new AbortController().signal });
    await assert.rejects(client.complete(ask('anything'), new AbortController().signal), /batch .* failed at the vendor/);
    assert.equal(posts('/v1/batches'), 1);
    assert.equal(posts('/v1/chat/completions'), 0);
  });
});

function bind(client: BatchClient): BatchClient {
  return {
    submit: (items, signal) => client.submit(items, signal),
    waitFor: (id, options) => client.waitFor(id, options),
    results: (id, signal) => client.results(id, signal),
    cancel: (id, signal) => client.cancel(id, signal),
  };
}
