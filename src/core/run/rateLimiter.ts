// Requests-per-minute and tokens-per-minute budgets as token buckets, so the scheduler knows how long a call must wait.

const MINUTE_MS = 60_000;
/** Refill is fractional; without a tolerance, float rounding (0.9999999 of 1) would add a spurious 1 ms wait. */
const EPSILON = 1e-9;

export interface RateLimits {
  requestsPerMinute?: number;
  tokensPerMinute?: number;
}

/**
 * One budget that refills continuously at `perMinute / 60 s` and holds at most a minute's worth.
 * Starting full lets a run use its first minute's allowance at once, as the vendors' per-minute limits do;
 * continuous refill (rather than a window reset) avoids the double burst a fixed window allows at its edges.
 */
export class TokenBucket {
  private level: number;
  private updatedAt: number;
  private readonly perMs: number;

  constructor(private readonly capacity: number, now: number) {
    if (!(capacity > 0) || !Number.isFinite(capacity)) throw new RangeError(`a per-minute limit must be a positive number, got ${capacity}`);
    this.level = capacity;
    this.updatedAt = now;
    this.perMs = capacity / MINUTE_MS;
  }

  /**
   * Milliseconds until `amount` may be taken (0 = now). A cost above the capacity could never fit, so it
   * waits for a full bucket and then drives the level negative: the debt delays later calls, which keeps
   * the long-run rate right instead of refusing the call forever.
   */
  waitFor(amount: number, now: number): number {
    this.refill(now);
    const needed = Math.min(amount, this.capacity);
    if (this.level >= needed - EPSILON) return 0;
    return Math.max(1, Math.ceil((needed - this.level) / this.perMs - EPSILON));
  }

  take(amount: number, now: number): void {
    this.refill(now);
    this.level -= amount;
  }

  private refill(now: number): void {
    const elapsed = Math.max(0, now - this.updatedAt);
    this.level = Math.min(this.capacity, this.level + elapsed * this.perMs);
    this.updatedAt = now;
  }
}

/** Both budgets together: a call may start when each configured bucket can pay for it. */
export class RateLimiter {
  private readonly requests?: TokenBucket;
  private readonly tokens?: TokenBucket;

  constructor(limits: RateLimits, now: number) {
    if (limits.requestsPerMinute !== undefined) this.requests = new TokenBucket(limits.requestsPerMinute, now);
    if (limits.tokensPerMinute !== undefined) this.tokens = new TokenBucket(limits.tokensPerMinute, now);
  }

  /** Milliseconds until a call estimated at `tokens` may start (0 = now). */
  waitFor(tokens: number, now: number): number {
    return Math.max(this.requests?.waitFor(1, now) ?? 0, this.tokens?.waitFor(tokens, now) ?? 0);
  }

  /** Charge a call that is starting. Call only after waitFor returned 0. */
  take(tokens: number, now: number): void {
    this.requests?.take(1, now);
    this.tokens?.take(tokens, now);
  }
}
