// One 'abort' listener per caller signal, fanned out to many subscribers.

/**
 * A run shares one AbortSignal across thousands of queued calls. Adding a listener per call to that signal
 * trips Node's MaxListenersExceededWarning (a false "memory leak") and makes every abort walk a huge
 * listener list; subscribing here keeps exactly one listener per signal, removed when the last subscriber leaves.
 */
export class AbortFanout {
  private readonly entries = new Map<AbortSignal, { handlers: Set<() => void>; listener: () => void }>();

  /** Calls `handler` once when `signal` aborts (at once if it already has). Returns the unsubscribe function. */
  subscribe(signal: AbortSignal, handler: () => void): () => void {
    if (signal.aborted) {
      handler();
      return () => undefined;
    }
    let entry = this.entries.get(signal);
    if (!entry) {
      const created = { handlers: new Set<() => void>(), listener: () => this.fire(signal) };
      signal.addEventListener('abort', created.listener, { once: true });
      this.entries.set(signal, created);
      entry = created;
    }
    // Wrapped so the same function can subscribe twice and each unsubscribe removes only its own entry.
    const own = (): void => handler();
    entry.handlers.add(own);
    return () => this.unsubscribe(signal, own);
  }

  /** Signals currently listened to; for tests and leak checks. */
  get size(): number {
    return this.entries.size;
  }

  private unsubscribe(signal: AbortSignal, handler: () => void): void {
    const entry = this.entries.get(signal);
    if (!entry) return;
    entry.handlers.delete(handler);
    if (entry.handlers.size > 0) return;
    signal.removeEventListener('abort', entry.listener);
    this.entries.delete(signal);
  }

  private fire(signal: AbortSignal): void {
    const entry = this.entries.get(signal);
    if (!entry) return;
    this.entries.delete(signal);
    for (const handler of [...entry.handlers]) handler();
  }
}
