// Scheduler behaviour: concurrency, FIFO, retries, AIMD on 429, timeouts, rate limits and prompt cancellation.
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { describe, it } from 'node:test';
import { ProviderConfigError, ProviderError } from '../../../src/core/providers/contract.js';
import { attemptsOf, RetriesExhaustedError, Scheduler } from '../../../src/core/run/scheduler.js';
import type { RetryInfo, SchedulerOptions } from '../../../src/core/run/scheduler.js';
import { FakeClock, settle } from './fakeClock.js';

/** A call the test finishes by hand; it honours its signal the way a well-behaved provider does. */
interface Pending {
  id: number;
  signal: AbortSignal;
  resolve(value: string): void;
  reject(error: unknown): void;
}

class ManualCalls {
  readonly started: Pending[] = [];

  call(id: number): (signal: AbortSignal) => Promise<string> {
    return (signal) =>
      new Promise<string>((resolve, reject) => {
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
        this.started.push({ id, signal, resolve, reject });
      });
  }
}

function scheduler(overrides: Partial<SchedulerOptions> = {}): Scheduler {
  return new Scheduler({ concurrency: 2, maxRetries: 3, timeoutMs: 60_000, random: () => 0, ...overrides });
}

function rateLimit(retryAfterMs?: number): ProviderError {
  return new ProviderError('rate_limit', '429 Too Many Requests', { status: 429, retryAfterMs });
}

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the promise to reject');
}

function assertCancelled(error: unknown): void {
  assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
  assert.equal(error.kind, 'cancelled');
}

describe('Scheduler: concurrency and order', () => {
  it('never runs more calls at once than the concurrency, and does fill it', async () => {
    const s = scheduler({ concurrency: 3 });
    let inFlight = 0;
    let maxInFlight = 0;
    const call = async (): Promise<number> => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await settle(1);
      inFlight--;
      return inFlight;
    };
    const signal = new AbortController().signal;
    const results = await Promise.all(Array.from({ length: 12 }, () => s.schedule(call, { signal })));
    assert.equal(maxInFlight, 3);
    assert.equal(results.length, 12);
    assert.deepEqual(s.stats, { inFlight: 0, queued: 0, backingOff: 0, completed: 12, failed: 0, retries: 0, rateLimited: 0, concurrencyLimit: 3 });
  });

  it('starts queued calls in the order they were scheduled', async () => {
    const s = scheduler({ concurrency: 1 });
    const order: number[] = [];
    const signal = new AbortController().signal;
    await Promise.all(
      [0, 1, 2, 3, 4].map((id) =>
        s.schedule(async () => {
          order.push(id);
          await settle(1);
        }, { signal }),
      ),
    );
    assert.deepEqual(order, [0, 1, 2, 3, 4]);
  });

  it('runs a retry before fresh calls that were queued after it was first admitted', async () => {
    const s = scheduler({ concurrency: 1 });
    const calls = new ManualCalls();
    const signal = new AbortController().signal;
    const all = [0, 1, 2].map((id) => s.schedule(calls.call(id), { signal }));
    await settle();
    calls.started[0]!.reject(new ProviderError('server', '500'));
    await settle();
    calls.started[1]!.resolve('one');
    await settle();
    calls.started[2]!.resolve('zero');
    await settle();
    calls.started[3]!.resolve('two');
    await Promise.all(all);
    assert.deepEqual(calls.started.map((c) => c.id), [0, 1, 0, 2]);
  });

  it('reports queued and in-flight calls in its stats', async () => {
    const s = scheduler({ concurrency: 2 });
    const calls = new ManualCalls();
    const signal = new AbortController().signal;
    const results = [0, 1, 2, 3, 4].map((id) => s.schedule(calls.call(id), { signal }));
    await settle();
    assert.equal(s.stats.inFlight, 2);
    assert.equal(s.stats.queued, 3);
    for (let i = 0; i < 5; i++) {
      calls.started[i]!.resolve(`r${i}`);
      await settle();
    }
    assert.deepEqual((await Promise.all(results)).map((r) => r.value), ['r0', 'r1', 'r2', 'r3', 'r4']);
  });
});

