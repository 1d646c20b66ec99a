// Builds the model clients of a run: one scheduler per model (rate limits are per endpoint and model), shared cache.
import { costOf } from '../providers/prices.js';
import { createProvider } from '../providers/registry.js';
import type { Credentials } from '../providers/registry.js';
import { ResponseCache } from '../run/cache.js';
import { createModelClient } from '../run/modelClient.js';
import { Scheduler } from '../run/scheduler.js';
import type { EvalSpec, ModelSpec } from '../spec/types.js';
import type { ModelClient } from '../suites/contract.js';

export interface CallCounter {
  calls: number;
  cacheHits: number;
}

export interface RunClients {
  models: { key: string; spec: ModelSpec; client: ModelClient; counter: CallCounter; concurrency: number }[];
  judge?: { key: string; client: ModelClient; counter: CallCounter };
}

export function modelKeyOf(spec: ModelSpec): string {
  return `${spec.provider}:${spec.model}`;
}

export async function createRunClients(spec: EvalSpec, credentials: Credentials, cacheDir: string | undefined): Promise<RunClients> {
  const cache = cacheDir ? new ResponseCache(cacheDir) : undefined;
  const build = async (modelSpec: ModelSpec) => {
    const key = modelKeyOf(modelSpec);
    const provider = await createProvider(modelSpec, credentials);
    const scheduler = new Scheduler({
      concurrency: spec.concurrency,
      requestsPerMinute: spec.rateLimit.requestsPerMinute,
      tokensPerMinute: spec.rateLimit.tokensPerMinute,
      maxRetries: spec.maxRetries,
      timeoutMs: spec.timeoutMs,
    });
    const counter: CallCounter = { calls: 0, cacheHits: 0 };
    const client = createModelClient({
      key,
      provider,
      model: modelSpec.model,
      parameters: modelSpec.parameters,
      scheduler,
      cache,
      prices: (usage) => costOf(key, usage, spec.prices),
      onCall: (event) => {
        if (event.cached) counter.cacheHits += 1;
        else counter.calls += 1;
      },
    });
    return { key, client, counter };
  };

  const models = [];
  for (const modelSpec of spec.models) {
    models.push({ ...(await build(modelSpec)), spec: modelSpec, concurrency: spec.concurrency });
  }
  const judge = spec.judge ? await build(spec.judge) : undefined;
  return { models, judge };
}
