// The OpenAI Batch API through the official SDK: requests written as JSONL files within the vendor's limits, uploaded
// (client.files.create), submitted (client.batches.create), polled with backoff, results read back per item, cancelled.
// run/batchingProvider.ts drives it, as it drives Anthropic's (anthropicBatch.ts), through the BatchClient interface.
import type { OpenAI } from 'openai';
import type { Batch } from 'openai/resources/batches';
import { batchCall, checkUniqueIds, isTransientStatus, pollUntilSettled, splitWithinLimits } from './batch.js';
import type { BatchClient, BatchItem, BatchItemResult, BatchLimits, BatchProgress, BatchState, PollOptions, SubmittedBatch } from './batch.js';
import { chatCompletionBody, openAIClientOnFirstUse, outcomeOfCompletion } from './openai.js';
import type { OpenAIProviderOptions } from './openai.js';
import { loadVendor } from '../vendor/load.js';

/** OpenAI's per-file limits for a batch input: 50,000 requests and 200 MB. */
export const OPENAI_BATCH_LIMITS: BatchLimits = { requests: 50_000, bytes: 200 * 1024 * 1024 };

/** The JSONL input line of one request: the same body an interactive call sends, so both modes ask the same thing. */
export function batchInputLine(item: BatchItem): string {
  return JSON.stringify({ custom_id: item.customId, method: 'POST', url: '/v1/chat/completions', body: chatCompletionBody(item.request) });
}

/** Lines grouped into files within the limits; a newline counts toward a file's size. */
export function splitIntoFiles(lines: Iterable<string>, limits: BatchLimits): string[][] {
  return splitWithinLimits(lines, (line) => Buffer.byteLength(line) + 1, limits);
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

export class OpenAIBatchClient implements BatchClient {
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
    checkUniqueIds(items);
    const lines = items.map((item) => ({ id: item.customId, line: batchInputLine(item) }));
    const byLine = new Map(lines.map((entry) => [entry.line, entry.id]));
    for (const file of splitIntoFiles(lines.map((entry) => entry.line), this.limits)) {
      // The upload may be repeated (a second file is only an unused file); the create may not (see batchCall).
      const uploaded = await this.call(signal, async (callSignal) => this.client().files.create({ file: await loadVendor('openai').toFile(Buffer.from(`${file.join('\n')}\n`), 'rag-inspector-batch.jsonl'), purpose: 'batch' }, { signal: callSignal }), true);
      const batch = await this.call(signal, (callSignal) => this.client().batches.create({ input_file_id: uploaded.id, endpoint: '/v1/chat/completions', completion_window: '24h' }, { signal: callSignal }));
      yield { batchId: batch.id, inputFileId: uploaded.id, customIds: file.map((line) => byLine.get(line) ?? '') };
    }
  }

  async state(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return (await this.progress(batchId, signal)).state;
  }

  waitFor(batchId: string, options: PollOptions): Promise<BatchState> {
    return pollUntilSettled(batchId, (signal) => this.progress(batchId, signal), options, this.label);
  }

  private async progress(batchId: string, signal: AbortSignal): Promise<BatchProgress> {
    const batch = await this.retrieve(batchId, signal);
    const counts = batch.request_counts;
    return { batchId, state: batchStateOf(batch.status), done: (counts?.completed ?? 0) + (counts?.failed ?? 0), total: counts?.total ?? 0 };
  }

  /** Every item's result from the output and error files of a finished batch, one at a time. */
  async *results(batchId: string, signal: AbortSignal): AsyncGenerator<BatchItemResult> {
    const batch = await this.retrieve(batchId, signal);
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const text = await this.call(signal, async (callSignal) => (await this.client().files.content(fileId, { signal: callSignal })).text(), true);
      for (const line of text.split('\n')) {
        const result = line.trim() === '' ? undefined : this.itemResult(line);
        if (result) yield result;
      }
    }
  }

  async cancel(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return batchStateOf((await this.call(signal, (callSignal) => this.client().batches.cancel(batchId, { signal: callSignal }), true)).status);
  }

  private retrieve(batchId: string, signal: AbortSignal): Promise<Batch> {
    return this.call(signal, (callSignal) => this.client().batches.retrieve(batchId, { signal: callSignal }), true);
  }

  /** undefined for an item the batch's cancellation left unprocessed: the engine sends it again in a later batch. */
  private itemResult(line: string): BatchItemResult | undefined {
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
    if (item.error?.code === 'batch_cancelled') return undefined;
    const bodyError = (response?.body as { error?: { message?: string } } | undefined)?.error?.message;
    const reason = item.error?.message ?? bodyError ?? `HTTP ${response?.status_code ?? 'unknown'}`;
    // An item the 24-hour window closed on, or one a busy server failed, may well be answered when asked again.
    const retry = item.error?.code === 'batch_expired' || isTransientStatus(response?.status_code);
    return { customId: item.custom_id, error: `${this.label} batch item ${item.error?.code === 'batch_expired' ? 'expired' : 'failed'}: ${reason}`, ...(retry ? { retry } : {}) };
  }

  private call<T>(signal: AbortSignal, run: (callSignal: AbortSignal) => Promise<T>, repeatable = false): Promise<T> {
    return batchCall({ vendor: this.label, secret: this.apiKey }, signal, run, repeatable);
  }
}