describe('Scheduler: retries', () => {
  it('waits at least the Retry-After before retrying a 429', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, random: () => 0.99 });
    const calls = new ManualCalls();
    const retries: RetryInfo[] = [];
    const result = s.schedule(calls.call(0), { signal: new AbortController().signal, onRetry: (info) => retries.push(info) });
    await settle();
    calls.started[0]!.reject(rateLimit(3000));
    await clock.advance(2999);
    assert.equal(calls.started.length, 1, 'retried before Retry-After passed');
    await clock.advance(1);
    assert.equal(calls.started.length, 2);
    calls.started[1]!.resolve('ok');
    assert.deepEqual(await result, { value: 'ok', attempts: 2 });
    assert.equal(retries.length, 1);
    assert.equal(retries[0]!.attempt, 1);
    assert.equal(retries[0]!.delayMs, 3000);
    assert.equal(retries[0]!.error.kind, 'rate_limit');
    assert.deepEqual(clock.pending, []);
  });

  it('retries server errors with exponential backoff drawn from the jitter source', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, random: () => 0.5, baseDelayMs: 1000, maxRetries: 3 });
    let calls = 0;
    const retries: RetryInfo[] = [];
    const result = s.schedule(async () => {
      calls++;
      if (calls < 4) throw new ProviderError('server', '503 Service Unavailable', { status: 503 });
      return 'ok';
    }, { signal: new AbortController().signal, onRetry: (info) => retries.push(info) });
    await clock.advance(10_000);
    assert.deepEqual(await result, { value: 'ok', attempts: 4 });
    assert.deepEqual(retries.map((r) => r.delayMs), [500, 1000, 2000]);
  });

  for (const [label, error] of [
    ['auth', new ProviderError('auth', '401 Unauthorized', { status: 401 })],
    ['bad_request', new ProviderError('bad_request', '400 Bad Request', { status: 400 })],
    ['ProviderConfigError', new ProviderConfigError('OPENAI_API_KEY is not set')],
    ['a plain error', new TypeError('provider bug')],
  ] as const) {
    it(`rethrows ${label} at once without retrying`, async () => {
      const s = scheduler({ maxRetries: 5 });
      let calls = 0;
      const thrown = await rejection(s.schedule(async () => {
        calls++;
        throw error;
      }, { signal: new AbortController().signal }));
      assert.equal(thrown, error);
      assert.equal(calls, 1);
      assert.equal(attemptsOf(thrown), 1);
      assert.equal(s.stats.retries, 0);
    });
  }

  it('rejects with the last error and the attempt count when retries run out', async () => {
    const s = scheduler({ maxRetries: 4 });
    let calls = 0;
    const retries: number[] = [];
    const thrown = await rejection(s.schedule(async () => {
      calls++;
      throw new ProviderError('server', `503 Service Unavailable (try ${calls})`, { status: 503 });
    }, { signal: new AbortController().signal, onRetry: (info) => retries.push(info.attempt) }));
    assert.ok(thrown instanceof RetriesExhaustedError);
    assert.equal(thrown.attempts, 5);
    assert.equal(attemptsOf(thrown), 5);
    assert.equal(thrown.kind, 'server');
    assert.equal(thrown.status, 503);
    assert.equal(thrown.lastError.message, '503 Service Unavailable (try 5)');
    assert.equal(thrown.message, 'failed after 5 attempts: 503 Service Unavailable (try 5)');
    assert.equal(calls, 5);
    assert.deepEqual(retries, [1, 2, 3, 4]);
    assert.equal(s.stats.failed, 1);
  });

  it('does not count 429s against maxRetries: a short Retry-After from a longer window still ends in success', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, maxRetries: 1, baseDelayMs: 100, maxDelayMs: 1000 });
    let calls = 0;
    const result = s.schedule(async () => {
      calls++;
      if (calls <= 6) throw new ProviderError('rate_limit', '429 Too Many Requests', { status: 429, retryAfterMs: 1000 });
      if (calls === 7) throw new ProviderError('server', '503 Service Unavailable', { status: 503 });
      return 'ok';
    }, { signal: new AbortController().signal });
    for (let i = 0; i < 20; i++) await clock.advance(1000);
    assert.deepEqual(await result, { value: 'ok', attempts: 8 }, 'six 429s and one 503 with maxRetries 1');
  });

  it('counts a 429 without Retry-After (e.g. a vendor quota) against maxRetries like any failure', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1000 });
    let calls = 0;
    const outcome = s.schedule(async () => {
      calls++;
      throw new ProviderError('rate_limit', 'quota exceeded');
    }, { signal: new AbortController().signal }).catch((e: unknown) => e);
    for (let i = 0; i < 10; i++) await clock.advance(1000);
    const thrown = await outcome;
    assert.ok(thrown instanceof RetriesExhaustedError);
    assert.equal(calls, 3);
  });

  it('gives up on a call that keeps meeting 429s for longer than rateLimitBudgetMs', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, maxRetries: 10, rateLimitBudgetMs: 5000, maxDelayMs: 1000 });
    let calls = 0;
    const outcome = s.schedule(async () => {
      calls++;
      throw new ProviderError('rate_limit', '429 Too Many Requests', { status: 429, retryAfterMs: 1000 });
    }, { signal: new AbortController().signal }).catch((e: unknown) => e);
    for (let i = 0; i < 10; i++) await clock.advance(1000);
    const thrown = await outcome;
    assert.ok(thrown instanceof RetriesExhaustedError);
    assert.equal(thrown.kind, 'rate_limit');
    assert.ok(calls >= 5 && calls <= 7, `about 5 s of one-second waits, got ${calls} calls`);
  });

  it('stops at a non-retryable error after retries and counts the attempts', async () => {
    const s = scheduler({ maxRetries: 4 });
    const auth = new ProviderError('auth', '401 Unauthorized', { status: 401 });
    let calls = 0;
    const thrown = await rejection(s.schedule(async () => {
      calls++;
      if (calls === 1) throw new ProviderError('network', 'ECONNRESET');
      throw auth;
    }, { signal: new AbortController().signal }));
    assert.equal(thrown, auth);
    assert.equal(attemptsOf(thrown), 2);
  });
});

