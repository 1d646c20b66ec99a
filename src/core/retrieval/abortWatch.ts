// One abort listener per signal, however many requests wait on it: a run passes the same signal to every retrieval,
// and a listener per request in flight would pass Node's limit of 10 and print a MaxListenersExceededWarning.
export class AbortWatch {
  private readonly waiting = new WeakMap<AbortSignal, Set<() => void>>();

  /** Calls `onAbort` when `signal` aborts; the returned function stops watching (call it when the request settles). */
  watch(signal: AbortSignal, onAbort: () => void): () => void {
    let callbacks = this.waiting.get(signal);
    if (!callbacks) {
      const set = new Set<() => void>();
      callbacks = set;
      this.waiting.set(signal, set);
      signal.addEventListener('abort', () => {
        const due = [...set];
        set.clear();
        for (const callback of due) callback();
      }, { once: true });
    }
    const entry = callbacks;
    entry.add(onAbort);
    return () => entry.delete(onAbort);
  }
}
