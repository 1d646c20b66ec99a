// The Anthropic Messages API provider: system prompt apart, assistant pre-fill, structured output through a forced tool.
import type { Anthropic } from '@anthropic-ai/sdk';
import type { Message, MessageCreateParamsNonStreaming, MessageCreateParamsStreaming, MessageParam, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { ChatMessage, ResponseRecord, Usage } from '../model.js';
import { ProviderError } from './contract.js';
import type { CallOptions, CompletionRequest, Provider } from './contract.js';
import { abortError } from './errors.js';
import { timedCompletion, vendorCall } from './timedCompletion.js';
import type { CompletionOutcome, VendorContext } from './timedCompletion.js';
import { publicEndpoint } from './secrets.js';
import { nodeFetch } from './nodeFetch.js';
import { loadVendor, onFirstUse } from '../vendor/load.js';

export interface AnthropicProviderOptions {
  apiKey: string;
  baseURL: string;
  label?: string;
  defaultHeaders?: Record<string, string>;
}

/** Far beyond any per-call limit: the scheduler owns time limits (through the signal) and retries, the SDK neither. */
const SDK_TIMEOUT_MS = 60 * 60_000;

/** The Messages API requires max_tokens; this is used when the eval file sets none. */
export const DEFAULT_MAX_TOKENS = 1024;

/**
 * The SDK client the interactive provider and the batch client (anthropicBatch.ts) use, made on the first call, not at
 * construction: loading the SDK (1.2 MB) is what a run without Anthropic models skips.
 */
export function anthropicClientOnFirstUse(options: AnthropicProviderOptions): () => Anthropic {
  return onFirstUse(() => {
    const { Anthropic } = loadVendor('anthropic');
    // The key is passed explicitly so the SDK never falls back to its credential chain (config files, env).
    // Providers never log (logLevel off): what went wrong travels in the ProviderError.
    return new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0, timeout: SDK_TIMEOUT_MS, logLevel: 'off', defaultHeaders: options.defaultHeaders, fetch: nodeFetch });
  });
}

/**
 * Pre-fill: when the conversation ends with an assistant message, Claude continues it. The returned `text` is the
 * continuation only (what the model produced), so scorers judge the model's words, not the template's; the case's
 * messages keep the pre-fill, so the inspector still shows exactly what was sent.
 */
export class AnthropicProvider implements Provider {
  readonly id = 'anthropic';
  readonly label: string;
  readonly endpoint: string;
  /** Made on the first call, not at construction: loading the SDK (1.2 MB) is what a run without Anthropic models skips. */
  private readonly client: () => Anthropic;
  /** The label errors are worded with, and the key none may carry. */
  private readonly vendor: VendorContext;

  constructor(options: AnthropicProviderOptions) {
    this.label = options.label ?? 'Anthropic';
    this.endpoint = publicEndpoint(options.baseURL);
    this.vendor = { vendor: this.label, secret: options.apiKey };
    this.client = anthropicClientOnFirstUse(options);
  }

  complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord> {
    return timedCompletion(this.vendor, options, (signal) => {
      const body = messagesBody(request);
      return request.stream ? this.completeStreaming(body, signal) : this.completeOnce(body, signal);
    });
  }

  listModels(options: CallOptions): Promise<string[]> {
    return vendorCall(this.vendor, options, async (signal) => {
      const ids: string[] = [];
      for await (const model of this.client().models.list({}, { signal })) ids.push(model.id);
      return ids;
    });
  }

  private async completeOnce(body: MessageCreateParamsNonStreaming, signal: AbortSignal): Promise<Outcome> {
    const message: unknown = await this.client().messages.create(body, { signal });
    return outcomeOfMessage(message, toolNameOf(body), this.label);
  }

  private async completeStreaming(body: MessageCreateParamsNonStreaming, signal: AbortSignal): Promise<Outcome> {
    const stream = await this.client().messages.create({ ...body, stream: true } as MessageCreateParamsStreaming, { signal });
    const accumulated = new StreamAccumulator(toolNameOf(body));
    for await (const event of stream) accumulated.add(event);
    // The SDK ends a stream quietly when it is aborted; an abort is still the caller's cancellation.
    if (signal.aborted) throw abortError(this.label, signal);
    return accumulated.outcome(this.label);
  }
}

type Outcome = CompletionOutcome;

/**
 * Every system message goes to `system` (joined, in order), the rest stay in order. A trailing assistant message
 * is sent as the pre-fill with its trailing whitespace removed, because the API rejects a final assistant turn
 * that ends in whitespace.
 */