describe('Scheduler: adaptive concurrency on 429', () => {
  it('halves the limit once for a burst of 429s from calls started together, then again for a later one', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 8, maxRetries: 0, rateLimitBudgetMs: 0 });
    const calls = new ManualCalls();
    const signal = new AbortController().signal;
    const burst = [0, 1, 2, 3].map((id) => s.schedule(calls.call(id), { signal }).catch((e: unknown) => e));
    await settle();
    for (const pending of calls.started) pending.reject(rateLimit(0));
    await Promise.all(burst);
    assert.equal(s.stats.rateLimited, 4);
    assert.equal(s.stats.concurrencyLimit, 4);
    const later = s.schedule(calls.call(4), { signal }).catch((e: unknown) => e);
    await settle();
    calls.started[4]!.reject(rateLimit(0));
    await later;
    assert.equal(s.stats.concurrencyLimit, 2);
  });

  it('never goes below one and recovers by one per window of successes up to the configured concurrency', async () => {
    const s = scheduler({ concurrency: 4, maxRetries: 0, rateLimitBudgetMs: 0 });
    const signal = new AbortController().signal;
    for (let i = 0; i < 3; i++) await rejection(s.schedule(async () => { throw rateLimit(0); }, { signal }));
    assert.equal(s.stats.concurrencyLimit, 1);
    const limits: number[] = [];
    for (let i = 0; i < 7; i++) {
      await s.schedule(async () => 'ok', { signal });
      limits.push(s.stats.concurrencyLimit);
    }
    assert.deepEqual(limits, [2, 2, 3, 3, 3, 4, 4]);
  });

  it('applies the lowered limit to calls already queued', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 4, maxRetries: 0, rateLimitBudgetMs: 0 });
    const calls = new ManualCalls();
    const signal = new AbortController().signal;
    const all = [0, 1, 2, 3, 4, 5, 6, 7].map((id) => s.schedule(calls.call(id), { signal }).catch((e: unknown) => e));
    await settle();
    assert.equal(calls.started.length, 4);
    calls.started[0]!.reject(rateLimit(0));
    await settle();
    // Limit 2 with 3 still in flight: nothing new may start until in-flight drops below 2.
    calls.started[1]!.resolve('ok');
    await settle();
    assert.equal(calls.started.length, 4);
    // A failure frees a slot without counting towards recovery: exactly one more may start.
    calls.started[2]!.reject(new ProviderError('bad_request', '400'));
    await settle();
    assert.equal(calls.started.length, 5);
    assert.equal(s.stats.concurrencyLimit, 2);
    for (let finished = 3; finished < 8; finished++) {
      calls.started[finished]!.resolve('ok');
      await settle();
    }
    await Promise.all(all);
    assert.equal(s.stats.completed, 6);
  });

  it('pauses new dispatches until the Retry-After of a 429 has passed', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 4, maxRetries: 0, rateLimitBudgetMs: 0 });
    const calls = new ManualCalls();
    const signal = new AbortController().signal;
    const first = s.schedule(calls.call(0), { signal }).catch((e: unknown) => e);
    await settle();
    calls.started[0]!.reject(rateLimit(5000));
    await first;
    const second = s.schedule(calls.call(1), { signal });
    await clock.advance(4999);
    assert.equal(calls.started.length, 1, 'dispatched during the 429 pause');
    await clock.advance(1);
    assert.equal(calls.started.length, 2);
    calls.started[1]!.resolve('ok');
    assert.equal((await second).value, 'ok');
    assert.deepEqual(clock.pending, []);
  });
});

