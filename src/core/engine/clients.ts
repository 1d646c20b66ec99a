// Builds the model clients of a run: one scheduler per model (rate limits are per endpoint and model), shared cache.
import * as path from 'node:path';
import { batchCostOf, costOf } from '../providers/prices.js';
import { createBatchClient, createEmbeddingProvider, createProvider } from '../providers/registry.js';
import type { BatchProgress, SubmittedBatch } from '../providers/batch.js';
import { BatchingProvider } from '../run/batchingProvider.js';
import type { Credentials, ProviderFactory } from '../providers/registry.js';
import { ResponseCache } from '../run/cache.js';
import { createEmbeddingClient } from '../run/embeddingClient.js';
import type { CountingEmbeddingClient } from '../run/embeddingClient.js';
import { createModelClient, estimateTokens } from '../run/modelClient.js';
import { Scheduler } from '../run/scheduler.js';
import type { ConcurrencyLowered, ServerWaitEvent } from '../run/scheduler.js';
import type { EvalSpec } from '../spec/types.js';
import type { CountingModelClient } from '../run/modelClient.js';
import type { EmbeddingProvider, ModelSpec, Provider } from '../providers/contract.js';

/** How a one-model client outside a run is built; the CLI passes its environment, the extension its SecretStorage and vscode-lm. */
export interface GeneratorClientOptions {
  credentials: Credentials;
  /** Calls in flight at once. */
  concurrency: number;
  /** Given to providers that accept a sampling seed. */
  seed: number;
  /** Where *_BASE_URL variables are read; process.env unless given. */
  env?: Record<string, string | undefined>;
  providers?: Readonly<Record<string, ProviderFactory>>;
}

export interface RunClients {
  models: { key: string; spec: ModelSpec; client: CountingModelClient; concurrency: number; provider: Provider }[];
  /** `concurrency`: calls in flight at once (BATCH_WAVE in batch mode), e.g. how many rows are prepared with it at once. */
  judge?: { key: string; client: CountingModelClient; provider: Provider; concurrency: number };
  /** The eval file's `embeddings` model (answer relevancy), with its own scheduler; vectors cached beside the responses. */
  embeddings?: { key: string; client: CountingEmbeddingClient; provider: EmbeddingProvider };
}

/**
 * Batch mode's calls in flight per model: one wave is at most this many requests, and the engine's pool keeps about
 * twice as many rendered cases in memory. Large enough that a wave is a real batch, small enough to stay in bounded memory.
 */
export const BATCH_WAVE = 5_000;

/** A vendor batch has 24 hours to finish; the scheduler's per-call limit must not end the wait before it does. */
const BATCH_WINDOW_MS = 25 * 60 * 60_000;

/** What batch mode needs from the run: its signal, where a submitted batch is recorded, and the batches of an earlier process. */
export interface RunBatchOptions {
  runSignal: AbortSignal;
  onSubmitted: (modelKey: string, batch: SubmittedBatch) => void;
  /** Each wave's submission while under way (BatchingProviderOptions.onSubmitting). */
  onSubmitting?: (submission: Promise<void>) => void;
  resumed: readonly { modelKey: string; batch: SubmittedBatch }[];
  /** Each poll of a batch, for progress lines. */
  onProgress?: (modelKey: string, progress: BatchProgress) => void;
}

/** "x: the server's shared context is full with 8 calls in flight; concurrency lowered to 4, retrying". */
export function concurrencyLoweredNotice(modelKey: string, info: ConcurrencyLowered): string {
  return `${modelKey}: the server's shared context is full with ${info.from} calls in flight (its slots share one context); concurrency lowered to ${info.limit}, retrying the calls that did not fit`;
}

/**
 * One wording for every surface (CLI line, VS Code progress): "x: waiting for the server at http://… (connection
 * refused) — retrying for up to 60 s", then that it answers again, or that the wait ran out.
 */
export function serverWaitNotice(modelKey: string, endpoint: string, info: ServerWaitEvent): string {
  const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;
  switch (info.state) {
    case 'waiting':
      return `${modelKey}: waiting for the server at ${endpoint} (${connectionCause(info.error)}) — retrying for up to ${seconds(info.budgetMs)}`;
    case 'back':
      return `${modelKey}: the server at ${endpoint} answers again after ${seconds(info.waitedMs)}; the run goes on`;
    case 'gave-up':
      return `${modelKey}: the server at ${endpoint} did not come back within ${seconds(info.waitedMs)} (${connectionCause(info.error)}); the calls that waited fail with that cause`;
  }
}

