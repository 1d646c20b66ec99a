// Runs model calls under the run's limits: bounded concurrency, RPM/TPM budgets, retries, adaptive concurrency on 429
// and on a full shared context, a pause with probes while the server cannot be reached, timeouts, cancellation.
import { ProviderError } from '../providers/contract.js';
import { AbortFanout } from './abortFanout.js';
import { Cancellation } from './cancellation.js';
import { retryDelay } from './backoff.js';
import type { BackoffPolicy } from './backoff.js';
import { systemClock } from './clock.js';
import type { Clock } from './clock.js';
import { RateLimiter } from './rateLimiter.js';

export interface SchedulerOptions {
  /** Max calls in flight. */
  concurrency: number;
  requestsPerMinute?: number;
  /** Charged with each call's `estimatedTokens`. */
  tokensPerMinute?: number;
  /** Retries after the first attempt for failures (5xx, timeouts, network, bad bodies). 429s do not count: see rateLimitBudgetMs. */
  maxRetries: number;
  /**
   * How long one call may keep meeting 429s that carry a Retry-After before it fails, from its first such 429.
   * Default 15 minutes. Such a 429 is back-pressure, not a fault: counting them against maxRetries failed cases
   * whenever a server's Retry-After was shorter than its real window (measured in bench/engineRateLimit.ts).
   */
  rateLimitBudgetMs?: number;
  /** Per attempt. */
  timeoutMs: number;
  /** Default 500. */
  baseDelayMs?: number;
  /** Default 60000. */
  maxDelayMs?: number;
  /** Jitter source, uniform in [0, 1); tests inject. */
  random?: () => number;
  /** Tests inject a fake clock. */
  clock?: Clock;
  /**
   * Called when a shared-context overflow (llama.cpp's "Context size has been exceeded.") lowered the limit, so the
   * run can say why it slowed down.
   */
  onConcurrencyLowered?: (info: ConcurrencyLowered) => void;
  /** How long calls wait for a server that stopped accepting connections; defaults in DEFAULT_SERVER_WAIT. */
  serverWait?: Partial<ServerWaitPolicy>;
  /** Called when the scheduler starts waiting for an unreachable server, when it answers again, and when the wait ends without it. */
  onServerWait?: (info: ServerWaitEvent) => void;
}

/**
 * A server that answered earlier in the run and now refuses or drops every connection (it died, or restarts) is waited
 * for instead of failing each queued call within seconds: after `failuresBeforeWait` connection failures in a row, no call starts except one probe at a
 * time, the probes spaced by a delay doubling from `firstProbeDelayMs` to `maxProbeDelayMs`, for at most `budgetMs`.
 */
export interface ServerWaitPolicy {
  failuresBeforeWait: number;
  firstProbeDelayMs: number;
  maxProbeDelayMs: number;
  budgetMs: number;
}

export const DEFAULT_SERVER_WAIT: ServerWaitPolicy = { failuresBeforeWait: 2, firstProbeDelayMs: 500, maxProbeDelayMs: 8_000, budgetMs: 60_000 };

export type ServerWaitEvent =
  /** Calls are held; `error` is the connection failure that started the wait. */
  | { state: 'waiting'; error: ProviderError; budgetMs: number }
  /** A call reached the server again; the held calls go on. */
  | { state: 'back'; waitedMs: number }
  /** The budget ran out with the server still unreachable: the held calls go on and fail with the connection's cause. */
  | { state: 'gave-up'; error: ProviderError; waitedMs: number };

export interface ConcurrencyLowered {
  /** The limit now. */
  limit: number;
  /** The limit before the cut. */
  from: number;
  error: ProviderError;
}

export interface RetryInfo {
  /** The attempt that failed, 1-based. */
  attempt: number;
  error: ProviderError;
  /** How long the scheduler waits before the next attempt. */
  delayMs: number;
}

export interface ScheduleOptions {
  signal: AbortSignal;
  /** Prompt + expected completion tokens, charged to the tokens-per-minute budget. */
  estimatedTokens?: number;
  onRetry?: (info: RetryInfo) => void;
}

export interface Scheduled<T> {
  value: T;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
}