describe('Scheduler: timeouts', () => {
  it('turns an attempt that outlives timeoutMs into a retryable timeout, whatever the provider threw', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, timeoutMs: 1000, maxRetries: 1 });
    const signals: AbortSignal[] = [];
    const retries: RetryInfo[] = [];
    const result = s.schedule((signal) => {
      signals.push(signal);
      if (signals.length === 2) return Promise.resolve('second try');
      return new Promise<string>((_, reject) => signal.addEventListener('abort', () => reject(new Error('socket hang up'))));
    }, { signal: new AbortController().signal, onRetry: (info) => retries.push(info) });
    await clock.advance(999);
    assert.equal(signals.length, 1);
    await clock.advance(1);
    assert.deepEqual(await result, { value: 'second try', attempts: 2 });
    assert.equal(signals[0]!.aborted, true);
    assert.equal(retries[0]!.error.kind, 'timeout');
    assert.equal(retries[0]!.error.retryable, true);
    assert.deepEqual(clock.pending, []);
  });

  it('times out a provider that reports the abort as cancelled, or ignores its signal altogether', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, timeoutMs: 1000, maxRetries: 0, rateLimitBudgetMs: 0 });
    const signal = new AbortController().signal;
    const reportsCancelled = s.schedule((attemptSignal) => new Promise<string>((_, reject) => {
      attemptSignal.addEventListener('abort', () => reject(new ProviderError('cancelled', 'aborted')));
    }), { signal });
    const ignoresSignal = s.schedule(() => new Promise<string>(() => undefined), { signal });
    const outcomes = Promise.all([rejection(reportsCancelled), rejection(ignoresSignal)]);
    await clock.advance(1000);
    for (const error of await outcomes) {
      assert.ok(error instanceof RetriesExhaustedError);
      assert.equal(error.kind, 'timeout');
    }
    assert.equal(s.stats.inFlight, 0);
  });
});

