// The model client: request building, cache hits that skip the provider and the scheduler, costs, counters, failures.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage, ResponseRecord } from '../../../src/core/model.js';
import { ProviderConfigError, ProviderError } from '../../../src/core/providers/contract.js';
import type { CallOptions, CompletionRequest, Provider } from '../../../src/core/providers/contract.js';
import { ResponseCache } from '../../../src/core/run/cache.js';
import { createModelClient, estimateTokens } from '../../../src/core/run/modelClient.js';
import type { ModelCallEvent, ModelClientOptions } from '../../../src/core/run/modelClient.js';
import { RetriesExhaustedError, Scheduler } from '../../../src/core/run/scheduler.js';

/** A provider that answers by echoing the last message, records every request, and can be told to fail. */
class EchoProvider implements Provider {
  readonly id = 'echo';
  readonly label = 'Echo (test)';
  readonly endpoint = 'http://localhost:9/v1';
  readonly requests: CompletionRequest[] = [];
  failures: ProviderError[] = [];
  block?: Promise<void>;

  async complete(request: CompletionRequest, _options: CallOptions): Promise<ResponseRecord> {
    this.requests.push(request);
    if (this.block) await this.block;
    const failure = this.failures.shift();
    if (failure) throw failure;
    const last = request.messages[request.messages.length - 1]!;
    return { text: `echo: ${last.content}`, usage: { inputTokens: 100, outputTokens: 10 }, latencyMs: 250, cached: false, finishReason: 'stop' };
  }
}

const question = (text: string): ChatMessage[] => [{ role: 'system', content: 'Answer briefly.' }, { role: 'user', content: text }];
const signal = new AbortController().signal;

function newScheduler(): Scheduler {
  return new Scheduler({ concurrency: 1, maxRetries: 2, timeoutMs: 60_000, random: () => 0 });
}

function client(provider: EchoProvider, overrides: Partial<ModelClientOptions> = {}) {
  return createModelClient({ key: 'echo:m1', provider, model: 'm1', parameters: { temperature: 0.2, maxTokens: 50 }, scheduler: newScheduler(), ...overrides });
}

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-client-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createModelClient: requests', () => {
  it('builds the request from the parameters, lets the call override them, and passes vendor extras through', async () => {
    const provider = new EchoProvider();
    const c = client(provider, { parameters: { temperature: 0.2, topP: 0.9, maxTokens: 50, stop: '###', seed: 7, stream: true, refusal: 'strict' } });
    const schema = { name: 'verdict', schema: { type: 'object' } };
    await c.complete({ messages: question('a'), temperature: 0, structuredOutput: schema }, signal);
    assert.deepEqual(provider.requests[0], {
      model: 'm1', messages: question('a'), temperature: 0, topP: 0.9, maxTokens: 50, stop: ['###'], seed: 7, stream: true,
      extra: { refusal: 'strict' }, structuredOutput: schema,
    });
  });

  it('refuses a mistyped parameter before any call, naming the model and the parameter', () => {
    const provider = new EchoProvider();
    assert.throws(() => client(provider, { parameters: { temperature: 'hot' } }), (error: unknown) => {
      assert.ok(error instanceof ProviderConfigError);
      assert.match(error.message, /echo:m1: parameters\.temperature must be a number, got "hot"/);
      return true;
    });
  });

  it('computes the cost from the prices and reports the attempts', async () => {
    const provider = new EchoProvider();
    // The failed attempt reports tokens it spent: counted apart, priced by the same prices.
    provider.failures = [new ProviderError('server', '502 Bad Gateway', { status: 502, usage: { inputTokens: 8, outputTokens: 3 } })];
    const events: ModelCallEvent[] = [];
    const c = client(provider, { prices: (usage) => usage.inputTokens / 4 + usage.outputTokens, onCall: (e) => events.push(e) });
    const response = await c.complete({ messages: question('cost') }, signal);
    assert.equal(response.attempts, 2);
    assert.equal(response.costUsd, 35);
    assert.equal(response.cached, false);
    assert.deepEqual(events.map((e) => e.type), ['retry', 'success']);
    assert.deepEqual(c.counters, { requests: 1, providerCalls: 2, cacheHits: 0, failures: 0, failedAttemptTokens: { inputTokens: 8, outputTokens: 3 }, failedAttemptCostUsd: 5 });
  });
});

