// A server that stops accepting connections is waited for (one probe at a time, spaced out, bounded) before calls fail.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/providers/contract.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import type { ServerWaitEvent } from '../../../src/core/run/scheduler.js';
import { FakeClock, settle } from './fakeClock.js';

function refused(): ProviderError {
  return new ProviderError('network', 'openai-compatible: connection failed (Connection error.: ECONNREFUSED)');
}

/** A server the test switches off and on: down, every call is refused at once; up, it answers. */
class SwitchableServer {
  up = true;
  calls = 0;
  readonly call = async (): Promise<string> => {
    this.calls++;
    if (!this.up) throw refused();
    return 'ok';
  };
}

function setup(clock: FakeClock, events: ServerWaitEvent[]) {
  return new Scheduler({
    concurrency: 4,
    maxRetries: 2,
    timeoutMs: 60_000,
    random: () => 0,
    clock,
    serverWait: { failuresBeforeWait: 2, firstProbeDelayMs: 500, maxProbeDelayMs: 8_000, budgetMs: 60_000 },
    onServerWait: (event) => events.push(event),
  });
}

const signal = new AbortController().signal;

describe('Scheduler: waiting for an unreachable server', () => {
  it('holds the calls while the server is down and runs them all once it is back', async () => {
    const clock = new FakeClock();
    const events: ServerWaitEvent[] = [];
    const s = setup(clock, events);
    const server = new SwitchableServer();
    assert.equal((await s.schedule(server.call, { signal })).value, 'ok', 'the server answered before it went down');
    server.up = false;
    const outcomes = Array.from({ length: 10 }, () => s.schedule(server.call, { signal }).then((r) => r.value, (e: unknown) => e));
    // Twenty seconds down: far more than maxRetries' backoff (0.5 + 1 s) would have lasted.
    await clock.advance(20_000);
    assert.deepEqual(events.map((e) => e.state), ['waiting']);
    const waiting = events[0] as Extract<ServerWaitEvent, { state: 'waiting' }>;
    assert.match(waiting.error.message, /ECONNREFUSED/);
    // One probe at a time, spaced 0.5, 1, 2, 4, 8, 8 s…: a handful of calls, not a storm.
    const callsWhileDown = server.calls;
    assert.ok(callsWhileDown <= 1 + 4 + 2 + 8, `calls while down: ${callsWhileDown}`);
    server.up = true;
    await clock.advance(8_000);
    await settle();
    assert.deepEqual(await Promise.all(outcomes), Array(10).fill('ok'), 'no call failed');
    assert.deepEqual(events.map((e) => e.state), ['waiting', 'back']);
    assert.equal(s.stats.failed, 0);
  });

  it('fails the held calls with the connection cause once the wait runs out, and not before', async () => {
    const clock = new FakeClock();
    const events: ServerWaitEvent[] = [];
    const s = setup(clock, events);
    const server = new SwitchableServer();
    assert.equal((await s.schedule(server.call, { signal })).value, 'ok', 'the server answered before it went down');
    server.up = false;
    let settled = 0;
    const outcomes = Array.from({ length: 6 }, () => s.schedule(server.call, { signal }).then((r) => r.value, (e: unknown) => e).finally(() => settled++));
    await clock.advance(59_000);
    assert.equal(settled, 0, 'still waiting within the bound');
    await clock.advance(2_000);
    const errors = await Promise.all(outcomes);
    for (const error of errors) {
      assert.ok(error instanceof ProviderError, String(error));
      assert.equal(error.kind, 'network');
      assert.match(error.message, /ECONNREFUSED/);
    }
    assert.deepEqual(events.map((e) => e.state), ['waiting', 'gave-up']);
    const gaveUp = events[1] as Extract<ServerWaitEvent, { state: 'gave-up' }>;
    assert.ok(gaveUp.waitedMs >= 60_000 && gaveUp.waitedMs < 61_000, `waited ${gaveUp.waitedMs} ms`);
  });

  it('a server never reached in this run is not waited for: its calls fail as before', async () => {
    const clock = new FakeClock();
    const events: ServerWaitEvent[] = [];
    const s = setup(clock, events);
    const server = new SwitchableServer();
    server.up = false;
    const outcome = s.schedule(server.call, { signal }).then(() => undefined, (e: unknown) => e);
    await clock.advance(5_000);
    assert.ok((await outcome) instanceof ProviderError);
    assert.deepEqual(events, []);
  });

  it('an HTTP error is an answer: it does not start a wait', async () => {
    const clock = new FakeClock();
    const events: ServerWaitEvent[] = [];
    const s = setup(clock, events);
    const failing = async (): Promise<string> => {
      throw new ProviderError('server', 'HTTP 503', { status: 503 });
    };
    const outcome = s.schedule(failing, { signal }).then(() => undefined, (e: unknown) => e);
    await clock.advance(10_000);
    assert.ok((await outcome) instanceof ProviderError);
    assert.deepEqual(events, []);
  });
});