describe('Scheduler: per-attempt timers', () => {
  it('gives each attempt its own full timeoutMs, counted from its own start', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, timeoutMs: 1000, maxRetries: 1 });
    const signals: AbortSignal[] = [];
    const result = rejection(s.schedule((signal) => {
      signals.push(signal);
      return new Promise<string>(() => undefined);
    }, { signal: new AbortController().signal }));
    await clock.advance(1000);
    assert.equal(signals.length, 2, 'the retry (backoff 0) started when the first attempt timed out');
    assert.deepEqual([signals[0]!.aborted, signals[1]!.aborted], [true, false]);
    await clock.advance(999);
    assert.equal(signals[1]!.aborted, false, 'the second attempt was cut short by the first one\'s timer');
    await clock.advance(1);
    const error = await result;
    assert.ok(error instanceof RetriesExhaustedError);
    assert.deepEqual([error.kind, error.attempts], ['timeout', 2]);
    assert.equal((signals[1]!.reason as ProviderError).kind, 'timeout');
    assert.deepEqual(clock.pending, []);
  });

  it('keeps the retry\'s answer when a timed-out attempt answers late', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, timeoutMs: 1000, maxRetries: 1 });
    const calls = new ManualCalls();
    const result = s.schedule(calls.call(0), { signal: new AbortController().signal });
    await clock.advance(1000);
    assert.equal(calls.started.length, 2);
    calls.started[0]!.resolve('late');
    calls.started[1]!.resolve('second try');
    assert.deepEqual(await result, { value: 'second try', attempts: 2 });
    assert.deepEqual([s.stats.completed, s.stats.failed, s.stats.inFlight], [1, 0, 0]);
  });

  it('clears the timeout of an attempt that succeeds, fails or is cancelled, and leaves no listener on the caller\'s signal', async () => {
    const baseline = activeTimers();
    const s = scheduler({ concurrency: 3, maxRetries: 0 });
    const calls = new ManualCalls();
    const run = new AbortController();
    const cancelled = new AbortController();
    const succeeds = s.schedule(calls.call(0), { signal: run.signal });
    const fails = rejection(s.schedule(calls.call(1), { signal: run.signal }));
    const aborted = rejection(s.schedule(calls.call(2), { signal: cancelled.signal }));
    await settle();
    assert.equal(activeTimers(), baseline + 3, 'one timeout per attempt in flight');
    calls.started[0]!.resolve('ok');
    calls.started[1]!.reject(new ProviderError('bad_request', '400'));
    cancelled.abort();
    assert.deepEqual(await succeeds, { value: 'ok', attempts: 1 });
    assert.equal(((await fails) as ProviderError).kind, 'bad_request');
    assertCancelled(await aborted);
    assert.equal(activeTimers(), baseline);
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
    assert.equal(getEventListeners(calls.started[0]!.signal, 'abort').length, 1, 'only the provider\'s own listener');
  });

  it('starts a call at once only when nobody is queued ahead of it: a cheap call waits behind one short of token budget', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 10, tokensPerMinute: 1000 });
    const starts: Record<string, number> = {};
    const signal = new AbortController().signal;
    const call = (name: string) => async () => {
      starts[name] = clock.now();
    };
    const first = s.schedule(call('first'), { signal, estimatedTokens: 600 });
    const expensive = s.schedule(call('expensive'), { signal, estimatedTokens: 600 });
    await clock.advance(1000);
    const cheap = s.schedule(call('cheap'), { signal, estimatedTokens: 0 });
    await clock.advance(11_000);
    await Promise.all([first, expensive, cheap]);
    assert.deepEqual(starts, { first: 0, expensive: 12_000, cheap: 12_000 });
  });
});

