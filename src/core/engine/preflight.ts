// Before the first case: one cheap request per distinct endpoint and model, so a server that is down, a wrong key or
// a wrong path stops the run at once with one message, instead of every case failing the same way.
import { ProviderError } from '../providers/contract.js';
import type { CallOptions, EmbeddingProvider, Provider } from '../providers/contract.js';
import { slotAdvice } from './slotAdvice.js';

/** A model the run will call: a chat model (models, judge) or the embeddings model. */
export interface PreflightTarget {
  /** "provider:model", for messages. */
  key: string;
  model: string;
  provider: Provider | EmbeddingProvider;
  /** Calls the run keeps in flight to it: compared with a local server's slots. */
  concurrency?: number;
  /** Where the eval file sets it, when not a model entry of its own (`index.embeddings`): the messages name its keys. */
  setting?: string;
}

/**
 * What the check found, for a surface to add its own way out: `unreachable` (nothing answers at the endpoint) is the
 * one a user may want to run past, which the CLI offers as --no-preflight.
 */
export type PreflightReason = 'unreachable' | 'stopped';

/** The run cannot start: the message says what is wrong and what to do, in words every surface can show. */
export class PreflightError extends Error {
  constructor(message: string, readonly reason: PreflightReason = 'stopped') {
    super(message);
    this.name = 'PreflightError';
  }
}

export interface PreflightResult {
  /** Doubts that do not stop the run (a model the server does not list but answers for). */
  warnings: string[];
}

type ListingProvider = (Provider | EmbeddingProvider) & { listModels(options: CallOptions): Promise<string[]> };

/** Each distinct (endpoint, model) once; throws PreflightError on the first that cannot work. */
export async function preflight(targets: readonly PreflightTarget[], signal: AbortSignal, timeoutMs: number): Promise<PreflightResult> {
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const target of targets) {
    const { provider } = target;
    // Providers with no server to ask (extractive, vscode-lm) have nothing to check.
    if (!provider.listModels || seen.has(`${provider.endpoint}|${target.model}`)) continue;
    seen.add(`${provider.endpoint}|${target.model}`);
    const warning = await check(target, provider as ListingProvider, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]));
    if (warning) warnings.push(warning);
    warnings.push(...(await slotWarnings(target, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]))));
  }
  return { warnings };
}

async function check(target: PreflightTarget, provider: ListingProvider, signal: AbortSignal): Promise<string | undefined> {
  let listed: string[] | undefined;
  try {
    listed = await provider.listModels({ signal });
  } catch (error) {
    // Some servers have no model list: then a 1-token call tells whether the path and the model work.
    if (!(error instanceof ProviderError && error.status === 404)) return stopOrWarn(target, error);
  }
  if (listed?.includes(target.model)) return undefined;
  try {
    await probe(provider, target.model, signal);
  } catch (error) {
    return stopOrWarn(target, error, listed);
  }
  // llama.cpp answers to any model name, and lists its model file's path.
  return listed ? `${target.key}: ${provider.endpoint} does not list model '${target.model}' (it lists ${shortList(listed)}), but answers to it` : undefined;
}

/** A local server's slots against the run's concurrency (engine/slotAdvice.ts); nothing when it does not report them. */
async function slotWarnings(target: PreflightTarget, signal: AbortSignal): Promise<string[]> {
  const { provider } = target;
  const slots = 'serverSlots' in provider && provider.serverSlots ? await provider.serverSlots({ signal }) : undefined;
  return slots ? slotAdvice({ key: target.key, endpoint: provider.endpoint, concurrency: target.concurrency }, slots) : [];
}

/** What the probe sends: one word, so it costs next to nothing (and tests can tell it from a case). */
export const PREFLIGHT_PROBE_TEXT = 'Hi';

/** The cheapest real request: one token of chat, or the embedding of one word. */
async function probe(provider: ListingProvider, model: string, signal: AbortSignal): Promise<void> {
  if ('embed' in provider) await provider.embed({ model, input: [PREFLIGHT_PROBE_TEXT] }, { signal });
  else await provider.complete({ model, messages: [{ role: 'user', content: PREFLIGHT_PROBE_TEXT }], maxTokens: 1, temperature: 0 }, { signal });
}

/**
 * A busy or loading server (429, 5xx: llama.cpp's 503 "Loading model") is worth trying the run on, since the scheduler
 * retries those; every other failure would fail every case the same way, so it stops the run.
 */
function stopOrWarn(target: PreflightTarget, error: unknown, listed?: string[]): string {
  if (error instanceof ProviderError && (error.kind === 'server' || error.kind === 'rate_limit')) return `${target.key}: the first request to ${target.provider.endpoint} failed, the run goes on and retries — ${error.message}`;
  throw stopping(target, error, listed);
}

function stopping(target: PreflightTarget, error: unknown, listed?: string[]): PreflightError {
  const endpoint = target.provider.endpoint;
  const at = target.setting ? `${target.setting}.` : '';
  const detail = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ProviderError)) return new PreflightError(`${target.key}: ${detail}`);
  if (error.kind === 'cancelled') return new PreflightError(`${target.key}: preflight cancelled`);
  if (error.kind === 'network') {
    const refused = /ECONNREFUSED/.test(detail);
    return new PreflightError(`${refused ? 'connection refused' : 'cannot connect'} at ${endpoint} — is the server running? (${target.key}; start the server, or correct ${at}baseUrl in the eval file)`, 'unreachable');
  }
  if (error.kind === 'timeout') return new PreflightError(`no answer from ${endpoint} in time — is the server up and not still loading? (${target.key})`);
  if (error.kind === 'auth') return new PreflightError(`${endpoint} refused the key (HTTP ${error.status ?? '401'}) — check the key for ${target.key} (${at}apiKeyEnv in the eval file, or OPENAI_API_KEY / ANTHROPIC_API_KEY)`);
  if (error.kind === 'not_supported') return new PreflightError(`${endpoint} cannot serve ${target.key}: ${detail}`);
  if (error.status === 404) {
    if (listed || /model/i.test(detail)) {
      return new PreflightError(`${endpoint} does not serve model '${target.model}'${listed ? ` (it lists ${shortList(listed)})` : ''} — correct ${at ? `${at}model` : 'the model name'} in the eval file, or pull/load the model (${detail})`);
    }
    return new PreflightError(`HTTP 404 at ${endpoint} — the path is wrong: check ${at}baseUrl (OpenAI-compatible servers usually end in /v1) (${target.key})`);
  }
  return new PreflightError(`${target.key}: the first request to ${endpoint} failed — ${detail}`);
}

function shortList(ids: readonly string[]): string {
  if (ids.length === 0) return 'no models';
  const shown = ids.slice(0, 5).map((id) => `'${id}'`).join(', ');
  return ids.length > 5 ? `${shown} and ${ids.length - 5} more` : shown;
}
