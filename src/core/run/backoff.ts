// How long to wait before retrying a failed model call: exponential backoff with full jitter, floored by Retry-After.
import type { ProviderError } from '../providers/contract.js';

export interface BackoffPolicy {
  baseDelayMs: number;
  maxDelayMs: number;
  /** Uniform in [0, 1); injected by tests. */
  random: () => number;
}

/**
 * "Full jitter" (AWS Architecture Blog, "Exponential Backoff and Jitter"): a uniform draw in
 * [0, min(cap, base·2^(retry-1))]. Spreading retries over the whole window is what stops a burst of
 * calls that failed together from hammering the server again together.
 */
export function fullJitterDelay(retry: number, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(policy.random() * ceiling);
}

/**
 * The wait before retry number `retry` (1-based). A server's Retry-After is a floor, not a cap: it knows
 * when capacity returns, and retrying earlier only earns another 429. It is not clipped to maxDelayMs.
 */
export function retryDelay(error: ProviderError, retry: number, policy: BackoffPolicy): number {
  return Math.max(fullJitterDelay(retry, policy), error.retryAfterMs ?? 0);
}
