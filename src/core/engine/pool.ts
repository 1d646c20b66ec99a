// Runs async work over a (possibly huge) iterable with a bounded number in flight, so memory stays flat.

/**
 * Calls `work` for each item with at most `width` pending at once. Items are pulled lazily, so a
 * 100,000-case run never materialises 100,000 promises. Stops pulling when the signal aborts; work
 * already started is awaited (it sees the same signal and is expected to end promptly).
 */
export async function forEachConcurrent<T>(
  items: Iterable<T>,
  width: number,
  signal: AbortSignal,
  work: (item: T) => Promise<void>,
): Promise<void> {
  const iterator = items[Symbol.iterator]();
  let failure: unknown;
  const lane = async (): Promise<void> => {
    for (;;) {
      if (signal.aborted || failure !== undefined) return;
      const next = iterator.next();
      if (next.done) return;
      try {
        await work(next.value);
      } catch (error) {
        // `work` records per-item failures itself; anything reaching here is a bug or a fatal error.
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, width) }, lane));
  if (failure !== undefined) throw failure;
}