describe('createModelClient: cache', () => {
  it('makes zero provider calls when an unchanged eval reruns', async () => {
    const cache = new ResponseCache(path.join(root, 'rerun'));
    const prompts = ['one', 'two', 'three'].map(question);
    const firstProvider = new EchoProvider();
    const first = client(firstProvider, { cache });
    const firstAnswers = [];
    for (const messages of prompts) firstAnswers.push(await first.complete({ messages }, signal));
    assert.equal(firstProvider.requests.length, 3);

    const secondProvider = new EchoProvider();
    const second = client(secondProvider, { cache, parameters: { maxTokens: 50, temperature: 0.2 } });
    for (const [i, messages] of prompts.entries()) {
      const answer = await second.complete({ messages }, signal);
      assert.equal(answer.text, firstAnswers[i]!.text);
      assert.equal(answer.cached, true);
      assert.equal(answer.attempts, 1);
      assert.equal(answer.costUsd, 0);
    }
    assert.equal(secondProvider.requests.length, 0);
    assert.deepEqual(second.counters, { requests: 0, providerCalls: 0, cacheHits: 3, failures: 0, failedAttemptTokens: { inputTokens: 0, outputTokens: 0 }, failedAttemptCostUsd: 0 });
  });

  it('misses when anything in the request changes, but not when only streaming does', async () => {
    const cache = new ResponseCache(path.join(root, 'changes'));
    const provider = new EchoProvider();
    await client(provider, { cache }).complete({ messages: question('q') }, signal);
    await client(provider, { cache, parameters: { temperature: 0.2, maxTokens: 50, stream: true } }).complete({ messages: question('q') }, signal);
    assert.equal(provider.requests.length, 1);
    await client(provider, { cache }).complete({ messages: question('q'), temperature: 1 }, signal);
    await client(provider, { cache, model: 'm2' }).complete({ messages: question('q') }, signal);
    assert.equal(provider.requests.length, 3);
  });

  it('answers a hit without taking a scheduler slot', async () => {
    const cache = new ResponseCache(path.join(root, 'slot'));
    const provider = new EchoProvider();
    const scheduler = newScheduler();
    const c = client(provider, { cache, scheduler });
    await c.complete({ messages: question('cached') }, signal);
    let unblock!: () => void;
    provider.block = new Promise((resolve) => { unblock = resolve; });
    const busy = c.complete({ messages: question('slow') }, signal);
    const hit = await c.complete({ messages: question('cached') }, signal);
    assert.equal(hit.cached, true);
    assert.equal(scheduler.stats.inFlight, 1);
    unblock();
    await busy;
  });

  it('refuses a call whose signal is already aborted, even when the cache could answer', async () => {
    const cache = new ResponseCache(path.join(root, 'aborted'));
    const provider = new EchoProvider();
    const c = client(provider, { cache });
    await c.complete({ messages: question('q') }, signal);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(c.complete({ messages: question('q') }, controller.signal), (e: unknown) => e instanceof ProviderError && e.kind === 'cancelled');
    assert.equal(c.counters.cacheHits, 0);
  });

  it('never caches a failure: the next call asks the provider again', async () => {
    const cache = new ResponseCache(path.join(root, 'failure'));
    const provider = new EchoProvider();
    provider.failures = [new ProviderError('server', '503', { status: 503 }), new ProviderError('server', '503', { status: 503 }), new ProviderError('server', '503', { status: 503 })];
    const events: ModelCallEvent[] = [];
    const c = client(provider, { cache, onCall: (e) => events.push(e) });
    const error = await c.complete({ messages: question('q') }, signal).catch((e: unknown) => e);
    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.attempts, 3);
    assert.deepEqual(events.at(-1), { type: 'failure', modelKey: 'echo:m1', attempts: 3, error });
    const answer = await c.complete({ messages: question('q') }, signal);
    assert.equal(answer.cached, false);
    assert.deepEqual(c.counters, { requests: 2, providerCalls: 4, cacheHits: 0, failures: 1, failedAttemptTokens: { inputTokens: 0, outputTokens: 0 }, failedAttemptCostUsd: 0 });
  });

  it('still answers when the cache cannot be written, and says so', async () => {
    const cache = new ResponseCache(path.join(root, 'readonly'));
    cache.set = async () => {
      throw new Error('EROFS: read-only file system');
    };
    const events: ModelCallEvent[] = [];
    const answer = await client(new EchoProvider(), { cache, onCall: (e) => events.push(e) }).complete({ messages: question('q') }, signal);
    assert.equal(answer.text, 'echo: q');
    assert.ok(events.some((e) => e.type === 'cache-write-failed'));
  });
});

describe('estimateTokens', () => {
  it('counts about four characters per token plus framing per message', () => {
    assert.equal(estimateTokens([{ role: 'user', content: 'x'.repeat(400) }]), 104);
    assert.equal(estimateTokens(question('abcd')), Math.ceil(19 / 4) + 8);
    assert.equal(estimateTokens([]), 0);
  });
});
