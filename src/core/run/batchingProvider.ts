// Batch mode behind the one Provider contract: each case still asks `complete` on its own path (cache first, then
// this), but the calls that arrive together are sent as one vendor batch, and each caller gets its own item back.
// Judge calls come after the generation wave has been answered, so they form the next wave by themselves.
import { isDetached } from '../detach.js';
import type { ResponseRecord } from '../model.js';
import { ProviderError } from '../providers/contract.js';
import type { CallOptions, CompletionRequest, Provider } from '../providers/contract.js';
import type { BatchClient, BatchItem, BatchItemResult, BatchProgress, PollOptions, SubmittedBatch } from '../providers/batch.js';
import { cacheKey } from './cache.js';

export interface BatchingProviderOptions {
  /** The interactive provider this stands in for: its id and endpoint keep the cache keys of both modes the same. */
  provider: Provider;
  backend: BatchClient;
  /**
   * The run's signal: polling stops with it, and the remote batches still running are cancelled — unless the run was
   * detached (its host going away, detach.ts): then they keep running for Resume to collect.
   */
  runSignal: AbortSignal;
  /**
   * A wave is sent when no new call has arrived for this long: by then every case the run could start is waiting
   * on its answer. Not a timing the results depend on, only when the batch goes out. A wave that has been gathering
   * for a while waits longer (half its age, up to MAX_IDLE_MS): see `schedule`.
   */
  idleMs?: number;
  /** A wave is sent at once when it reaches this many requests (the engine's pool width bounds it too). */
  maxWave?: number;
  poll?: Omit<PollOptions, 'signal' | 'onProgress'>;
  /** Each poll of a batch: where it stands (the CLI prints it as plain lines). */
  onProgress?: (progress: BatchProgress) => void;
  /**
   * The one interactive call an item gets when its batch could not answer it (expired, or a transient failure at the
   * vendor); the provider's own `complete` unless the run gives a scheduled one (its limits and retries).
   */
  interactive?: (request: CompletionRequest, signal: AbortSignal) => Promise<ResponseRecord>;
  /** Called the moment a batch exists, before any wait: the run log records it so --resume collects, never resubmits. */
  onSubmitted?: (batch: SubmittedBatch) => void;
  /**
   * Each wave's submission while it is under way. A run cancelled meanwhile waits for it before closing its log: a
   * batch the vendor creates after the cancel is still recorded (and then cancelled), never left running unknown.
   */
  onSubmitting?: (submission: Promise<void>) => void;
  /** Batches an earlier process of this run submitted: their requests are collected from them. */
  resumed?: readonly SubmittedBatch[];
}

/**
 * The longest pause a wave waits out. A vendor batch takes minutes to hours, so seconds spent gathering cost nothing;
 * a wave cut by a pause costs a second batch (and, for a multi-step method, splits every later step's wave too).
 */
const MAX_IDLE_MS = 5_000;

/** How long creating one batch may take (an upload of up to 256 MB included) before the run gives up on it. */
const SUBMIT_TIMEOUT_MS = 10 * 60_000;

interface Waiter {
  resolve: (record: ResponseRecord) => void;
  reject: (error: unknown) => void;
}

interface Pending {
  item: BatchItem;
  waiters: Waiter[];
}

/** The custom_id of a request: its cache identity, so identical requests in a wave are sent once (64 characters at most). */
export function batchRequestId(provider: Pick<Provider, 'id' | 'endpoint'>, request: CompletionRequest): string {
  const { stream: _stream, ...identity } = request;
  return `r${cacheKey({ providerId: provider.id, endpoint: provider.endpoint, request: identity }).slice(0, 40)}`;
}

export class BatchingProvider implements Provider {
  readonly id: string;
  readonly label: string;
  readonly endpoint: string;
  /** Requests waiting for the next wave, by custom_id. */
  private queue = new Map<string, Pending>();
  /** Requests in a submitted batch, by custom_id. */
  private readonly inFlight = new Map<string, Pending>();
  /** custom_id → batch id, for batches an earlier process submitted and this one has not collected yet. */
  private readonly resumedIds = new Map<string, string>();
  private readonly collecting = new Set<string>();
  /**
   * Results of collected resumed batches not yet asked for: a resumed run's pool reaches its cases a few at a time,
   * long after the batch was read. Each is handed out once; the cache answers any identical request after that.
   */
  private readonly collected = new Map<string, BatchItemResult>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the first call of the wave being gathered arrived. */
  private waveStartedAt = 0;
  /** Answers that came from the interactive retry, not a batch: billed at the interactive price. */
  private readonly interactiveAnswers = new WeakSet<ResponseRecord>();

