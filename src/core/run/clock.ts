// Time as the run engine sees it: injectable, so scheduling logic is tested without real waiting.

export interface Clock {
  /** Milliseconds on a monotonic scale; only differences are meaningful. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason as soon as the signal aborts, clearing its timer. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Calls `callback` after `ms` unless the returned function is called first. The cheap form of `sleep` for timers
   * that are nearly always cancelled (a call's timeout): no AbortController, promise or rejection per use.
   */
  setTimer(ms: number, callback: () => void): () => void;
}

/**
 * The real clock. `performance.now()` rather than `Date.now()` because a wall-clock jump (NTP, sleep/wake)
 * must not stretch or skip a backoff or a rate-limit window.
 *
 * Timers are deliberately not `unref`ed: a call waiting out a rate-limit pause may be the only thing the CLI
 * is doing, and an unref'ed timer would let the process exit mid-run with the promise never settled.
 * Instead every timer is cleared the moment its signal aborts, so cancellation leaves no handle behind.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: sleepWithSignal,
  setTimer: (ms, callback) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};

export function sleepWithSignal(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
