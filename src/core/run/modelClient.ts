// The ModelClient suites call: builds the request from the model's parameters, answers from the cache, else calls the provider through the scheduler.
import type { ChatMessage, ClientResponse, ModelClient, ResponseRecord, Usage } from '../model.js';
import { ProviderConfigError, ProviderError } from '../providers/contract.js';
import type { CompletionRequest, Provider } from '../providers/contract.js';
import { cacheKey } from './cache.js';
import { redact } from '../redact.js';
import type { ResponseCache } from './cache.js';
import { attemptsOf } from './scheduler.js';
import type { Scheduler } from './scheduler.js';

export interface ModelClientOptions {
  /** "provider:model". */
  key: string;
  provider: Provider;
  model: string;
  /** ModelSpec.parameters: decoding parameters, and vendor extras passed through in `extra`. */
  parameters: Record<string, unknown>;
  scheduler: Scheduler;
  cache?: ResponseCache;
  /** Ask the model even when the cache holds the answer, and store the fresh answer (the CLI's --refresh). */
  refreshCache?: boolean;
  /** Cost in USD of a call's usage; undefined when the price is unknown. `record` is the provider's answer as it came. */
  prices?: (usage: Usage, record?: ResponseRecord) => number | undefined;
  onCall?: (event: ModelCallEvent) => void;
}

/** What happened on one complete(), for progress output and the status bar. */
export type ModelCallEvent =
  | { type: 'cache-hit'; modelKey: string; usage: Usage }
  | { type: 'retry'; modelKey: string; attempt: number; delayMs: number; error: ProviderError }
  | { type: 'success'; modelKey: string; attempts: number; latencyMs: number; usage: Usage; costUsd?: number }
  | { type: 'failure'; modelKey: string; attempts: number; error: unknown }
  | { type: 'cache-write-failed'; modelKey: string; error: unknown };

export interface ModelCallCounters {
  /** complete() calls answered by the provider path (cache misses), whatever the outcome. */
  requests: number;
  /** Provider invocations, retries included: what the vendor sees and bills. */
  providerCalls: number;
  cacheHits: number;
  /** Requests that ended in an error after their retries (cancelled included). */
  failures: number;
  /** Tokens the server reported for attempts that failed (retried or final): paid for, yet in no answer. */
  failedAttemptTokens: Usage;
  /** Their cost; undefined once one of them could not be priced. */
  failedAttemptCostUsd: number | undefined;
}

export interface CountingModelClient extends ModelClient {
  /** Live counters; "a rerun of an unchanged eval makes zero model calls" is checked through them. */
  readonly counters: Readonly<ModelCallCounters>;
  /** Whether `complete` would answer this call from the cache (for a cost plan); counts nothing, calls nothing. */
  isCached(call: Parameters<ModelClient['complete']>[0]): Promise<boolean>;
}

type DecodingParameters = Omit<CompletionRequest, 'model' | 'messages' | 'structuredOutput'>;

/**
 * Rough token count for the tokens-per-minute budget: ~4 characters per token (the usual figure for
 * English with GPT/Claude tokenizers) plus ~4 tokens of per-message framing. Only pacing depends on it,
 * never scoring or cost, so a fast estimate beats running a tokenizer on every prompt; it undercounts
 * for CJK text, where a 429 and the adaptive limit correct the pace.
 */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let characters = 0;
  for (const message of messages) characters += message.content.length;
  return Math.ceil(characters / 4) + 4 * messages.length;
}