  constructor(private readonly options: BatchingProviderOptions) {
    this.id = options.provider.id;
    this.label = `${options.provider.label} (batch)`;
    this.endpoint = options.provider.endpoint;
    for (const batch of options.resumed ?? []) for (const id of batch.customIds) this.resumedIds.set(id, batch.batchId);
  }

  complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord> {
    const customId = batchRequestId(this, request);
    return new Promise<ResponseRecord>((resolve, reject) => {
      if (options.signal.aborted) return reject(new ProviderError('cancelled', `${this.label}: call cancelled`));
      const onAbort = () => reject(new ProviderError('cancelled', `${this.label}: call cancelled`));
      // Removed when the call settles: a run's signal outlives thousands of batched calls.
      const done = () => options.signal.removeEventListener('abort', onAbort);
      const waiter: Waiter = {
        resolve: (record) => {
          done();
          resolve(record);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      };
      options.signal.addEventListener('abort', onAbort, { once: true });
      const pending = this.inFlight.get(customId) ?? this.queue.get(customId);
      if (pending) {
        pending.waiters.push(waiter);
        return;
      }
      const entry: Pending = { item: { customId, request: { ...request, stream: false } }, waiters: [waiter] };
      const stored = this.collected.get(customId);
      if (stored) {
        this.collected.delete(customId);
        this.inFlight.set(customId, entry);
        return this.answer(customId, entry, stored);
      }
      const resumedBatch = this.resumedIds.get(customId);
      if (resumedBatch !== undefined) {
        this.inFlight.set(customId, entry);
        this.collect(resumedBatch);
        return;
      }
      this.queue.set(customId, entry);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    if (this.queue.size >= (this.options.maxWave ?? 50_000)) {
      this.timer = undefined;
      void this.flush();
      return;
    }
    const now = Date.now();
    if (this.queue.size === 1) this.waveStartedAt = now;
    // Calls that have streamed in for a while (a large wave's cases rendered and started one by one) are likely to
    // resume after a pause (a GC, a busy machine): the longer the stream, the longer the pause it is given. A wave
    // gathered in an instant — a small run, the judge calls freed by one batch — still goes after `idleMs`.
    const idle = Math.min(MAX_IDLE_MS, Math.max(this.options.idleMs ?? 200, (now - this.waveStartedAt) / 2));
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, idle);
  }

  private flush(): Promise<void> {
    const submission = this.submitWave();
    this.options.onSubmitting?.(submission);
    return submission;
  }

  private async submitWave(): Promise<void> {
    const wave = this.queue;
    this.queue = new Map();
    if (wave.size === 0) return;
    for (const [id, pending] of wave) this.inFlight.set(id, pending);
    const runSignal = this.options.runSignal;
    // A batch being created is let finish when the run is cancelled meanwhile: cut short, the vendor may have created
    // it without the run learning its id — running, billed, unrecorded, and sent again by --resume. Recorded, it is
    // cancelled like any other (collect). The time limit only keeps a server that never answers from holding the run.
    const submitSignal = AbortSignal.timeout(SUBMIT_TIMEOUT_MS);
    try {
      if (runSignal.aborted) throw new ProviderError('cancelled', `${this.label}: call cancelled`);
      for await (const batch of this.options.backend.submit([...wave.values()].map((pending) => pending.item), submitSignal)) {
        this.options.onSubmitted?.(batch);
        for (const id of batch.customIds) this.resumedIds.set(id, batch.batchId);
        this.collect(batch.batchId);
        // No further batch of this wave is created once the run is cancelled.
        if (runSignal.aborted) break;
      }
      if (runSignal.aborted) throw new ProviderError('cancelled', `${this.label}: call cancelled`);
    } catch (error) {
      // Items of this wave that no batch took (the upload or the create failed, or the run was cancelled) get the
      // error; submitted ones are collected.
      for (const [id, pending] of wave) {
        if (this.resumedIds.has(id)) continue;
        this.settle(id, pending, (waiter) => waiter.reject(error));
      }
    }
  }

  /** Waits for a batch once, however many callers wait on it, then hands each item to its callers. */
  private collect(batchId: string): void {
    if (this.collecting.has(batchId)) return;
    this.collecting.add(batchId);
    const signal = this.options.runSignal;
    void (async () => {
      const state = await this.options.backend.waitFor(batchId, { ...this.options.poll, signal, onProgress: this.options.onProgress });
      for await (const result of this.options.backend.results(batchId, signal)) {
        const pending = this.inFlight.get(result.customId);
        if (pending) this.answer(result.customId, pending, result);
        else if (this.resumedIds.get(result.customId) === batchId) this.collected.set(result.customId, result);
        this.resumedIds.delete(result.customId);
      }
      for (const [id, pending] of this.inFlight) {
        if (this.resumedIds.get(id) !== batchId) continue;
        this.resumedIds.delete(id);
        if (state === 'cancelled') {
          // Items a cancelled batch did not answer (a run cancelled, then resumed): asked again in the next wave.
          this.inFlight.delete(id);
          this.queue.set(id, pending);
          this.schedule();
        } else if (state === 'expired') {
          this.answer(id, pending, { customId: id, error: `${this.label}: batch ${batchId} expired before answering this request`, retry: true });
        } else {
          // A batch the vendor refused (state failed) would be refused again: its requests end as errors, not a loop of resubmissions.
          const reason = state === 'failed' ? `${this.label}: batch ${batchId} failed at the vendor` : `${this.label}: batch ${batchId} completed without an answer for this request`;
          this.settle(id, pending, (waiter) => waiter.reject(new ProviderError(state === 'failed' ? 'bad_request' : 'bad_response', reason)));
        }
      }
      // Requests of this batch that no caller has asked for yet and that it did not answer go to a later wave when asked.
      for (const [id, owner] of this.resumedIds) if (owner === batchId) this.resumedIds.delete(id);
    })().catch((error: unknown) => {
      // A Cancel cancels the remote batch; a host going away leaves it running, recorded in the log for Resume.
      if (signal.aborted && !isDetached(signal)) void this.options.backend.cancel(batchId, new AbortController().signal).catch(() => undefined);
      for (const [id, pending] of this.inFlight) {
        if (this.resumedIds.get(id) === batchId) this.settle(id, pending, (waiter) => waiter.reject(error));
      }
    });
  }

  /** Hands an item's outcome to every caller waiting on it; an item the batch could not answer is asked once more first. */
  private answer(id: string, pending: Pending, result: BatchItemResult): void {
    if (!('error' in result) || !result.retry) {
      this.settle(id, pending, (waiter) => this.deliver(result, waiter));
      return;
    }
    // Still in flight while it is asked again, so an identical request joins this call instead of a new wave.
    void this.retryInteractively(pending.item.request, result.error).then(
      (record) => this.settle(id, pending, (waiter) => waiter.resolve(record)),
      (error: unknown) => this.settle(id, pending, (waiter) => waiter.reject(error)),
    );
  }

  /** The one interactive call; when it fails too, the error keeps the vendor's reason for the batch item. */
  private async retryInteractively(request: CompletionRequest, batchReason: string): Promise<ResponseRecord> {
    const signal = this.options.runSignal;
    try {
      const interactive = this.options.interactive ?? ((retried: CompletionRequest, retrySignal: AbortSignal) => this.options.provider.complete(retried, { signal: retrySignal }));
      const record = await interactive(request, signal);
      this.interactiveAnswers.add(record);
      return record;
    } catch (error) {
      if (!(error instanceof ProviderError) || error.kind === 'cancelled') throw error;
      throw new ProviderError(error.kind, `${batchReason}; asked again interactively: ${error.message}`, { status: error.status, usage: error.usage });
    }
  }

  /** Whether this answer came from an interactive call rather than a batch (so it costs the interactive price). */
  answeredInteractively(record: ResponseRecord): boolean {
    return this.interactiveAnswers.has(record);
  }

  private deliver(result: BatchItemResult, waiter: Waiter): void {
    if ('response' in result) waiter.resolve(result.response);
    else waiter.reject(new ProviderError('bad_request', result.error));
  }

  private settle(id: string, pending: Pending, each: (waiter: Waiter) => void): void {
    this.inFlight.delete(id);
    this.queue.delete(id);
    for (const waiter of pending.waiters) each(waiter);
  }
}
