// Identical requests in flight at once share one call: the first starts it, the others wait for its answer.
import { AbortFanout } from './abortFanout.js';

interface Flight<T> {
  /** Aborts the shared call; only when every waiter has left. */
  readonly controller: AbortController;
  readonly result: Promise<T>;
  waiters: number;
}

export interface Joined<T> {
  promise: Promise<T>;
  /** Whether another caller had already started this call (this one sent nothing). */
  shared: boolean;
}

/**
 * A map of calls in flight by key. The call runs under a signal of its own, not any caller's: one caller cancelling
 * leaves it running for the others, and it is aborted (with the last leaver's reason, so a detached run still reads
 * as detached) only when no caller waits for it any more. An error reaches every waiter. A settled call is forgotten:
 * what comes later is answered by the response cache.
 */
export class SingleFlight<T> {
  private readonly flights = new Map<string, Flight<T>>();
  private readonly aborts = new AbortFanout();

  /** @param cancelled the error a waiter whose own signal aborted gets */
  constructor(private readonly cancelled: (signal: AbortSignal) => Error) {}

  /** Whether a call for `key` is in flight now. */
  has(key: string): boolean {
    return this.flights.has(key);
  }

  /** Joins the call in flight for `key`, or starts it with `start`. Synchronous up to `start`, so two callers never both start. */
  join(key: string, signal: AbortSignal, start: (signal: AbortSignal) => Promise<T>): Joined<T> {
    let flight = this.flights.get(key);
    const shared = flight !== undefined;
    if (!flight) {
      const controller = new AbortController();
      const created: Flight<T> = { controller, result: start(controller.signal), waiters: 0 };
      created.result.catch(() => undefined).finally(() => this.forget(key, created));
      this.flights.set(key, created);
      flight = created;
    }
    flight.waiters++;
    return { promise: this.wait(key, flight, signal), shared };
  }

  private wait(key: string, flight: Flight<T>, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const unsubscribe = this.aborts.subscribe(signal, () => {
        if (settled) return;
        settled = true;
        reject(this.cancelled(signal));
        if (--flight.waiters === 0) {
          this.forget(key, flight);
          flight.controller.abort(signal.reason);
        }
      });
      flight.result.then(
        (value) => {
          unsubscribe();
          if (settled) return;
          settled = true;
          resolve(value);
        },
        (error: unknown) => {
          unsubscribe();
          if (settled) return;
          settled = true;
          reject(error);
        },
      );
    });
  }

  private forget(key: string, flight: Flight<T>): void {
    if (this.flights.get(key) === flight) this.flights.delete(key);
  }
}
