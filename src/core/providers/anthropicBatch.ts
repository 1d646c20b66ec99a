// Anthropic's Message Batches through the official SDK (client.messages.batches): the requests go inline in the create
// call, split within the vendor's limits; batches are polled with backoff, read back per item from the results JSONL,
// cancelled. run/batchingProvider.ts drives it through the same BatchClient interface as OpenAI's (openaiBatch.ts).
import type { Anthropic } from '@anthropic-ai/sdk';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import type { Message, MessageCreateParamsNonStreaming } from '@anthropic-ai/sdk/resources/messages';
import { anthropicClientOnFirstUse, messagesBody, outcomeOfMessage } from './anthropic.js';
import type { AnthropicProviderOptions } from './anthropic.js';
import { batchCall, checkUniqueIds, pollUntilSettled, splitWithinLimits } from './batch.js';
import type { BatchClient, BatchItem, BatchItemResult, BatchLimits, BatchProgress, BatchState, PollOptions, SubmittedBatch } from './batch.js';

/** Anthropic's limits on one Message Batch: 100,000 requests and 256 MB. */
export const ANTHROPIC_BATCH_LIMITS: BatchLimits = { requests: 100_000, bytes: 256 * 1024 * 1024 };

/** Error types a later attempt may not meet: the vendor's own failures and its load, not the request. */
const TRANSIENT_ERROR_TYPES: ReadonlySet<string> = new Set(['api_error', 'overloaded_error', 'rate_limit_error', 'timeout_error']);

interface BatchRequest {
  custom_id: string;
  params: MessageCreateParamsNonStreaming;
}

/** One request of a batch: the same body an interactive call sends, so both modes ask the same thing. */
export function batchRequestOf(item: BatchItem): BatchRequest {
  return { custom_id: item.customId, params: messagesBody(item.request) };
}

/**
 * Ended with a cancellation asked for: its unprocessed items came back `canceled` and are sent again later. An ended
 * batch is otherwise complete: Anthropic reports failures and expiry per item, never for the batch.
 */
export function batchStateOf(batch: Pick<MessageBatch, 'processing_status' | 'cancel_initiated_at'>): BatchState {
  if (batch.processing_status !== 'ended') return 'pending';
  return batch.cancel_initiated_at ? 'cancelled' : 'completed';
}

export class AnthropicBatchClient implements BatchClient {
  /** Made on the first call: loading the SDK is what a run without Anthropic models skips. */
  private readonly client: () => Anthropic;
  private readonly apiKey: string;
  private readonly label: string;

  constructor(options: AnthropicProviderOptions, private readonly limits: BatchLimits = ANTHROPIC_BATCH_LIMITS) {
    this.client = anthropicClientOnFirstUse(options);
    this.apiKey = options.apiKey;
    this.label = options.label ?? 'Anthropic';
  }

  async *submit(items: BatchItem[], signal: AbortSignal): AsyncGenerator<SubmittedBatch> {
    checkUniqueIds(items);
    // Sized as they go over the wire: each request's JSON and the comma between them.
    const requests = items.map((item) => {
      const request = batchRequestOf(item);
      return { request, size: Buffer.byteLength(JSON.stringify(request)) + 1 };
    });
    for (const group of splitWithinLimits(requests, (entry) => entry.size, this.limits)) {
      const created = await this.call(signal, (callSignal) => this.client().messages.batches.create({ requests: group.map((entry) => entry.request) }, { signal: callSignal }));
      yield { batchId: created.id, customIds: group.map((entry) => entry.request.custom_id) };
    }
  }

  async state(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return (await this.progress(batchId, signal)).state;
  }

  waitFor(batchId: string, options: PollOptions): Promise<BatchState> {
    return pollUntilSettled(batchId, (signal) => this.progress(batchId, signal), options, this.label);
  }

  async *results(batchId: string, signal: AbortSignal): AsyncGenerator<BatchItemResult> {
    const decoder = await this.call(signal, (callSignal) => this.client().messages.batches.results(batchId, {}, { signal: callSignal }), true);
    // The results stream is read under the caller's signal too; a failure mid-stream is a ProviderError like any other.
    const lines = decoder[Symbol.asyncIterator]();
    for (;;) {
      // A stream broken halfway is not read again from here: the items already yielded were handed out.
      const next = await this.call(signal, () => lines.next());
      if (next.done) return;
      const result = this.itemResult(next.value);
      if (result) yield result;
    }
  }

  async cancel(batchId: string, signal: AbortSignal): Promise<BatchState> {
    return batchStateOf(await this.call(signal, (callSignal) => this.client().messages.batches.cancel(batchId, {}, { signal: callSignal }), true));
  }

  private async progress(batchId: string, signal: AbortSignal): Promise<BatchProgress> {
    const batch = await this.call(signal, (callSignal) => this.client().messages.batches.retrieve(batchId, {}, { signal: callSignal }), true);
    const { processing, succeeded, errored, canceled, expired } = batch.request_counts;
    const done = succeeded + errored + canceled + expired;
    return { batchId, state: batchStateOf(batch), done, total: done + processing };
  }

  /** undefined for an item a cancellation left unprocessed: the engine sends it again in a later batch. */
  private itemResult(item: MessageBatchIndividualResponse): BatchItemResult | undefined {
    const { custom_id: customId, result } = item;
    switch (result.type) {
      case 'succeeded':
        try {
          // Latency is not the model's here (the batch's queueing dominates), so it is not reported as one.
          return { customId, response: { ...outcomeOfMessage(result.message, forcedToolOf(result.message), this.label), latencyMs: 0, cached: false } };
        } catch (error) {
          return { customId, error: error instanceof Error ? error.message : String(error) };
        }
      case 'errored': {
        const { type, message } = result.error.error;
        return { customId, error: `${this.label} batch item failed: ${message} (${type})`, ...(TRANSIENT_ERROR_TYPES.has(type) ? { retry: true } : {}) };
      }
      case 'expired':
        return { customId, error: `${this.label} batch item expired: the batch's 24-hour window closed before it was processed`, retry: true };
      case 'canceled':
        return undefined;
    }
  }

  private call<T>(signal: AbortSignal, run: (callSignal: AbortSignal) => Promise<T>, repeatable = false): Promise<T> {
    return batchCall({ vendor: this.label, secret: this.apiKey }, signal, run, repeatable);
  }
}

/**
 * The tool a structured request forced. The result does not echo the request, but messagesBody offers exactly one
 * tool and forces it, so a tool_use block in the answer is that tool.
 */
function forcedToolOf(message: Message): string | undefined {
  const block = message.content.find((entry) => entry.type === 'tool_use');
  return block?.type === 'tool_use' ? block.name : undefined;
}
