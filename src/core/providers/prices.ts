// What a call cost: an editable table of list prices, overridden by the eval file's `prices`.
import type { Usage } from '../model.js';
import { vendorOf } from './registry.js';

export interface Price {
  /** USD per million input tokens. */
  input: number;
  /** USD per million output tokens. */
  output: number;
}

/**
 * List prices in USD per million tokens, standard (non-batch, uncached) tier, keyed by the vendor's model name.
 * Figures as published by OpenAI and Anthropic, taken in November 2025 (not re-checked since: this build machine has
 * no network). Prices change: users override or add models with `prices` in the eval file, keyed "provider:model",
 * "model" or a whole provider ("openai-compatible": {input: 0, output: 0} for a local server).
 */
export const BUILTIN_PRICES: Readonly<Record<string, Price>> = {
  // OpenAI
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-2024-05-13': { input: 5, output: 15 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4-turbo': { input: 10, output: 30 },
  'gpt-3.5-turbo': { input: 0.5, output: 1.5 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  o1: { input: 15, output: 60 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  'text-embedding-ada-002': { input: 0.1, output: 0 },
  // Anthropic
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4-5': { input: 3, output: 15 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-haiku-4-5': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  'claude-3-opus': { input: 15, output: 75 },
};

/** Dated snapshots and aliases share their family's price unless the table names them: gpt-4o-2024-08-06, claude-sonnet-4-5-20250929, claude-3-5-haiku-latest. */
const SNAPSHOT_SUFFIX = /-(?:\d{4}-\d{2}-\d{2}|\d{8}|latest)$/;

/**
 * USD for `usage` on `modelKey` ("provider:model"), or undefined when the price is unknown: an unknown price is
 * shown as unknown, never as a made-up 0. Lookup order: overrides for "provider:model", "model", "provider"; then the
 * built-in table by model name, then by the name without its date suffix.
 */
export function costOf(modelKey: string, usage: Usage, overrides: Record<string, Price> = {}): number | undefined {
  const price = priceOf(modelKey, overrides);
  if (!price) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}

/** The batch APIs' discount on the list price, as OpenAI (Batch API) and Anthropic (Message Batches) publish it. */
export const BATCH_PRICE_FACTOR = 0.5;

/**
 * USD for `usage` sent through a batch API: half of `costOf` for OpenAI and Anthropic. Another server's batch
 * endpoint has no published discount, so it is priced as interactive rather than guessed lower.
 */
export function batchCostOf(modelKey: string, usage: Usage, overrides: Record<string, Price> = {}): number | undefined {
  const cost = costOf(modelKey, usage, overrides);
  if (cost === undefined) return undefined;
  return vendorOf(splitModelKey(modelKey).provider)?.batchDiscount ? cost * BATCH_PRICE_FACTOR : cost;
}

export function priceOf(modelKey: string, overrides: Record<string, Price> = {}): Price | undefined {
  const { provider, model } = splitModelKey(modelKey);
  const overridden = overrides[modelKey] ?? overrides[model] ?? (provider ? overrides[provider] : undefined);
  if (overridden) return overridden;
  // The vendor table says how a provider is priced: free on this machine, or unknown (a compatible server's model
  // names are its own; "gpt-4o" behind a proxy is not known to cost OpenAI's price). A host's provider, or a key
  // without one, is priced by its model name.
  const pricing = vendorOf(provider)?.prices;
  if (pricing === 'free') return { input: 0, output: 0 };
  if (pricing === 'unknown') return undefined;
  return BUILTIN_PRICES[model] ?? BUILTIN_PRICES[model.replace(SNAPSHOT_SUFFIX, '')];
}

function splitModelKey(modelKey: string): { provider: string | undefined; model: string } {
  const colon = modelKey.indexOf(':');
  return colon < 0 ? { provider: undefined, model: modelKey } : { provider: modelKey.slice(0, colon), model: modelKey.slice(colon + 1) };
}
