// Turns whatever a vendor SDK or the network threw into a ProviderError the scheduler can act on, with no secret in its message.
import type { APIError as AnthropicAPIError } from '@anthropic-ai/sdk';
import type { APIError as OpenAIAPIError } from 'openai';
import { ProviderError } from './contract.js';
import type { ProviderErrorKind } from './contract.js';
import type { Usage } from '../model.js';
import { redact as redactKeys } from '../redact.js';
import { contextOverflowOf, describeOverflow } from './contextOverflow.js';
import type { ErrorBodyFields } from './contextOverflow.js';
import { loadedVendor } from '../vendor/load.js';

const MAX_MESSAGE = 500;

type SdkApiError = OpenAIAPIError | AnthropicAPIError;
type SdkErrorClass = 'APIError' | 'APIConnectionTimeoutError' | 'APIUserAbortError' | 'APIConnectionError';

/**
 * True when `error` is an instance of that error class of either SDK. Only SDKs already loaded are asked: an SDK that
 * was never loaded made no client and so threw nothing, and loading one here would undo loading them on first use.
 */
function isSdkError(error: unknown, errorClass: SdkErrorClass): boolean {
  return [loadedVendor('openai'), loadedVendor('anthropic')].some((sdk) => sdk !== undefined && error instanceof sdk[errorClass]);
}

function isApiError(error: unknown): error is SdkApiError {
  return isSdkError(error, 'APIError');
}

interface HttpFailure {
  status: number;
  headers?: Headers;
  message: string;
  fields: ErrorBodyFields;
}

/**
 * Maps a failure to a ProviderError. `signal` decides first: once the caller has aborted, whatever the SDK threw
 * (its own abort error, a silently ended stream, a reset socket) is the caller's cancellation — or a timeout, when
 * the abort reason says so (AbortSignal.timeout), because the scheduler owns per-call timeouts through the signal.
 */
export function toProviderError(error: unknown, context: { vendor: string; signal?: AbortSignal; secrets?: (string | undefined)[] }): ProviderError {
  const redact = (text: string) => redactKeys(text, context.secrets ?? []);
  if (error instanceof ProviderError) return new ProviderError(error.kind, redact(error.message), { status: error.status, retryAfterMs: error.retryAfterMs, usage: error.usage });
  if (context.signal?.aborted) return abortError(context.vendor, context.signal);

  const http = httpFailureOf(error);
  if (http) {
    const overflow = contextOverflowOf(http.message, http.fields);
    // A prompt that does not fit fails the same way every time, whatever status the server chose (llama.cpp: 400 or 500);
    // a shared context filled by the requests in flight is the exception: fewer at once fit, so the scheduler retries it.
    const usage = usageOfErrorBody(http.fields);
    if (overflow) return new ProviderError(overflow.shared ? 'shared_context' : 'context_overflow', redact(`${context.vendor} answered HTTP ${http.status}: ${describeOverflow(overflow)} (${http.message})`), { status: http.status, usage });
    const kind = kindOfStatus(http.status);
    const retryAfterMs = http.headers ? retryAfterMsFrom(http.headers) : undefined;
    return new ProviderError(kind, redact(`${context.vendor} answered HTTP ${http.status}: ${http.message}`), { status: http.status, retryAfterMs, usage });
  }
  const [kind, message] = classifyRaw(error);
  return new ProviderError(kind, redact(`${context.vendor}: ${message}`));
}

/** A ProviderError for a call whose signal fired: a timeout when the reason says so, else a cancellation. */
export function abortError(vendor: string, signal: AbortSignal): ProviderError {
  const reason: unknown = signal.reason;
  const isTimeout = reason instanceof Error && reason.name === 'TimeoutError';
  return isTimeout ? new ProviderError('timeout', `${vendor}: no answer before the call's time limit`) : new ProviderError('cancelled', `${vendor}: call cancelled`);
}

function httpFailureOf(error: unknown): HttpFailure | undefined {
  if (!isApiError(error) || typeof error.status !== 'number') return undefined;
  return { status: error.status, headers: error.headers, message: apiMessageOf(error), fields: bodyFieldsOf(error) };
}

/** The error object's own fields (OpenAI's code, llama.cpp's type, n_prompt_tokens and n_ctx). */
function bodyFieldsOf(error: SdkApiError): ErrorBodyFields {
  const body = error.error as (ErrorBodyFields & { error?: ErrorBodyFields }) | undefined;
  const inner = typeof body?.error === 'object' && body.error !== null ? body.error : body;
  return inner ?? {};
}

/**
 * Tokens a failed call still spent, when its error object reports them (`usage` in the OpenAI or Anthropic shape), so
 * a failed attempt's cost is counted rather than lost; undefined when the body says nothing.
 */
