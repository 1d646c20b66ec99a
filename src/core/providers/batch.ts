// What every vendor's batch API offers the one batching engine (run/batchingProvider.ts), and the pieces both vendor
// clients share: splitting requests within a batch's limits, polling with backoff, calls that follow the run's signal.
import type { ResponseRecord } from '../model.js';
import { isRetryableKind } from './contract.js';
import type { CompletionRequest } from './contract.js';
import { abortError, kindOfStatus, toProviderError } from './errors.js';

/** A vendor's limits on one batch: how many requests, and how many bytes they may take together. */
export interface BatchLimits {
  requests: number;
  bytes: number;
}

/** One request of a batch; `customId` is what maps the result back to its (case, model) and must be unique in a batch. */
export interface BatchItem {
  customId: string;
  request: CompletionRequest;
}

/** What the run log must keep the moment a batch is submitted, so a resumed run collects instead of resubmitting. */
export interface SubmittedBatch {
  batchId: string;
  /** OpenAI's uploaded input file; Anthropic's batches carry their requests inline and have none. */
  inputFileId?: string;
  customIds: string[];
}

/** Vendor states folded into what the engine acts on: keep waiting, collect, or stop. */
export type BatchState = 'pending' | 'completed' | 'failed' | 'expired' | 'cancelled';

/**
 * One item's outcome. An error with `retry` is one the vendor may not repeat (the item expired in the batch window,
 * or met an overloaded or failing server): the engine asks it once more interactively. Any other error is the item's
 * answer (a request the vendor refused would be refused again).
 */
export type BatchItemResult = { customId: string; response: ResponseRecord } | { customId: string; error: string; retry?: boolean };

/** Where a batch stands, as the vendor counts it; `done` counts every item with an outcome, errors included. */
export interface BatchProgress {
  batchId: string;
  state: BatchState;
  done: number;
  total: number;
}

export interface PollOptions {
  signal: AbortSignal;
  /** First wait between polls; doubled after each poll up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /** Each poll's answer, for progress lines: the vendors' counts move while a batch is in progress. */
  onProgress?: (progress: BatchProgress) => void;
}

/** A vendor's batch API (OpenAIBatchClient, AnthropicBatchClient) as the batching engine uses it. */
export interface BatchClient {
  /** Submits the items as as many batches as the vendor's limits need; each is yielded as soon as it exists. */
  submit(items: BatchItem[], signal: AbortSignal): AsyncIterable<SubmittedBatch>;
  /** Polls until the batch is no longer pending. */
  waitFor(batchId: string, options: PollOptions): Promise<BatchState>;
  /** Every item's outcome of a batch that is no longer pending, one at a time. */
  results(batchId: string, signal: AbortSignal): AsyncIterable<BatchItemResult>;
  cancel(batchId: string, signal: AbortSignal): Promise<BatchState>;
}

/**
 * Entries grouped into batches, each within the limits by `sizeOf`. A single entry over the size limit is still given
 * a batch of its own: the vendor rejects that one request, not the whole run.
 */
export function splitWithinLimits<T>(entries: Iterable<T>, sizeOf: (entry: T) => number, limits: BatchLimits): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const entry of entries) {
    const size = sizeOf(entry);
    if (current.length > 0 && (current.length >= limits.requests || bytes + size > limits.bytes)) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(entry);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Refuses a custom_id given twice before anything is sent: identical requests are meant to be sent once. */
export function checkUniqueIds(items: readonly BatchItem[]): void {
  const ids = new Set<string>();
  for (const item of items) {
    if (ids.has(item.customId)) throw new Error(`batch custom_id '${item.customId}' appears twice: identical requests are sent once`);
    ids.add(item.customId);
  }
}

/** Polls `progressOf` until the batch is no longer pending, waiting longer each time (a batch takes minutes to hours). */
export async function pollUntilSettled(batchId: string, progressOf: (signal: AbortSignal) => Promise<BatchProgress>, options: PollOptions, vendor: string): Promise<BatchState> {
  let interval = options.initialIntervalMs ?? 5_000;
  const maxInterval = options.maxIntervalMs ?? 5 * 60_000;
  for (;;) {
    const progress = await progressOf(options.signal);
    options.onProgress?.(progress);
    if (progress.state !== 'pending') return progress.state;
    await pause(interval, options.signal, vendor);
    interval = Math.min(interval * 2, maxInterval);
  }
}

/** Waits before the 2nd, 3rd and 4th attempt of a batch API call that may be repeated. */
const REPEAT_DELAYS_MS = [500, 1_000, 2_000];

/**
 * One SDK request with a signal of its own that follows the caller's (the SDK leaves a listener on the signal it is
 * given, and a run's signal lives through hours of polls); whatever it throws becomes a ProviderError without the key.
 * A `repeatable` call (an upload, a poll, a download, a cancel: doing it twice changes nothing at the vendor) is tried
 * again after a transient failure — a dropped connection, a 5xx, a 429 — since one lost poll must not end a batch that
 * runs for hours, nor one reset upload a wave of thousands of cases. Creating a batch is never repeated: a create that
 * reached the vendor and lost its answer would run, and be billed, twice.
 */
export async function batchCall<T>(context: { vendor: string; secret: string | undefined }, signal: AbortSignal, run: (callSignal: AbortSignal) => Promise<T>, repeatable = false): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      if (signal.aborted) throw abortError(context.vendor, signal);
      return await run(AbortSignal.any([signal]));
    } catch (error) {
      const failure = toProviderError(error, { vendor: context.vendor, signal, secrets: [context.secret] });
      const delay = REPEAT_DELAYS_MS[attempt];
      if (!repeatable || delay === undefined || signal.aborted || !isRetryableKind(failure.kind)) throw failure;
      await pause(delay, signal, context.vendor);
    }
  }
}

function pause(ms: number, signal: AbortSignal, vendor: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(abortError(vendor, signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(vendor, signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** An item's HTTP status that a later attempt may not meet (rate limits, server faults), as the scheduler judges a call's. */
export function isTransientStatus(status: number | undefined): boolean {
  return status !== undefined && isRetryableKind(kindOfStatus(status));
}
