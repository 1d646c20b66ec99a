// Token buckets: a minute's burst, continuous refill, and oversized costs that wait for a full bucket and leave a debt.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiter, TokenBucket } from '../../../src/core/run/rateLimiter.js';

describe('TokenBucket', () => {
  it('allows a minute of budget at once, then refills continuously', () => {
    const bucket = new TokenBucket(60, 0);
    for (let i = 0; i < 60; i++) {
      assert.equal(bucket.waitFor(1, 0), 0);
      bucket.take(1, 0);
    }
    assert.equal(bucket.waitFor(1, 0), 1000);
    assert.equal(bucket.waitFor(1, 999), 1);
    assert.equal(bucket.waitFor(1, 1000), 0);
  });

  it('lets a cost above the capacity through once full, and makes later calls repay it', () => {
    const bucket = new TokenBucket(1000, 0);
    assert.equal(bucket.waitFor(1500, 0), 0);
    bucket.take(1500, 0);
    // Level is -500: a 100-token call waits for 600 tokens of refill (36 s at 1000/min).
    assert.equal(bucket.waitFor(100, 0), 36_000);
  });

  it('rejects a limit that is not a positive number', () => {
    assert.throws(() => new TokenBucket(0, 0), RangeError);
    assert.throws(() => new TokenBucket(Number.NaN, 0), RangeError);
  });
});

describe('RateLimiter', () => {
  it('waits for the slower of the two budgets and charges both', () => {
    const limiter = new RateLimiter({ requestsPerMinute: 10, tokensPerMinute: 600 }, 0);
    limiter.take(500, 0);
    assert.equal(limiter.waitFor(200, 0), 10_000);
    assert.equal(limiter.waitFor(50, 0), 0);
  });

  it('never waits when no limit is configured', () => {
    const limiter = new RateLimiter({}, 0);
    limiter.take(1e9, 0);
    assert.equal(limiter.waitFor(1e9, 0), 0);
  });
});
