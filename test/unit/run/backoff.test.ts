// Backoff delays: full jitter under an exponential ceiling, capped, with Retry-After as a floor.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ProviderError } from '../../../src/core/providers/contract.js';
import { fullJitterDelay, retryDelay } from '../../../src/core/run/backoff.js';

const policy = (random: number) => ({ baseDelayMs: 500, maxDelayMs: 60_000, random: () => random });

describe('backoff', () => {
  it('doubles the ceiling per retry and scales it by the jitter draw', () => {
    assert.deepEqual([1, 2, 3, 4].map((retry) => fullJitterDelay(retry, policy(0.5))), [250, 500, 1000, 2000]);
    assert.equal(fullJitterDelay(3, policy(0)), 0);
  });

  it('never exceeds maxDelayMs, even for very large retry numbers', () => {
    assert.equal(fullJitterDelay(10, policy(0.999_999)), 59_999);
    assert.equal(fullJitterDelay(5000, policy(0.5)), 30_000);
  });

  it('waits at least the server Retry-After, even beyond the cap', () => {
    const error = new ProviderError('rate_limit', '429', { retryAfterMs: 90_000 });
    assert.equal(retryDelay(error, 1, policy(0.5)), 90_000);
    const short = new ProviderError('rate_limit', '429', { retryAfterMs: 100 });
    assert.equal(retryDelay(short, 4, policy(0.5)), 2000);
  });
});
