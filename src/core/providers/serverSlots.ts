// Reads how llama.cpp's llama-server shares itself between requests: its parallel slots (-np) and its context (-c).
// GET /props (tools/server/README.md, "GET /props"): `total_slots` is -np, `default_generation_settings` is slot 0's
// state, whose `n_ctx` is what one request may use — -c divided by -np, or all of -c when the slots share a unified
// KV cache. GET /v1/models: each entry's `meta` (server-context.cpp model_meta()) has n_ctx_train, and builds that
// report the loaded context add n_ctx (the whole -c).
import type { ServerSlots } from './contract.js';
import { jsonOrUndefined } from '../data/jsonError.js';
import { nodeRequest } from './nodeFetch.js';

export interface ServerSlotsRequest {
  /** The OpenAI-compatible base URL (…/v1); /props is beside it, at the server's root. */
  baseURL: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** Undefined when the server does not answer /props the way llama.cpp does: the check is advice, never a failure. */
export async function fetchServerSlots(request: ServerSlotsRequest): Promise<ServerSlots | undefined> {
  const base = request.baseURL.replace(/\/+$/, '');
  const props = await getJson(`${base.replace(/\/v1$/, '')}/props`, request);
  if (props === undefined) return undefined;
  const models = await getJson(`${base}/models`, request);
  return serverSlotsOf(props, models);
}

export function serverSlotsOf(props: unknown, models: unknown): ServerSlots | undefined {
  const slots = field(props, 'total_slots');
  if (!isCount(slots)) return undefined;
  const slotContext = field(field(props, 'default_generation_settings'), 'n_ctx');
  const listed = field(models, 'data');
  const context = Array.isArray(listed) ? listed.map((entry) => field(field(entry, 'meta'), 'n_ctx')).find(isCount) : undefined;
  return { slots, ...(isCount(slotContext) ? { slotContext } : {}), ...(context !== undefined ? { context } : {}) };
}

/**
 * Over node:http like the chat calls (nodeFetch.ts), not the global fetch: its first call alone costs ~25 ms of CPU
 * (undici's HTTP client and parser), spent while the first cases are waiting to be sent.
 */
async function getJson(url: string, request: ServerSlotsRequest): Promise<unknown> {
  try {
    const { incoming, body } = await nodeRequest(url, { method: 'GET', headers: request.headers, signal: request.signal }, () => true);
    const status = incoming.statusCode ?? 0;
    if (status < 200 || status > 299 || body === undefined) return undefined;
    return jsonOrUndefined(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}
