// The OpenAI Batch API through the official SDK: requests written as JSONL files within the vendor's limits, uploaded
// (client.files.create), submitted (client.batches.create), polled with backoff, results read back per item, cancelled.
// The engine does not use it yet: this is the provider half of batch mode (issue 15).
import type { OpenAI } from 'openai';
import type { Batch } from 'openai/resources/batches';
import type { ResponseRecord } from '../model.js';
import type { CompletionRequest } from './contract.js';
import { abortError, toProviderError } from './errors.js';
import { chatCompletionBody, openAIClientOnFirstUse, outcomeOfCompletion } from './openai.js';
import type { OpenAIProviderOptions } from './openai.js';
import { loadVendor } from '../vendor/load.js';

/** OpenAI's per-file limits for a batch input: 50,000 requests and 200 MB. */
export const OPENAI_BATCH_LIMITS: BatchLimits = { requests: 50_000, bytes: 200 * 1024 * 1024 };

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
  inputFileId: string;
  customIds: string[];
}

export type BatchState = 'pending' | 'completed' | 'failed' | 'expired' | 'cancelled';

export type BatchItemResult = { customId: string; response: ResponseRecord } | { customId: string; error: string };

/** The JSONL input line of one request: the same body an interactive call sends, so both modes ask the same thing. */
export function batchInputLine(item: BatchItem): string {
  return JSON.stringify({ custom_id: item.customId, method: 'POST', url: '/v1/chat/completions', body: chatCompletionBody(item.request) });
}

/**
 * Lines grouped into files, each within the limits (a newline counts toward the size). A single line over the size
 * limit is still given a file of its own: the vendor rejects that one item, not the whole run.
 */
export function splitIntoFiles(lines: Iterable<string>, limits: BatchLimits): string[][] {
  const files: string[][] = [];
  let current: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const size = Buffer.byteLength(line) + 1;
    if (current.length > 0 && (current.length >= limits.requests || bytes + size > limits.bytes)) {
      files.push(current);
      current = [];
      bytes = 0;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) files.push(current);
  return files;
}

/** Vendor statuses folded into what the caller acts on: keep waiting, collect, or stop. */
export function batchStateOf(status: Batch['status']): BatchState {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'failed':
      return 'failed';
    case 'expired':
      return 'expired';
    case 'cancelled':
      return 'cancelled';
    default:
      return 'pending';
  }
}

export interface PollOptions {
  signal: AbortSignal;
  /** First wait between polls; doubled after each poll up to `maxIntervalMs`. */
  initialIntervalMs?: number;
  maxIntervalMs?: number;
}

export class OpenAIBatchClient {
  private readonly client: () => OpenAI;
  private readonly apiKey: string | undefined;
  private readonly label: string;

  constructor(options: OpenAIProviderOptions, private readonly limits: BatchLimits = OPENAI_BATCH_LIMITS) {
    this.client = openAIClientOnFirstUse(options);
    this.apiKey = options.apiKey;
    this.label = options.label ?? 'OpenAI';
  }

  /** Uploads and submits the items as as many batches as the limits need; each is returned as soon as it exists. */
  async *submit(items: BatchItem[], signal: AbortSignal): AsyncGenerator<SubmittedBatch> {
    const ids = new Set<string>();
    for (const item of items) {
      if (ids.has(item.customId)) throw new Error(`batch custom_id '${item.customId}' appears twice: identical requests are sent once`);
      ids.add(item.customId);
    }
    const lines = items.map((item) => ({ id: item.customId, line: batchInputLine(item) }));
    const byLine = new Map(lines.map((entry) => [entry.line, entry.id]));
    for (const file of splitIntoFiles(lines.map((entry) => entry.line), this.limits)) {
      yield await this.call(signal, async (callSignal) => {
        const uploaded = await this.client().files.create({ file: await loadVendor('openai').toFile(Buffer.from(`${file.join('\n')}\n`), 'rag-inspector-batch.jsonl'), purpose: 'batch' }, { signal: callSignal });
        const batch = await this.client().batches.create({ input_file_id: uploaded.id, endpoint: '/v1/chat/completions', completion_window: '24h' }, { signal: callSignal });
        return { batchId: batch.id, inputFileId: uploaded.id, customIds: file.map((line) => byLine.get(line) ?? '') };
      });
    }
  }

  async state(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return batchStateOf((await this.retrieve(batchId, signal)).status);
  }

  /** Polls until the batch is no longer pending, waiting longer each time (a batch takes minutes to hours). */
  async waitFor(batchId: string, options: PollOptions): Promise<BatchState> {
    let interval = options.initialIntervalMs ?? 5_000;
    const maxInterval = options.maxIntervalMs ?? 5 * 60_000;
    for (;;) {
      const state = await this.state(batchId, options.signal);
      if (state !== 'pending') return state;
      await pause(interval, options.signal, this.label);
      interval = Math.min(interval * 2, maxInterval);
    }
  }

  /** Every item's result from the output and error files of a finished batch, one at a time. */
  async *results(batchId: string, signal: AbortSignal): AsyncGenerator<BatchItemResult> {
    const batch = await this.retrieve(batchId, signal);
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const text = await this.call(signal, async (callSignal) => (await this.client().files.content(fileId, { signal: callSignal })).text());
      for (const line of text.split('\n')) {
        if (line.trim() !== '') yield this.itemResult(line);
      }
    }
  }

  async cancel(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return batchStateOf((await this.call(signal, (callSignal) => this.client().batches.cancel(batchId, { signal: callSignal }))).status);
  }

  private retrieve(batchId: string, signal: AbortSignal): Promise<Batch> {
    return this.call(signal, (callSignal) => this.client().batches.retrieve(batchId, { signal: callSignal }));
  }

  private itemResult(line: string): BatchItemResult {
    const item = JSON.parse(line) as { custom_id: string; response?: { status_code: number; body: unknown } | null; error?: { code?: string; message?: string } | null };
    const response = item.response;
    if (response && response.status_code === 200) {
      try {
        // Latency is not the model's here (the batch's queueing dominates), so it is not reported as one.
        return { customId: item.custom_id, response: { ...outcomeOfCompletion(response.body, this.label), latencyMs: 0, cached: false } };
      } catch (error) {
        return { customId: item.custom_id, error: error instanceof Error ? error.message : String(error) };
      }
    }
    const bodyError = (response?.body as { error?: { message?: string } } | undefined)?.error?.message;
    const reason = item.error?.message ?? bodyError ?? `HTTP ${response?.status_code ?? 'unknown'}`;
    return { customId: item.custom_id, error: `${this.label} batch item failed: ${reason}` };
  }

  /**
   * Each SDK request gets a signal of its own that follows the caller's: the SDK leaves a listener on the signal it is
   * given, and a run's signal lives through hours of polls.
   */
  private async call<T>(signal: AbortSignal, run: (callSignal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      if (signal.aborted) throw abortError(this.label, signal);
      return await run(AbortSignal.any([signal]));
    } catch (error) {
      throw toProviderError(error, { vendor: this.label, signal, secrets: [this.apiKey] });
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