function usageOfErrorBody(fields: ErrorBodyFields): Usage | undefined {
  const usage = (fields as { usage?: unknown }).usage;
  if (typeof usage !== 'object' || usage === null) return undefined;
  const u = usage as Record<string, unknown>;
  const count = (...names: string[]): number => names.reduce((sum, name) => sum + (typeof u[name] === 'number' && Number.isFinite(u[name]) && (u[name] as number) > 0 ? (u[name] as number) : 0), 0);
  const inputTokens = count('prompt_tokens', 'input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens');
  const outputTokens = count('completion_tokens', 'output_tokens');
  return inputTokens + outputTokens > 0 ? { inputTokens, outputTokens } : undefined;
}

/** The vendor's own message from the error body when there is one; the SDK's message repeats the status and body. */
function apiMessageOf(error: SdkApiError): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const fromBody = body?.error?.message ?? body?.message;
  const message = typeof fromBody === 'string' && fromBody ? fromBody : error.message;
  // A proxy's HTML error page can be kilobytes long; the start says enough.
  return message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message;
}

export function kindOfStatus(status: number): ProviderErrorKind {
  if (status === 429) return 'rate_limit';
  if (status === 401 || status === 403) return 'auth';
  if (status === 408) return 'timeout';
  // 501 Not Implemented: the server lacks the feature (llama.cpp's not_supported_error, e.g. embeddings without
  // --embeddings, tools/server/server-common.cpp); every retry gets the same answer. 503 (loading model) stays 'server'.
  if (status === 501) return 'not_supported';
  if (status >= 500) return 'server';
  return 'bad_request';
}

/** Classifies failures that carry no HTTP status: SDK connection errors, fetch's TypeErrors, JSON that did not parse. */
function classifyRaw(error: unknown): [ProviderErrorKind, string] {
  if (isSdkError(error, 'APIConnectionTimeoutError')) return ['timeout', 'the request timed out'];
  if (isSdkError(error, 'APIUserAbortError')) return ['cancelled', 'call cancelled'];
  if (isSdkError(error, 'APIConnectionError')) return ['network', `connection failed (${describeCause(error as Error)})`];
  if (error instanceof SyntaxError) return ['bad_response', `the response could not be parsed (${error.message})`];
  if (error instanceof Error && error.name === 'AbortError') return ['cancelled', 'call cancelled'];
  if (error instanceof TypeError) return ['network', `the connection failed mid-response (${describeCause(error)})`];
  // An APIError without a status is an error event inside a stream that had already started with a 200.
  if (isApiError(error)) {
    const message = apiMessageOf(error);
    // llama.cpp sends "Context size has been exceeded." as an error event in a stream that began with 200.
    const overflow = contextOverflowOf(message, bodyFieldsOf(error));
    if (overflow) return [overflow.shared ? 'shared_context' : 'context_overflow', `error inside the stream: ${describeOverflow(overflow)} (${message})`];
    return [kindOfStreamError(error), `error inside the stream: ${message}`];
  }
  if (error instanceof Error) return ['network', error.message];
  return ['network', String(error)];
}

/** Error events carry no status, only the vendor's error type (Anthropic's error.type, OpenAI's code or type). */
function kindOfStreamError(error: SdkApiError): ProviderErrorKind {
  const body = error.error as { type?: unknown; code?: unknown; error?: { type?: unknown } } | undefined;
  const type = [body?.error?.type, body?.code, body?.type].find((value): value is string => typeof value === 'string' && value !== 'error');
  if (type === undefined) return 'bad_response';
  if (/rate_limit|^requests$|^tokens$/.test(type)) return 'rate_limit';
  if (/overloaded|api_error|server_error/.test(type)) return 'server';
  if (/authentication|permission|invalid_api_key/.test(type)) return 'auth';
  if (/invalid_request|not_found|request_too_large/.test(type)) return 'bad_request';
  return 'bad_response';
}

/**
 * The SDK's "Connection error." wraps fetch's "fetch failed", which wraps the socket's error: the code that says what
 * happened (ECONNREFUSED, ENOTFOUND) is two causes down, so the chain is walked for the first code.
 */
function describeCause(error: Error): string {
  let detail: string | undefined;
  let cause: unknown = error.cause;
  for (let depth = 0; depth < 5 && typeof cause === 'object' && cause !== null; depth++) {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') return `${error.message}: ${code}`;
    detail ??= typeof message === 'string' ? message : undefined;
    cause = (cause as { cause?: unknown }).cause;
  }
  return detail ? `${error.message}: ${detail}` : error.message;
}

/**
 * Milliseconds to wait from `retry-after-ms` (OpenAI's precise form) or `Retry-After` (seconds or an HTTP date).
 * Undefined when neither is present or readable; a date in the past means "now" (0).
 */
export function retryAfterMsFrom(headers: Headers, now = Date.now()): number | undefined {
  const precise = headers.get('retry-after-ms');
  if (precise !== null && precise.trim() !== '') {
    const ms = Number(precise);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  const retryAfter = headers.get('retry-after');
  if (retryAfter === null || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