export function splitConversation(messages: ChatMessage[]): { system: string | undefined; messages: MessageParam[] } {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const turns: MessageParam[] = messages.filter((message) => message.role !== 'system').map((message) => ({ role: message.role as 'user' | 'assistant', content: message.content }));
  const last = turns.at(-1);
  if (last?.role === 'assistant' && typeof last.content === 'string') last.content = last.content.trimEnd();
  return { system: system.length > 0 ? system.join('\n\n') : undefined, messages: turns };
}

/** The request body. Anthropic has no seed parameter, so `seed` is not sent (it still counts in the cache key). */
export function messagesBody(request: CompletionRequest): MessageCreateParamsNonStreaming {
  const { system, messages } = splitConversation(request.messages);
  const body: Record<string, unknown> = {
    model: request.model,
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    system,
    messages,
    temperature: request.temperature,
    top_p: request.topP,
    stop_sequences: request.stop && request.stop.length > 0 ? request.stop : undefined,
  };
  if (request.structuredOutput) {
    const { name, schema } = request.structuredOutput;
    body.tools = [{ name, description: `Report the answer as ${name}.`, input_schema: schema }];
    body.tool_choice = { type: 'tool', name };
  }
  Object.assign(body, request.extra ?? {});
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined)) as unknown as MessageCreateParamsNonStreaming;
}

function toolNameOf(body: MessageCreateParamsNonStreaming): string | undefined {
  const choice = body.tool_choice;
  return choice?.type === 'tool' ? choice.name : undefined;
}

/** Input counts every input token, cached or not: all of them were sent, and prices.ts has no cache discount. */
function usageOf(usage: Partial<Pick<Message['usage'], 'input_tokens' | 'output_tokens' | 'cache_creation_input_tokens' | 'cache_read_input_tokens'>> | undefined): Usage {
  const input = (usage?.input_tokens ?? 0) + (usage?.cache_creation_input_tokens ?? 0) + (usage?.cache_read_input_tokens ?? 0);
  return { inputTokens: input, outputTokens: usage?.output_tokens ?? 0 };
}

/**
 * The forced tool's input as JSON text when the model called it; otherwise the text blocks, so a judge that
 * answered in prose is seen as what it is (a judge error downstream), not hidden.
 */
export function outcomeOfMessage(message: unknown, toolName: string | undefined, vendor: string): Outcome {
  const content = (message as Partial<Message> | undefined)?.content;
  if (!Array.isArray(content)) throw new ProviderError('bad_response', `${vendor}: the response has no content array`);
  const toolUse = content.find((block) => block.type === 'tool_use' && block.name === toolName);
  const text = toolUse && 'input' in toolUse ? JSON.stringify(toolUse.input) : content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return { text, usage: usageOf((message as Message).usage), finishReason: (message as Message).stop_reason ?? undefined };
}

class StreamAccumulator {
  private readonly text: string[] = [];
  private readonly toolJson = new Map<number, string>();
  private usage: Usage = { inputTokens: 0, outputTokens: 0 };
  private stopReason: string | undefined;
  private stopped = false;

  constructor(private readonly toolName: string | undefined) {}

  add(event: RawMessageStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.usage = usageOf(event.message.usage);
        break;
      case 'content_block_start':
        if (event.content_block.type === 'tool_use' && event.content_block.name === this.toolName) this.toolJson.set(event.index, '');
        else if (event.content_block.type === 'text') this.text.push(event.content_block.text);
        break;
      case 'content_block_delta':
        if (event.delta.type === 'text_delta') this.text.push(event.delta.text);
        else if (event.delta.type === 'input_json_delta' && this.toolJson.has(event.index)) this.toolJson.set(event.index, (this.toolJson.get(event.index) ?? '') + event.delta.partial_json);
        break;
      case 'message_delta':
        // message_delta carries the cumulative output count; input is only reported again by some servers.
        this.usage = { inputTokens: Math.max(this.usage.inputTokens, usageOf(event.usage as Partial<Message['usage']>).inputTokens), outputTokens: event.usage.output_tokens ?? this.usage.outputTokens };
        this.stopReason = event.delta.stop_reason ?? this.stopReason;
        break;
      case 'message_stop':
        this.stopped = true;
        break;
    }
  }

  outcome(vendor: string): Outcome {
    if (!this.stopped) throw new ProviderError('bad_response', `${vendor}: the stream ended before message_stop`);
    const [toolJson] = this.toolJson.values();
    // Re-serialised so streamed and non-streamed tool input read the same; unparsable JSON is passed on as sent.
    const text = toolJson !== undefined ? normaliseJson(toolJson) : this.text.join('');
    return { text, usage: this.usage, finishReason: this.stopReason };
  }
}

function normaliseJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text === '' ? '{}' : text));
  } catch {
    return text;
  }
}