export interface SchedulerStats {
  inFlight: number;
  /** Waiting for a slot, a rate-limit budget or the end of a 429 pause (fresh calls and retries). */
  queued: number;
  /** Sleeping between attempts. */
  backingOff: number;
  /** Calls that succeeded. */
  completed: number;
  /** Calls that ended in an error (including cancelled). */
  failed: number;
  retries: number;
  /** 429 responses seen. */
  rateLimited: number;
  /** The current adaptive concurrency limit (≤ the configured concurrency). */
  concurrencyLimit: number;
}

/**
 * The final rejection of a call that used up its retries: the last ProviderError (same kind, status,
 * Retry-After and usage), with the attempt count, so a case can record "failed after 5 attempts: 503 …".
 */
export class RetriesExhaustedError extends ProviderError {
  readonly attempts: number;
  readonly lastError: ProviderError;

  constructor(lastError: ProviderError, attempts: number) {
    super(lastError.kind, `failed after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${lastError.message}`, {
      status: lastError.status,
      retryAfterMs: lastError.retryAfterMs,
      usage: lastError.usage,
      cause: lastError,
    });
    this.name = 'RetriesExhaustedError';
    this.attempts = attempts;
    this.lastError = lastError;
  }
}

// Errors that are rethrown unchanged (non-retryable, config errors) keep their identity, so their attempt
// count is kept beside them rather than written onto an object the scheduler does not own.
const attemptCounts = new WeakMap<object, number>();

/** How many attempts a call made before `error` ended it; undefined for an error that did not come from schedule(). */
export function attemptsOf(error: unknown): number | undefined {
  if (error instanceof RetriesExhaustedError) return error.attempts;
  return typeof error === 'object' && error !== null ? attemptCounts.get(error) : undefined;
}

function cancelledError(signal: AbortSignal): ProviderError {
  return new ProviderError('cancelled', 'cancelled', { cause: signal.reason });
}

interface Waiter {
  readonly tokens: number;
  settled: boolean;
  /** `probe`: the call is the one attempt let through to see whether an unreachable server is back. */
  start(probe: boolean): void;
}

/** While the server cannot be reached: when the wait began, the next probe's time and delay, whether a probe is out. */
interface ServerOutage {
  since: number;
  delayMs: number;
  nextProbeAt: number;
  probing: boolean;
  lastError: ProviderError;
}

/** A failure to reach the server at all (refused, reset, dropped), as opposed to an answer, even an error one. */
function isConnectionFailure(error: unknown): error is ProviderError {
  return error instanceof ProviderError && error.kind === 'network';
}

/** FIFO with lazy removal: a cancelled waiter is marked and skipped, so cancelling 10,000 queued calls stays linear. */
class WaitQueue {
  private items: Waiter[] = [];
  private head = 0;
  live = 0;

  push(waiter: Waiter): void {
    this.items.push(waiter);
    this.live++;
  }

  first(): Waiter | undefined {
    while (this.head < this.items.length && this.items[this.head]!.settled) this.head++;
    this.compact();
    return this.items[this.head];
  }

  /** Marks a waiter as no longer queued (dispatched or cancelled). */
  remove(waiter: Waiter): void {
    if (waiter.settled) return;
    waiter.settled = true;
    this.live--;
  }

