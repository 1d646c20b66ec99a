// Runs async work over a (possibly huge, possibly lazily produced) sequence with a bounded number in flight, so memory stays flat.

/**
 * Calls `work` for each item with at most `width` pending at once. Items are pulled lazily, one per free lane, so a
 * 100,000-case run never materialises 100,000 promises, and an async source (cases rendered as they are pulled) is
 * never asked for more than `width` items ahead of the work. Stops pulling when the signal aborts; work already
 * started is awaited (it sees the same signal and is expected to end promptly).
 */
export async function forEachConcurrent<T>(
  items: Iterable<T> | AsyncIterable<T>,
  width: number,
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = Symbol.asyncIterator in items ? items[Symbol.asyncIterator]() : items[Symbol.iterator]();
  let failure: unknown;
  let done = false;
  // An async generator queues concurrent next() calls itself; this chain does the same for any async iterator.
  let pulling: Promise<unknown> = Promise.resolve();
  const pull = (): Promise<IteratorResult<T>> => {
    const next = pulling.then(() => iterator.next());
    pulling = next.catch(() => undefined);
    return next;
  };
  const lane = async (): Promise<void> => {
    for (;;) {
      if (signal.aborted || failure !== undefined || done) return;
      let next: IteratorResult<T>;
      try {
        next = await pull();
      } catch (error) {
        failure ??= error;
        return;
      }
      if (next.done) {
        done = true;
        return;
      }
      try {
        await work(next.value);
      } catch (error) {
        // `work` records per-item failures itself; anything reaching here is a bug or a fatal error.
        failure ??= error;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, width) }, lane));
  } finally {
    // Stopped early (cancel, failure): let the source close its files.
    if (!done) await iterator.return?.();
  }
  if (failure !== undefined) throw failure;
}