export function createModelClient(options: ModelClientOptions): CountingModelClient {
  const decoding = decodingParameters(options.key, options.parameters);
  const counters: ModelCallCounters = { requests: 0, providerCalls: 0, cacheHits: 0, failures: 0, failedAttemptTokens: { inputTokens: 0, outputTokens: 0 }, failedAttemptCostUsd: 0 };
  const emit = (event: ModelCallEvent): void => options.onCall?.(event);

  /** A failed attempt's reported tokens, counted apart from the answers' (each attempt once: retries here, the last in the catch). */
  function countFailedAttempt(error: unknown): void {
    const usage = error instanceof ProviderError ? error.usage : undefined;
    if (!usage || usage.inputTokens + usage.outputTokens === 0) return;
    counters.failedAttemptTokens.inputTokens += usage.inputTokens;
    counters.failedAttemptTokens.outputTokens += usage.outputTokens;
    const cost = options.prices?.(usage);
    counters.failedAttemptCostUsd = counters.failedAttemptCostUsd === undefined || cost === undefined ? undefined : counters.failedAttemptCostUsd + cost;
  }

  async function fromCache(key: string | undefined): Promise<ClientResponse | undefined> {
    if (!options.cache || key === undefined || options.refreshCache) return undefined;
    const hit = await options.cache.get(key);
    if (!hit) return undefined;
    counters.cacheHits++;
    emit({ type: 'cache-hit', modelKey: options.key, usage: hit.usage });
    // Nothing was paid for this answer in this run; the usage is kept so token counts stay visible.
    return { ...hit, cached: true, costUsd: 0, attempts: 1 };
  }

  async function fromProvider(request: CompletionRequest, signal: AbortSignal): Promise<{ record: ResponseRecord; attempts: number }> {
    counters.requests++;
    try {
      const { value, attempts } = await options.scheduler.schedule(
        (attemptSignal) => {
          counters.providerCalls++;
          return options.provider.complete(request, { signal: attemptSignal });
        },
        {
          signal,
          // OpenAI counts max_tokens against the TPM limit when a request arrives, so the estimate does too.
          estimatedTokens: estimateTokens(request.messages) + (request.maxTokens ?? 0),
          onRetry: (info) => {
            countFailedAttempt(info.error);
            emit({ type: 'retry', modelKey: options.key, ...info });
          },
        },
      );
      const costUsd = options.prices?.(value.usage, value) ?? value.costUsd;
      // A reply can quote the key the request carried (a proxy echoing headers); it must not reach the cache,
      // the scores or the reports in clear, as it never reaches the run log.
      return { record: { ...value, text: redact(value.text), costUsd }, attempts };
    } catch (error) {
      counters.failures++;
      countFailedAttempt(error);
      emit({ type: 'failure', modelKey: options.key, attempts: attemptsOf(error) ?? 1, error });
      throw error;
    }
  }

  /** A cache that cannot be written (disk full, read-only folder) costs reruns, not this call's answer. */
  async function store(key: string | undefined, record: ResponseRecord): Promise<void> {
    if (!options.cache || key === undefined) return;
    try {
      await options.cache.set(key, record);
    } catch (error) {
      emit({ type: 'cache-write-failed', modelKey: options.key, error });
    }
  }

  /** One call to the provider, its answer stored under `key` (no cache: undefined). */
  async function answer(request: CompletionRequest, key: string | undefined, signal: AbortSignal): Promise<{ record: ResponseRecord; attempts: number }> {
    const { record, attempts } = await fromProvider(request, signal);
    await store(key, record);
    emit({ type: 'success', modelKey: options.key, attempts, latencyMs: record.latencyMs, usage: record.usage, costUsd: record.costUsd });
    return { record, attempts };
  }

  function requestOf(call: Parameters<ModelClient['complete']>[0]): CompletionRequest {
    return {
      ...decoding,
      model: options.model,
      messages: call.messages,
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.maxTokens !== undefined ? { maxTokens: call.maxTokens } : {}),
      ...(call.seed !== undefined ? { seed: call.seed } : {}),
      ...(call.structuredOutput !== undefined ? { structuredOutput: call.structuredOutput } : {}),
    };
  }

  return {
    key: options.key,
    counters,
    async isCached(call) {
      if (!options.cache) return false;
      return (await options.cache.get(requestKey(options.provider, requestOf(call)))) !== undefined;
    },
    async complete(call, signal): Promise<ClientResponse> {
      // Even a cache hit is refused once cancelled: a cancelled run must not keep producing results.
      if (signal.aborted) throw new ProviderError('cancelled', 'cancelled', { cause: signal.reason });
      const request = requestOf(call);
      if (!options.cache) {
        const { record, attempts } = await answer(request, undefined, signal);
        return { ...record, attempts };
      }
      const key = requestKey(options.provider, request);
      const flights = options.cache.inFlight;
      // An identical request already in flight is joined before the cache is read: its answer is not stored yet.
      if (!flights.has(key)) {
        const hit = await fromCache(key);
        if (hit) return hit;
      }
      // Nothing awaits between this lookup and the start of the call, so two identical requests never both start one.
      const joined = flights.join(key, signal, (flightSignal) => answer(request, key, flightSignal));
      if (!joined.shared) {
        const { record, attempts } = await joined.promise;
        return { ...record, attempts };
      }
      const { record } = await joined.promise;
      // Sent once for both: this caller paid nothing, so it counts as a cache hit, as a later identical request would.
      counters.cacheHits++;
      emit({ type: 'cache-hit', modelKey: options.key, usage: record.usage });
      return { ...record, cached: true, costUsd: 0, attempts: 1 };
    },
  };
}

/** Streaming changes how the answer travels, not what it is, so it is left out of the key. */
function requestKey(provider: Provider, request: CompletionRequest): string {
  const { stream: _stream, ...identity } = request;
  return cacheKey({ providerId: provider.id, endpoint: provider.endpoint, request: identity });
}

/**
 * Splits ModelSpec.parameters into the request's decoding fields and `extra` (vendor options such as the
 * extractive reader's `refusal`), checking types here so a typo fails before the first call, naming the model.
 */
function decodingParameters(modelKey: string, parameters: Record<string, unknown>): DecodingParameters {
  const result: DecodingParameters = {};
  const extra: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parameters)) {
    if (value === undefined) continue;
    switch (name) {
      case 'temperature':
      case 'topP':
      case 'maxTokens':
      case 'seed':
        result[name] = expectNumber(modelKey, name, value);
        break;
      case 'stream':
        if (typeof value !== 'boolean') throw parameterError(modelKey, name, 'true or false', value);
        result.stream = value;
        break;
      case 'stop':
        result.stop = expectStop(modelKey, value);
        break;
      default:
        extra[name] = value;
    }
  }
  if (Object.keys(extra).length > 0) result.extra = extra;
  return result;
}

function expectNumber(modelKey: string, name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw parameterError(modelKey, name, 'a number', value);
  return value;
}

function expectStop(modelKey: string, value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw parameterError(modelKey, 'stop', 'a string or a list of strings', value);
}

function parameterError(modelKey: string, name: string, expected: string, value: unknown): ProviderConfigError {
  return new ProviderConfigError(`${modelKey}: parameters.${name} must be ${expected}, got ${JSON.stringify(value)}; fix it in the eval file's model entry`);
}