  private compact(): void {
    if (this.head === this.items.length) {
      this.items = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
  }
}

/**
 * Bounded-concurrency FIFO scheduler for model calls.
 *
 * Adaptive concurrency on 429 (AIMD, as TCP congestion control):
 * - Multiplicative decrease: a 429 halves the current limit (never below 1) and pauses every new dispatch
 *   until its Retry-After has passed (the base delay when the server sent none). A 429 from an attempt that
 *   was dispatched before the latest cut does not cut again: it reflects the load that cut already answered,
 *   and counting it would collapse the limit to 1 after a single burst of simultaneous 429s.
 * - A shared-context overflow (llama.cpp's slots filling the one context they share) cuts the limit the same way,
 *   without a pause, and its retries are free while the limit is above 1: fewer calls in flight is the fix.
 * - Additive increase: after as many successes as the current limit (one "window" of calls) the limit
 *   grows by 1, up to the configured concurrency.
 *
 * Waiting is split: a call waits in the queue for a slot, for the rate budget and for a 429 pause WITHOUT
 * holding a concurrency slot. The limit models load on the server, which is what AIMD adapts; a call idling
 * for budget puts no load there, and letting it hold a slot would leave slots idle for up to a minute.
 * Retries queue ahead of fresh calls (they were admitted first), FIFO among themselves.
 */
export class Scheduler {
  private readonly maxConcurrency: number;
  private readonly maxRetries: number;
  private readonly rateLimitBudgetMs: number;
  private readonly timeoutMs: number;
  private readonly backoff: BackoffPolicy;
  private readonly clock: Clock;
  private readonly limiter: RateLimiter;
  private readonly aborts = new AbortFanout();
  private readonly fresh = new WaitQueue();
  private readonly retrying = new WaitQueue();
  private limit: number;
  private inFlight = 0;
  private backingOff = 0;
  private completed = 0;
  private failed = 0;
  private retries = 0;
  private rateLimited = 0;
  private pausedUntil = -Infinity;
  /** Bumped on each multiplicative decrease; an attempt remembers the epoch it was dispatched in. */
  private epoch = 0;
  private successesSinceChange = 0;
  private wake?: { at: number; cancel: () => void };
  private readonly onConcurrencyLowered?: (info: ConcurrencyLowered) => void;
  private readonly serverWait: ServerWaitPolicy;
  private readonly onServerWait?: (info: ServerWaitEvent) => void;
  /** Connection failures since the last answer from the server. */
  private connectionFailures = 0;
  private outage?: ServerOutage;
  /** The last wait ran out: calls are no longer held until the server answers once. */
  private gaveUpWaiting = false;
  /**
   * Only a server that answered in this run is waited for (it died or restarts); one never reached is down or
   * misconfigured, which the preflight reports, and waiting would only delay the same errors.
   */
  private serverEverAnswered = false;

  constructor(options: SchedulerOptions) {
    checkOptions(options);
    this.maxConcurrency = options.concurrency;
    this.limit = options.concurrency;
    this.maxRetries = options.maxRetries;
    this.rateLimitBudgetMs = options.rateLimitBudgetMs ?? 15 * 60_000;
    this.timeoutMs = options.timeoutMs;
    this.backoff = {
      baseDelayMs: options.baseDelayMs ?? 500,
      maxDelayMs: options.maxDelayMs ?? 60_000,
      random: options.random ?? Math.random,
    };
    this.clock = options.clock ?? systemClock;
    this.limiter = new RateLimiter(options, this.clock.now());
    this.onConcurrencyLowered = options.onConcurrencyLowered;
    this.serverWait = { ...DEFAULT_SERVER_WAIT, ...options.serverWait };
    this.onServerWait = options.onServerWait;
  }

  get stats(): SchedulerStats {
    return {
      inFlight: this.inFlight,
      queued: this.fresh.live + this.retrying.live,
      backingOff: this.backingOff,
      completed: this.completed,
      failed: this.failed,
      retries: this.retries,
      rateLimited: this.rateLimited,
      concurrencyLimit: this.limit,
    };
  }

  /**
   * Runs `call` under the limits, retrying retryable ProviderErrors. Rejects with: the error itself when it
   * is not retryable (auth, bad_request, ProviderConfigError, any non-ProviderError); RetriesExhaustedError
   * after the last retry; ProviderError('cancelled') when `signal` aborts, at whatever stage the call is.
   */
  async schedule<T>(call: (signal: AbortSignal) => Promise<T>, options: ScheduleOptions): Promise<Scheduled<T>> {
    // A private cancellation per call carries the 'cancelled' error, and the caller's (shared) signal gets one
    // listener through the fan-out instead of one per call and stage.
    const cancellation = new Cancellation();
    const unsubscribe = this.aborts.subscribe(options.signal, () => cancellation.cancel(cancelledError(options.signal)));
    const tokens = options.estimatedTokens ?? 0;
    let attempts = 0;
    const rateLimits: RetryAccount = { count: 0, since: 0, sharedContext: 0, serverWait: 0 };
    try {
      for (;;) {
        const probe = (await this.acquire(tokens, cancellation, attempts > 0)) === true;
        attempts++;
        const dispatched = { epoch: this.epoch, limit: this.limit };
        let value: T;
        try {
          value = await this.runAttempt(call, cancellation);
        } catch (error) {
          this.onAttemptFailed(error, probe);
          const verdict = this.judgeFailure(error, attempts, rateLimits, dispatched);
          this.release();
          if (!verdict.retry) throw verdict.error;
          await this.backOff(verdict.error, attempts, options, cancellation, verdict.delayMs);
          continue;
        }
        this.onServerAnswered();
        this.recordSuccess();
        this.release();
        return { value, attempts };
      }
    } catch (error) {
      this.failed++;
      if (typeof error === 'object' && error !== null) attemptCounts.set(error, attempts);
      throw error;
    } finally {
      unsubscribe();
    }
  }

