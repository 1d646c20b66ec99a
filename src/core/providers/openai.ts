// The OpenAI chat-completions provider; also serves any OpenAI-compatible server (Ollama, vLLM, LM Studio, Azure via baseURL).
import type { OpenAI } from 'openai';
import type { ChatCompletion, ChatCompletionChunk, ChatCompletionCreateParamsNonStreaming, ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { ResponseRecord, Usage } from '../model.js';
import { ProviderError } from './contract.js';
import type { CallOptions, CompletionRequest, Provider, ServerSlots } from './contract.js';
import { fetchServerSlots } from './serverSlots.js';
import { nodeFetch } from './nodeFetch.js';
import { chatEndpointOf, postChatCompletion } from './openaiChat.js';
import type { ChatEndpoint } from './openaiChat.js';
import { abortError } from './errors.js';
import { timedCompletion, vendorCall } from './timedCompletion.js';
import type { CompletionOutcome, VendorContext } from './timedCompletion.js';
import { publicEndpoint } from './secrets.js';
import { loadVendor, onFirstUse } from '../vendor/load.js';

export interface OpenAIProviderOptions {
  /** Undefined for servers that take no key (a local Ollama): then no Authorization header is sent at all. */
  apiKey?: string;
  baseURL: string;
  label?: string;
  /** "openai" or "openai-compatible"; what the cache key and the run log record. */
  id?: string;
  defaultHeaders?: Record<string, string>;
}

/**
 * Our scheduler owns retries and per-call time limits (through the AbortSignal), so the SDK must do neither:
 * no retries, and a time limit far beyond any the scheduler would set.
 */
export const SDK_TIMEOUT_MS = 60 * 60_000;

/**
 * An OpenAI SDK client made on the first call that needs it, with the SDK's own retries off and no key picked up from
 * the environment behind our back. Not at construction: loading the SDK is what a run without OpenAI models skips.
 */
export function openAIClientOnFirstUse(options: OpenAIProviderOptions): () => OpenAI {
  return onFirstUse(() => createOpenAIClient(options));
}

function createOpenAIClient(options: OpenAIProviderOptions): OpenAI {
  const keyless = options.apiKey === undefined;
  const { OpenAI } = loadVendor('openai');
  return new OpenAI({
    // The SDK refuses to start without some key; for a keyless server a placeholder is given and its header removed below.
    apiKey: options.apiKey ?? 'no-key',
    baseURL: options.baseURL,
    maxRetries: 0,
    timeout: SDK_TIMEOUT_MS,
    // Providers never log: what went wrong travels in the ProviderError (the SDK would print bad stream chunks).
    logLevel: 'off',
    defaultHeaders: { ...options.defaultHeaders, ...(keyless ? { Authorization: null } : {}) },
    fetch: nodeFetch,
  });
}

export class OpenAIProvider implements Provider {
  readonly id: string;
  readonly label: string;
  readonly endpoint: string;
  private readonly client: () => OpenAI;
  /** Where a chat completion that is not streamed is POSTed, and with which headers: built by the SDK on the first. */
  private chatRequest: Promise<ChatEndpoint> | undefined;
  private readonly apiKey: string | undefined;
  private readonly baseURL: string;
  private readonly defaultHeaders: Record<string, string>;
  /** The label errors are worded with, and the key none may carry. */
  private readonly vendor: VendorContext;

  constructor(options: OpenAIProviderOptions) {
    this.id = options.id ?? 'openai';
    this.label = options.label ?? (this.id === 'openai' ? 'OpenAI' : `OpenAI-compatible (${publicEndpoint(options.baseURL)})`);
    this.endpoint = publicEndpoint(options.baseURL);
    this.apiKey = options.apiKey;
    this.vendor = { vendor: this.label, secret: options.apiKey };
    this.baseURL = options.baseURL;
    this.defaultHeaders = options.defaultHeaders ?? {};
    this.client = openAIClientOnFirstUse(options);
  }

  complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord> {
    return timedCompletion(this.vendor, options, (signal) => {
      const body = chatCompletionBody(request);
      return request.stream ? this.completeStreaming(body, signal) : this.completeOnce(body, signal);
    });
  }

  listModels(options: CallOptions): Promise<string[]> {
    return vendorCall(this.vendor, options, (signal) => listModelIds(this.client(), signal));
  }

  /** llama.cpp's slots and context; OpenAI itself has no /props, so it is not asked. */
  async serverSlots(options: CallOptions): Promise<ServerSlots | undefined> {
    if (this.id === 'openai') return undefined;
    const headers: Record<string, string> = { ...this.defaultHeaders, ...(this.apiKey !== undefined ? { Authorization: `Bearer ${this.apiKey}` } : {}) };
    return fetchServerSlots({ baseURL: this.baseURL, headers, signal: options.signal });
  }

  /** Without the SDK's per-call work (openaiChat.ts); its answer and its errors are the SDK's. */
  private async completeOnce(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<Outcome> {
    const completion = await postChatCompletion(await this.chatEndpoint(), body, signal);
    return outcomeOfCompletion(completion, this.label);
  }

  private chatEndpoint(): Promise<ChatEndpoint> {
    this.chatRequest ??= chatEndpointOf(this.client()).catch((error: unknown) => {
      this.chatRequest = undefined; // asked again by the next call, as the SDK would build each request anew
      throw error;
    });
    return this.chatRequest;
  }

  private async completeStreaming(body: ChatCompletionCreateParamsNonStreaming, signal: AbortSignal): Promise<Outcome> {
    const streamingBody = { stream_options: { include_usage: true }, ...body, stream: true } as ChatCompletionCreateParamsStreaming;
    const stream = await this.client().chat.completions.create(streamingBody, { signal });
    const accumulated = new StreamAccumulator();
    for await (const chunk of stream) accumulated.add(chunk);
    // The SDK ends a stream quietly when it is aborted; an abort is still the caller's cancellation.
    if (signal.aborted) throw abortError(this.label, signal);
    return accumulated.outcome(this.label);
  }
}

/** GET /models, every page: what an OpenAI-compatible server serves (the chat and the embeddings providers' preflight). */
export async function listModelIds(client: OpenAI, signal: AbortSignal): Promise<string[]> {
  const ids: string[] = [];
  for await (const model of client.models.list({ signal })) ids.push(model.id);
  return ids;
}

export type Outcome = CompletionOutcome;

/**
 * The request body. `max_tokens` rather than `max_completion_tokens`: the v6 SDK marks it deprecated, but it is
 * the field every OpenAI-compatible server (Ollama, vLLM, LM Studio, older Azure API versions) understands, and
 * OpenAI still accepts it for chat models. OpenAI's reasoning models (o-series, gpt-5) want
 * `max_completion_tokens`: put it in `extra` and `max_tokens` is left out.
 */
export function chatCompletionBody(request: CompletionRequest): ChatCompletionCreateParamsNonStreaming {
  const extra = request.extra ?? {};
  const body: Record<string, unknown> = {
    model: request.model,
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
    temperature: request.temperature,
    top_p: request.topP,
    max_tokens: 'max_completion_tokens' in extra ? undefined : request.maxTokens,
    stop: request.stop && request.stop.length > 0 ? request.stop : undefined,
    seed: request.seed,
  };
  if (request.structuredOutput) {
    body.response_format = { type: 'json_schema', json_schema: { name: request.structuredOutput.name, schema: request.structuredOutput.schema, strict: true } };
  }
  Object.assign(body, extra);
  return dropUndefined(body) as unknown as ChatCompletionCreateParamsNonStreaming;
}

function dropUndefined(body: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

function usageOf(usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined): Usage {
  // Zero when the server reported nothing (some compatible servers omit usage); never an estimate posing as a count.
  return { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 };
}

export function outcomeOfCompletion(completion: unknown, vendor: string): Outcome {
  const choice = (completion as Partial<ChatCompletion> | undefined)?.choices?.[0];
  if (!choice?.message) throw new ProviderError('bad_response', `${vendor}: the response has no choices[0].message`);
  const { content, refusal } = choice.message;
  // A structured-output refusal comes back in `refusal` with no content; it is still the model's answer.
  const text = content ?? refusal ?? '';
  return { text, usage: usageOf((completion as ChatCompletion).usage), finishReason: content === null && refusal ? 'refusal' : (choice.finish_reason ?? undefined) };
}

class StreamAccumulator {
  private text = '';
  private refusal = '';
  private finishReason: string | undefined;
  private usage: Usage | undefined;

  add(chunk: ChatCompletionChunk): void {
    const choice = chunk.choices?.[0];
    if (choice?.delta?.content) this.text += choice.delta.content;
    if (choice?.delta?.refusal) this.refusal += choice.delta.refusal;
    if (choice?.finish_reason) this.finishReason = choice.finish_reason;
    if (chunk.usage) this.usage = usageOf(chunk.usage);
  }

  outcome(vendor: string): Outcome {
    if (this.finishReason === undefined) throw new ProviderError('bad_response', `${vendor}: the stream ended before the model finished (no finish_reason)`);
    const refused = this.text === '' && this.refusal !== '';
    return { text: refused ? this.refusal : this.text, usage: this.usage ?? usageOf(undefined), finishReason: refused ? 'refusal' : this.finishReason };
  }
}