/** "connection refused" for ECONNREFUSED and the like; the error's own words otherwise. */
function connectionCause(error: Error): string {
  const codes: Record<string, string> = { ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', ENOTFOUND: 'host not found', EHOSTUNREACH: 'host unreachable', ETIMEDOUT: 'connection timed out', EPIPE: 'connection closed' };
  const code = /\b(E[A-Z]+)\b/.exec(error.message)?.[1];
  return (code && codes[code]) ?? error.message;
}

export function modelKeyOf(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}

export async function createRunClients(
  spec: EvalSpec,
  credentials: Credentials,
  cacheDir: string | undefined,
  providers?: Readonly<Record<string, ProviderFactory>>,
  /** Fresh answers that still go into the cache (--refresh); --no-cache is `cacheDir` undefined. */
  refreshCache = false,
  /**
   * Given by a run or an explanation, which have a log to record their batches in (BatchLog); without it every model
   * is called interactively, `batch: true` or not.
   */
  batch?: RunBatchOptions,
  /** What the run should say as it happens (a model's concurrency lowered because its server's shared context filled up). */
  onNotice?: (message: string) => void,
): Promise<RunClients> {
  const cache = cacheDir ? new ResponseCache(cacheDir) : undefined;
  const newScheduler = (key?: string, endpoint?: string) => new Scheduler({
    concurrency: spec.concurrency,
    requestsPerMinute: spec.rateLimit.requestsPerMinute,
    tokensPerMinute: spec.rateLimit.tokensPerMinute,
    maxRetries: spec.maxRetries,
    timeoutMs: spec.timeoutMs,
    ...(key && onNotice ? { onConcurrencyLowered: (info: ConcurrencyLowered) => onNotice(concurrencyLoweredNotice(key, info)) } : {}),
    ...(key && endpoint && onNotice ? { onServerWait: (info: ServerWaitEvent) => onNotice(serverWaitNotice(key, endpoint, info)) } : {}),
  });
  const build = async (modelSpec: ModelSpec) => {
    const key = modelKeyOf(modelSpec);
    const interactive = await createProvider(modelSpec, credentials, { providers });
    const batched = modelSpec.batch === true && batch !== undefined;
    const batching = batched ? await batchingProvider(key, modelSpec, interactive, batch, newScheduler(key, interactive.endpoint)) : undefined;
    const provider = batching ?? interactive;
    // In batch mode the vendor paces the work: no RPM/TPM budget, no per-call time limit short of the batch window,
    // and a failed item is recorded with the vendor's reason rather than retried.
    const scheduler = batched ? new Scheduler({ concurrency: BATCH_WAVE, maxRetries: 0, timeoutMs: BATCH_WINDOW_MS }) : newScheduler(key, interactive.endpoint);
    const client = createModelClient({
      key,
      provider,
      model: modelSpec.model,
      parameters: modelSpec.parameters,
      scheduler,
      cache,
      refreshCache,
      // A batched call is billed at the batch price, so that is what the run's cost says; an item the batch could not
      // answer and an interactive call did is billed as that call, as is a failed attempt (it has no record).
      prices: (usage, record) => (batching && record && !batching.answeredInteractively(record) ? batchCostOf : costOf)(key, usage, spec.prices),
    });
    // The interactive provider is what the preflight probes and reports name: one request, not a batch.
    return { key, client, provider: interactive, concurrency: batched ? BATCH_WAVE : spec.concurrency };
  };

  // `retries`: the interactive scheduler an item the batch could not answer is asked once more through, under the
  // eval file's limits and retries like any interactive call.
  const batchingProvider = async (key: string, modelSpec: ModelSpec, interactive: Provider, options: RunBatchOptions, retries: Scheduler) =>
    new BatchingProvider({
      provider: interactive,
      backend: await createBatchClient(modelSpec, credentials, { providers }),
      runSignal: options.runSignal,
      maxWave: BATCH_WAVE,
      interactive: async (request, signal) => (await retries.schedule((attemptSignal) => interactive.complete(request, { signal: attemptSignal }), { signal, estimatedTokens: estimateTokens(request.messages) + (request.maxTokens ?? 0) })).value,
      onProgress: (progress) => options.onProgress?.(key, progress),
      onSubmitted: (submitted) => options.onSubmitted(key, submitted),
      ...(options.onSubmitting ? { onSubmitting: options.onSubmitting } : {}),
      resumed: options.resumed.filter((entry) => entry.modelKey === key).map((entry) => entry.batch),
    });

  const models = [];
  for (const modelSpec of spec.models) {
    models.push({ ...(await build(modelSpec)), spec: modelSpec });
  }
  const judge = spec.judge ? await build(spec.judge) : undefined;
  const embeddings = spec.embeddings ? await buildEmbeddings(spec.embeddings, credentials, newScheduler(), cacheDir) : undefined;
  return { models, judge, embeddings };
}

/**
 * The client for writing data with a model (counterfactual generation), shared by the CLI and the extension so both
 * make the same calls: its own scheduler (4 retries, 2-minute timeout, since generations are long), the seed in the
 * request, and no cache — a generation that failed its checks must be asked again, not replayed.
 */
export async function createGeneratorClient(modelSpec: ModelSpec, options: GeneratorClientOptions): Promise<CountingModelClient> {
  const spec = { ...modelSpec, parameters: { ...modelSpec.parameters, seed: options.seed } };
  const key = modelKeyOf(spec);
  const provider = await createProvider(spec, options.credentials, { env: options.env, providers: options.providers });
  const scheduler = new Scheduler({ concurrency: options.concurrency, maxRetries: 4, timeoutMs: 120_000 });
  return createModelClient({ key, provider, model: spec.model, parameters: spec.parameters, scheduler, prices: (usage) => costOf(key, usage) });
}

/** Where the run's cache folder keeps its vectors (one file per text). */
export const embeddingCacheDir = (cacheDir: string): string => path.join(cacheDir, 'embeddings');

export async function buildEmbeddings(modelSpec: ModelSpec, credentials: Credentials, scheduler: Scheduler, cacheDir: string | undefined): Promise<RunClients['embeddings']> {
  const key = modelKeyOf(modelSpec);
  const provider = await createEmbeddingProvider(modelSpec, credentials);
  const client = createEmbeddingClient({ key, provider, model: modelSpec.model, scheduler, cacheDir: cacheDir ? embeddingCacheDir(cacheDir) : undefined });
  return { key, client, provider };
}
