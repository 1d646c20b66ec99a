// Time as the run engine sees it: injectable, so scheduling logic is tested without real waiting.

export interface Clock {
  /** Milliseconds on a monotonic scale; only differences are meaningful. */
  now(): number;
  /**
   * Calls `callback` after `ms` unless the returned function is called first. A plain timer rather than an
   * abortable sleep: a call's timeout is set and cleared on every call, and an AbortController, a promise and a
   * rejection per use were most of the scheduler's own CPU.
   */
  setTimer(ms: number, callback: () => void): () => void;
}

/**
 * The real clock. `performance.now()` rather than `Date.now()` because a wall-clock jump (NTP, sleep/wake)
 * must not stretch or skip a backoff or a rate-limit window.
 *
 * Timers are deliberately not `unref`ed: a call waiting out a rate-limit pause may be the only thing the CLI
 * is doing, and an unref'ed timer would let the process exit mid-run with the promise never settled.
 * Instead the scheduler clears every timer the moment its wait ends or is cancelled, so no handle is left behind.
 */
export const systemClock: Clock = {
  now: () => performance.now(),
  setTimer: (ms, callback) => {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
};