describe('Scheduler: cancellation', () => {
  it('rejects a queued call as soon as its signal aborts, leaving the call in flight alone', async () => {
    const baseline = activeTimers();
    const s = scheduler({ concurrency: 1 });
    const calls = new ManualCalls();
    const first = new AbortController();
    const second = new AbortController();
    const running = s.schedule(calls.call(0), { signal: first.signal });
    const queued = s.schedule(calls.call(1), { signal: second.signal });
    await settle();
    second.abort();
    assertCancelled(await rejection(queued));
    assert.equal(calls.started.length, 1);
    assert.equal(s.stats.queued, 0);
    assert.equal(s.stats.inFlight, 1);
    first.abort();
    assertCancelled(await rejection(running));
    assert.equal(calls.started[0]!.signal.aborted, true);
    assert.equal(s.stats.inFlight, 0);
    assert.equal(activeTimers(), baseline);
  });

  it('aborts an in-flight call through its signal and does not retry it', async () => {
    const baseline = activeTimers();
    const s = scheduler({ maxRetries: 5 });
    const calls = new ManualCalls();
    const controller = new AbortController();
    const result = s.schedule(calls.call(0), { signal: controller.signal });
    await settle();
    controller.abort();
    assertCancelled(await rejection(result));
    assert.equal(calls.started.length, 1);
    assert.equal(s.stats.retries, 0);
    assert.equal(activeTimers(), baseline);
  });

  it('interrupts a backoff sleep at once (a 60 s Retry-After does not hold the test)', async () => {
    const baseline = activeTimers();
    const s = scheduler({ maxRetries: 5 });
    let calls = 0;
    const controller = new AbortController();
    const result = s.schedule(async () => {
      calls++;
      throw rateLimit(60_000);
    }, { signal: controller.signal });
    await settle();
    assert.equal(s.stats.backingOff, 1);
    controller.abort();
    assertCancelled(await rejection(result));
    assert.equal(calls, 1);
    assert.equal(s.stats.backingOff, 0);
    assert.equal(activeTimers(), baseline);
  });

  it('clears the rate-limit wake-up timer when the call waiting for it is cancelled', async () => {
    const baseline = activeTimers();
    const s = scheduler({ requestsPerMinute: 1 });
    const signal = new AbortController().signal;
    await s.schedule(async () => 'first', { signal });
    const controller = new AbortController();
    const waiting = s.schedule(async () => 'second', { signal: controller.signal });
    await settle();
    assert.deepEqual([s.stats.inFlight, s.stats.queued], [0, 1], 'a call waiting for budget must not hold a slot');
    assert.equal(activeTimers(), baseline + 1);
    controller.abort();
    assertCancelled(await rejection(waiting));
    assert.equal(activeTimers(), baseline);
  });

  it('rejects at once when the signal is already aborted, without calling', async () => {
    const s = scheduler();
    let called = false;
    const controller = new AbortController();
    controller.abort();
    assertCancelled(await rejection(s.schedule(async () => { called = true; }, { signal: controller.signal })));
    assert.equal(called, false);
  });

  it('listens to a shared run signal once, however many calls wait on it, and rejects them all on abort', async () => {
    const s = scheduler({ concurrency: 1 });
    const calls = new ManualCalls();
    const controller = new AbortController();
    const all = Array.from({ length: 50 }, (_, id) => rejection(s.schedule(calls.call(id), { signal: controller.signal })));
    await settle();
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
    controller.abort();
    for (const error of await Promise.all(all)) assertCancelled(error);
    assert.equal(calls.started.length, 1);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    assert.deepEqual([s.stats.queued, s.stats.inFlight, s.stats.failed], [0, 0, 50]);
  });
});

