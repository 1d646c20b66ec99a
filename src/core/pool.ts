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
  // Lanes start as items arrive, never more than the items plus one however wide the limit: a width of a billion
  // over three cases is four lanes, not a billion pending promises.
  const lanes: Promise<void>[] = [];
  const maxLanes = Math.max(1, width);
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
      if (lanes.length < maxLanes) lanes.push(lane());
      try {
        await work(next.value);
      } catch (error) {
        // `work` records per-item failures itself; anything reaching here is a bug or a fatal error.
        failure ??= error;
      }
    }
  };
  try {
    lanes.push(lane());
    // Lanes never reject (they record the failure), and one may start another: wait until none is left.
    for (let i = 0; i < lanes.length; i++) await lanes[i];
  } finally {
    // Stopped early (cancel, failure): let the source close its files.
    if (!done) await iterator.return?.();
  }
  if (failure !== undefined) throw failure;
}

/**
 * `fn` over a lazily produced sequence with up to `width` calls in flight, the results yielded in the source's order:
 * slow per-item work (rows a judge prepares) overlaps without reordering what follows. The source is read only as
 * far as the window reaches. Stopped early (the consumer returns or throws), it waits for the calls in flight, which
 * see the caller's signal, so none is left running unobserved.
 */
export async function* mapOrdered<T, R>(items: AsyncIterable<T>, width: number, fn: (item: T) => Promise<R>): AsyncGenerator<R> {
  const iterator = items[Symbol.asyncIterator]();
  const window: Promise<R>[] = [];
  let exhausted = false;
  try {
    for (;;) {
      while (!exhausted && window.length < Math.max(1, width)) {
        const next = await iterator.next();
        if (next.done) exhausted = true;
        else {
          const task = fn(next.value);
          // Awaited in turn below; one left behind when the consumer stops early must not be an unhandled rejection.
          task.catch(() => undefined);
          window.push(task);
        }
      }
      const head = window.shift();
      if (!head) return;
      yield await head;
    }
  } finally {
    await Promise.allSettled(window);
    if (!exhausted) await iterator.return?.();
  }
}
