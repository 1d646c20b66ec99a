// The one wrapper around a vendor's completion call: refuses an aborted signal, times the call, and turns whatever it throws into a ProviderError without the key.
import type { ResponseRecord } from '../model.js';
import type { CallOptions } from './contract.js';
import { abortError, toProviderError } from './errors.js';

/** What a vendor's call itself produces; the wrapper adds the latency and `cached: false` (only the cache sets true). */
export type CompletionOutcome = Pick<ResponseRecord, 'text' | 'usage' | 'finishReason'>;

/** Who is called, for the error's wording, and the key no error message may carry. */
export interface VendorContext {
  vendor: string;
  secret: string | undefined;
}

/** `call` as CONTRACT.md says `complete` behaves: latency measured around it, every failure a ProviderError. */
export async function timedCompletion(context: VendorContext, options: CallOptions, call: (signal: AbortSignal) => Promise<CompletionOutcome>): Promise<ResponseRecord> {
  const started = performance.now();
  const outcome = await vendorCall(context, options, call);
  return { ...outcome, latencyMs: performance.now() - started, cached: false };
}

/** Any request to a vendor (a completion, a model list): an aborted signal is not sent, and a failure says what kind it is. */
export async function vendorCall<T>(context: VendorContext, options: CallOptions, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const { signal } = options;
  try {
    if (signal.aborted) throw abortError(context.vendor, signal);
    return await call(signal);
  } catch (error) {
    throw toProviderError(error, { vendor: context.vendor, signal, secrets: [context.secret] });
  }
}
