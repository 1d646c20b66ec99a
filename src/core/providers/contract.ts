// The one contract every model provider implements (see CONTRACT.md beside this file).
import type { ChatMessage, ResponseRecord, StructuredOutput, TruncatedPolicy, Usage } from '../model.js';

export interface CompletionRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  stop?: string[];
  seed?: number;
  /** Stream the response (the result is the same; streaming lets long answers survive proxies' idle timeouts). */
  stream?: boolean;
  structuredOutput?: StructuredOutput;
  /** Vendor-specific extras passed through unchanged (and part of the cache key). */
  extra?: Record<string, unknown>;
}

export interface CallOptions {
  signal: AbortSignal;
}

/** What went wrong on a call, in terms the scheduler can act on. */
export type ProviderErrorKind =
  | 'rate_limit'    // 429: back off, honour Retry-After
  | 'server'        // 5xx
  | 'timeout'       // no answer in time
  | 'network'       // connection refused / reset / dropped
  | 'bad_response'  // the body could not be understood
  | 'auth'          // 401/403: retrying will not help
  | 'bad_request'   // 400/404/422: retrying will not help
  | 'context_overflow' // the prompt does not fit the model's context (any status): retrying the same prompt will not help
  | 'shared_context' // the requests in flight together filled a context the server's slots share (llama.cpp 500): fewer at once fit
  | 'not_supported' // 501: the server cannot do this at all (llama.cpp without --embeddings)
  | 'cancelled';    // the caller aborted

const RETRYABLE: ReadonlySet<ProviderErrorKind> = new Set(['rate_limit', 'server', 'timeout', 'network', 'bad_response', 'shared_context']);

/** Whether a later attempt may succeed where this kind of failure happened. */
export function isRetryableKind(kind: ProviderErrorKind): boolean {
  return RETRYABLE.has(kind);
}

/** A vendor failure. Usage is kept when the vendor reported any (a failed call may still cost). */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  /** From Retry-After / retry-after-ms when the server sent one. */
  readonly retryAfterMs?: number;
  readonly usage?: Usage;

  constructor(kind: ProviderErrorKind, message: string, options: { status?: number; retryAfterMs?: number; usage?: Usage; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
    this.usage = options.usage;
  }

  get retryable(): boolean {
    return isRetryableKind(this.kind);
  }
}

/** Misconfiguration (no key, bad base URL…): thrown, not retried, with a message that says how to fix it. */
export class ProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProviderConfigError';
  }
}

export interface Provider {
  /** "openai", "anthropic", "extractive"… */
  readonly id: string;
  /** Shown to users; a baseline says so. */
  readonly label: string;
  /** Identity of the endpoint for the cache key (e.g. base URL), never a secret. */
  readonly endpoint: string;
  complete(request: CompletionRequest, options: CallOptions): Promise<ResponseRecord>;
  /**
   * The model ids the endpoint serves (GET /models), for the run's preflight: one cheap request that fails the way
   * every case would (refused connection, wrong key, wrong path). Absent for providers with no server to ask.
   */
  listModels?(options: CallOptions): Promise<string[]>;
  /**
   * How a local server shares itself between requests (llama.cpp's -np slots and -c context), for the preflight's
   * advice; undefined when the server does not say. Absent for providers whose servers never do.
   */
  serverSlots?(options: CallOptions): Promise<ServerSlots | undefined>;
}

/** A server's parallel slots and context, as llama.cpp reports them (GET /props, GET /v1/models). */
export interface ServerSlots {
  /** Requests decoded at once (llama.cpp -np, /props total_slots). */
  slots: number;
  /** Tokens one request may use, prompt and answer (/props default_generation_settings.n_ctx). */
  slotContext?: number;
  /** The whole context (-c; /v1/models meta.n_ctx), when the server reports it. */
  context?: number;
}

export interface EmbeddingRequest {
  model: string;
  input: string[];
}

export interface EmbeddingResult {
  vectors: number[][];
  usage: Usage;
  latencyMs: number;
}

export interface EmbeddingProvider {
  readonly id: string;
  readonly endpoint: string;
  embed(request: EmbeddingRequest, options: CallOptions): Promise<EmbeddingResult>;
  /** As Provider.listModels: the model ids the endpoint serves, for the run's preflight. */
  listModels?(options: CallOptions): Promise<string[]>;
}

/** A model entry of the eval file (`models`, `judge`, `embeddings`): what a provider is made from. */
export interface ModelSpec {
  /** "openai" | "anthropic" | "extractive" | "openai-compatible" names registered in providers/registry.ts. */
  provider: string;
  model: string;
  /** Shown in tables instead of provider:model when set. */
  label?: string;
  /** Overrides OPENAI_BASE_URL / the provider default. */
  baseUrl?: string;
  /** Name of the environment variable holding the key (CLI); the extension reads SecretStorage instead. */
  apiKeyEnv?: string;
  /** Decoding and provider parameters: temperature, maxTokens, topP, seed, stream, refusal (extractive)… */
  parameters: Record<string, unknown>;
  /** Calls go through the vendor's batch API (run/batchingProvider.ts) instead of one request each. */
  batch?: boolean;
  /** An answer cut at the token limit: scored and marked ('score', the default), or a case error ('error'). */
  truncated?: TruncatedPolicy;
}