  /**
   * Waits in the queue until the call may start; the slot and rate budget are taken when it resolves. Returns
   * nothing when the call may start at once, which is the common case and needs no waiter, promise or listener.
   */
  private acquire(tokens: number, cancellation: Cancellation, retry: boolean): Promise<boolean> | undefined {
    if (cancellation.cancelled) return Promise.reject(cancellation.reason);
    if (this.startNow(tokens)) return undefined;
    const queue = retry ? this.retrying : this.fresh;
    return new Promise<boolean>((resolve, reject) => {
      const waiter: Waiter = {
        tokens,
        settled: false,
        start: (probe) => {
          queue.remove(waiter);
          cancellation.clear();
          resolve(probe);
        },
      };
      cancellation.onCancel(() => {
        // Rejected here and now, not when the waiter would have reached the head of the queue.
        queue.remove(waiter);
        reject(cancellation.reason);
        this.pump();
      });
      queue.push(waiter);
      this.pump();
    });
  }

  /** What pump() would do for a lone waiter: nobody queued ahead, a free slot, no 429 pause, budget to spare. */
  private startNow(tokens: number): boolean {
    if (this.outage || this.fresh.live > 0 || this.retrying.live > 0 || this.inFlight >= this.limit) return false;
    const now = this.clock.now();
    if (this.pausedUntil > now || this.limiter.waitFor(tokens, now) > 0) return false;
    this.limiter.take(tokens, now);
    this.inFlight++;
    return true;
  }

  /** Starts as many queued calls as the slots, the 429 pause and the rate budgets allow. */
  private pump(): void {
    for (;;) {
      const queue = this.retrying.first() ? this.retrying : this.fresh;
      const waiter = queue.first();
      if (!waiter) {
        this.cancelWake();
        return;
      }
      // A finishing call pumps again, so a full house needs no timer.
      if (this.inFlight >= this.limit) return;
      // While the server is unreachable one probe at a time goes out; its end pumps again.
      if (this.outage?.probing) return;
      const now = this.clock.now();
      const wait = Math.max(this.pausedUntil - now, this.limiter.waitFor(waiter.tokens, now), this.outage ? this.outage.nextProbeAt - now : 0);
      if (wait > 0) {
        this.armWake(now + wait, wait);
        return;
      }
      this.limiter.take(waiter.tokens, now);
      this.inFlight++;
      const probe = this.outage !== undefined;
      if (this.outage) this.outage.probing = true;
      waiter.start(probe);
    }
  }

  /** One timer for the whole queue, re-armed only when an earlier wake-up is needed. */
  private armWake(at: number, wait: number): void {
    if (this.wake && this.wake.at <= at) return;
    this.cancelWake();
    const wake = { at, cancel: (): void => undefined };
    this.wake = wake;
    wake.cancel = this.clock.setTimer(wait, () => {
      if (this.wake !== wake) return;
      this.wake = undefined;
      this.pump();
    });
  }

  private cancelWake(): void {
    this.wake?.cancel();
    this.wake = undefined;
  }

  private release(): void {
    this.inFlight--;
    this.pump();
  }