describe('Scheduler: rate limits', () => {
  it('spaces calls to the requests-per-minute budget', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 10, requestsPerMinute: 2 });
    const starts: number[] = [];
    const signal = new AbortController().signal;
    const all = Promise.all([0, 1, 2, 3].map(() => s.schedule(async () => starts.push(clock.now()), { signal })));
    await clock.advance(29_999);
    assert.deepEqual(starts, [0, 0]);
    await clock.advance(1);
    assert.deepEqual(starts, [0, 0, 30_000]);
    await clock.advance(30_000);
    await all;
    assert.deepEqual(starts, [0, 0, 30_000, 60_000]);
    assert.deepEqual(clock.pending, []);
  });

  it('charges estimated tokens to the tokens-per-minute budget', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 10, tokensPerMinute: 1000 });
    const starts: number[] = [];
    const signal = new AbortController().signal;
    const all = Promise.all([0, 1].map(() => s.schedule(async () => starts.push(clock.now()), { signal, estimatedTokens: 600 })));
    await clock.advance(11_999);
    assert.deepEqual(starts, [0]);
    await clock.advance(1);
    await all;
    assert.deepEqual(starts, [0, 12_000]);
  });

  it('counts each retry against the request budget', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, requestsPerMinute: 1, maxRetries: 1 });
    const starts: number[] = [];
    const result = s.schedule(async () => {
      starts.push(clock.now());
      if (starts.length === 1) throw new ProviderError('server', '500');
      return 'ok';
    }, { signal: new AbortController().signal });
    await clock.advance(60_000);
    await result;
    assert.deepEqual(starts, [0, 60_000]);
  });
});

describe('Scheduler: a shared context filled by the calls in flight', () => {
  function sharedContextFull(): ProviderError {
    return new ProviderError('shared_context', "llama.cpp answered HTTP 500: prompt too long: the prompts in flight together exceed the server's shared context", { status: 500 });
  }

  /** A server whose shared context holds `fits` calls: each call takes 100 ms, and fails when it found `fits` already running. */
  function crowdedServer(clock: FakeClock, fits: number) {
    let running = 0;
    const seen = { maxRunning: 0, failures: 0 };
    const call = () => (): Promise<string> => {
      const crowded = running >= fits;
      running++;
      seen.maxRunning = Math.max(seen.maxRunning, running);
      return new Promise<string>((resolve, reject) => {
        clock.setTimer(100, () => {
          running--;
          if (!crowded) return resolve('ok');
          seen.failures++;
          reject(sharedContextFull());
        });
      });
    };
    return { call, seen };
  }

  it('halves the limit like a 429, says so, and retries until every call fits, without spending maxRetries', async () => {
    const clock = new FakeClock();
    const lowered: { from: number; limit: number }[] = [];
    const s = scheduler({ clock, concurrency: 8, maxRetries: 0, onConcurrencyLowered: ({ from, limit }) => lowered.push({ from, limit }) });
    const server = crowdedServer(clock, 2);
    const signal = new AbortController().signal;
    const all = Promise.all(Array.from({ length: 8 }, () => s.schedule(server.call(), { signal })));
    for (let i = 0; i < 40; i++) await clock.advance(100);
    const results = await all;
    assert.deepEqual(results.map((r) => r.value), Array(8).fill('ok'));
    assert.ok(server.seen.failures > 0, 'the server did fill up');
    // 8 → 4 → 2 fits; additive increase may try 3 again later and be cut back, as after a 429.
    assert.deepEqual(lowered.slice(0, 2), [{ from: 8, limit: 4 }, { from: 4, limit: 2 }]);
    for (const cut of lowered) assert.equal(cut.limit, Math.floor(cut.from / 2));
    assert.equal(s.stats.failed, 0);
  });

  it('at a limit of one it is an ordinary failure: it spends maxRetries and ends as shared_context', async () => {
    const clock = new FakeClock();
    const s = scheduler({ clock, concurrency: 1, maxRetries: 1 });
    const signal = new AbortController().signal;
    let attempts = 0;
    const outcome = rejection(s.schedule(async () => {
      attempts++;
      throw sharedContextFull();
    }, { signal }));
    await clock.advance(10_000);
    const error = await outcome;
    assert.ok(error instanceof RetriesExhaustedError);
    assert.equal(error.kind, 'shared_context');
    assert.equal(attempts, 2);
  });
});