  /**
   * One attempt with its own signal, aborted by the caller's cancel or after timeoutMs. The attempt settles with
   * the abort reason the moment it aborts, whatever the provider then throws (or if it never settles), so a
   * timeout is ProviderError('timeout'), which is retryable, and a cancel is ProviderError('cancelled'), which is
   * not. Every call makes at least one attempt, so this costs only one AbortController (the provider's signal)
   * and one plain timer, cleared rather than aborted (an abort without a reason builds a DOMException, stack and all).
   */
  private runAttempt<T>(call: (signal: AbortSignal) => Promise<T>, cancellation: Cancellation): Promise<T> {
    if (cancellation.cancelled) return Promise.reject(cancellation.reason);
    const attempt = new AbortController();
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      /** True for the first outcome only; a provider's late settlement after an abort is absorbed. */
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        clearTimer();
        cancellation.clear();
        return true;
      };
      const abort = (reason: unknown): void => {
        if (!finish()) return;
        attempt.abort(reason);
        reject(reason);
      };
      const clearTimer = this.clock.setTimer(this.timeoutMs, () => abort(new ProviderError('timeout', `no answer within ${this.timeoutMs} ms`)));
      cancellation.onCancel(() => abort(cancellation.reason));
      let pending: Promise<T>;
      try {
        pending = Promise.resolve(call(attempt.signal));
      } catch (error) {
        pending = Promise.reject(error);
      }
      pending.then(
        (value) => {
          if (finish()) resolve(value);
        },
        (error: unknown) => {
          if (finish()) reject(error);
        },
      );
    });
  }

  /**
   * Decides whether a failed attempt is retried; feeds 429s and shared-context overflows to the adaptive limit.
   * Failures count against maxRetries; 429s against the call's rate-limit time budget instead, and a shared-context
   * overflow met while more than one call was allowed in flight is free: the cut it caused is the fix, not a fault of
   * the call (bounded, since the limit can only be halved so many times before it is 1).
   */
  private judgeFailure(error: unknown, attempts: number, account: RetryAccount, dispatched: { epoch: number; limit: number }): { retry: boolean; error: unknown; delayMs?: number } {
    if (!(error instanceof ProviderError) || !error.retryable) return { retry: false, error };
    if (isConnectionFailure(error)) {
      // Waiting for the server: the retry is free and waits for the probes, not for a backoff of its own.
      if (this.outage) {
        account.serverWait++;
        return { retry: true, error, delayMs: 0 };
      }
      // The wait ran out: the calls it held fail now with the cause, as they would have without it.
      if (this.gaveUpWaiting) return { retry: false, error: new RetriesExhaustedError(error, attempts) };
    }
    if (error.kind === 'rate_limit') this.onRateLimited(error, dispatched.epoch);
    if (error.kind === 'shared_context') {
      this.onSharedContextFull(error, dispatched.epoch);
      if (dispatched.limit > 1 && account.sharedContext < Math.ceil(Math.log2(this.maxConcurrency)) + 1) {
        account.sharedContext++;
        return { retry: true, error };
      }
    }
    // A 429 that says when to come back is back-pressure: it spends the time budget, not a retry. One that does not
    // (or a vendor's "quota/blocked" mapped to rate_limit) may never clear, so it counts like any failure.
    if (error.kind === 'rate_limit' && error.retryAfterMs !== undefined) {
      if (account.count === 0) account.since = this.clock.now();
      account.count++;
      if (this.clock.now() - account.since >= this.rateLimitBudgetMs) return { retry: false, error: new RetriesExhaustedError(error, attempts) };
      return { retry: true, error };
    }
    if (attempts - account.count - account.sharedContext - account.serverWait > this.maxRetries) return { retry: false, error: new RetriesExhaustedError(error, attempts) };
    return { retry: true, error };
  }

  private async backOff(error: unknown, attempts: number, options: ScheduleOptions, cancellation: Cancellation, fixedDelayMs?: number): Promise<void> {
    const providerError = error as ProviderError;
    const delayMs = fixedDelayMs ?? retryDelay(providerError, attempts, this.backoff);
    this.retries++;
    options.onRetry?.({ attempt: attempts, error: providerError, delayMs });
    this.backingOff++;
    try {
      await this.pause(delayMs, cancellation);
    } finally {
      this.backingOff--;
    }
  }

  /** Resolves after `ms`, or rejects with the cancel reason the moment the call is cancelled, clearing its timer. */
  private pause(ms: number, cancellation: Cancellation): Promise<void> {
    if (cancellation.cancelled) return Promise.reject(cancellation.reason);
    if (ms <= 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const clearTimer = this.clock.setTimer(ms, () => {
        cancellation.clear();
        resolve();
      });
      cancellation.onCancel(() => {
        clearTimer();
        reject(cancellation.reason);
      });
    });
  }

  private onRateLimited(error: ProviderError, dispatchedEpoch: number): void {
    this.rateLimited++;
    const pause = error.retryAfterMs ?? this.backoff.baseDelayMs;
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + pause);
    if (dispatchedEpoch !== this.epoch) return;
    this.epoch++;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successesSinceChange = 0;
  }

  /**
   * The server's slots share one context and the requests in flight filled it: halve the limit as a 429 would, with no
   * pause (nothing says when to come back; the calls in flight finishing is what frees the context). As with 429s, a
   * failure of an attempt dispatched before the latest cut does not cut again.
   */
  private onSharedContextFull(error: ProviderError, dispatchedEpoch: number): void {
    if (dispatchedEpoch !== this.epoch || this.limit <= 1) return;
    const from = this.limit;
    this.epoch++;
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successesSinceChange = 0;
    this.onConcurrencyLowered?.({ limit: this.limit, from, error });
  }

  /**
   * Feeds the server wait: connection failures in a row start it; a probe that fails again spaces the next one out,
   * until the budget is spent; any answer from the server (an HTTP error included) ends it.
   */
  private onAttemptFailed(error: unknown, probe: boolean): void {
    if (!isConnectionFailure(error)) {
      if (error instanceof ProviderError && error.kind !== 'timeout' && error.kind !== 'cancelled') this.onServerAnswered();
      else if (probe && this.outage) this.outage.probing = false;
      return;
    }
    this.connectionFailures++;
    const now = this.clock.now();
    const outage = this.outage;
    if (!outage) {
      if (!this.serverEverAnswered || this.gaveUpWaiting || this.connectionFailures < this.serverWait.failuresBeforeWait) return;
      const delayMs = this.serverWait.firstProbeDelayMs;
      this.outage = { since: now, delayMs, nextProbeAt: now + delayMs, probing: false, lastError: error };
      this.onServerWait?.({ state: 'waiting', error, budgetMs: this.serverWait.budgetMs });
      return;
    }
    outage.lastError = error;
    if (!probe) return;
    outage.probing = false;
    const waitedMs = now - outage.since;
    if (waitedMs >= this.serverWait.budgetMs) {
      this.outage = undefined;
      this.gaveUpWaiting = true;
      this.onServerWait?.({ state: 'gave-up', error, waitedMs });
      return;
    }
    outage.delayMs = Math.min(outage.delayMs * 2, this.serverWait.maxProbeDelayMs);
    // The last probe goes out when the budget ends, not a whole delay after it.
    outage.nextProbeAt = Math.min(now + outage.delayMs, outage.since + this.serverWait.budgetMs);
  }

  /** The server answered: the wait (if any) is over and the held calls go on. */
  private onServerAnswered(): void {
    this.serverEverAnswered = true;
    this.connectionFailures = 0;
    this.gaveUpWaiting = false;
    const outage = this.outage;
    if (!outage) return;
    this.outage = undefined;
    this.onServerWait?.({ state: 'back', waitedMs: this.clock.now() - outage.since });
  }

  private recordSuccess(): void {
    this.completed++;
    if (this.limit >= this.maxConcurrency) return;
    this.successesSinceChange++;
    if (this.successesSinceChange < this.limit) return;
    this.limit++;
    this.successesSinceChange = 0;
  }
}

/** What a call has spent of its retries beyond maxRetries' count: 429s with a Retry-After, free shared-context and server-wait retries. */
interface RetryAccount {
  count: number;
  since: number;
  sharedContext: number;
  /** Connection failures met while the scheduler waited for the server: free, the wait's budget bounds them. */
  serverWait: number;
}

function checkOptions(options: SchedulerOptions): void {
  if (!Number.isInteger(options.concurrency) || options.concurrency < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, got ${options.concurrency}`);
  if (!Number.isInteger(options.maxRetries) || options.maxRetries < 0) throw new RangeError(`maxRetries must be a whole number ≥ 0, got ${options.maxRetries}`);
  if (!(options.timeoutMs > 0)) throw new RangeError(`timeoutMs must be positive, got ${options.timeoutMs}`);
}
