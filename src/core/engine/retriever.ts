// The run's retriever from the eval file: `retriever:` (a command or an HTTP service) or `index:` (a folder the
// product indexes and searches itself) through the run's cache, or the passages already in the rows (`type: dataset`,
// the default), which the rag method reads from each row itself.
import * as path from 'node:path';
import { createIndexRetriever, indexIdentity } from '../corpus/indexRetriever.js';
import type { IndexRetriever, IndexRetrieverOptions } from '../corpus/indexRetriever.js';
import { openStore } from '../corpus/stores/open.js';
import type { Credentials } from '../providers/registry.js';
import { createRetriever } from '../retrieval/create.js';
import { RetrieverError } from '../retrieval/contract.js';
import type { Retriever } from '../retrieval/contract.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import { cachedRetriever } from '../run/retrievalCache.js';
import type { CountedRetriever } from '../run/retrievalCache.js';
import { Scheduler } from '../run/scheduler.js';
import type { EvalSpec } from '../spec/types.js';
import { buildEmbeddings } from './clients.js';

/** The rows' own passages: nothing to call; the method reads them from the row (rag/cases.ts, passagesInRow). */
const ROWS_RETRIEVER: Retriever = {
  identity: 'dataset',
  kind: 'dataset',
  retrieve: () => Promise.reject(new Error('the dataset retriever has no service to ask: the method reads the passages from the row')),
};

/** What an `index:` needs from the run: where its state lives, the embedding model's key, and what to tell as it builds. */
export interface RunIndexContext {
  /** The workspace's `.rag-inspector`. */
  stateDir: string;
  credentials: Credentials;
  /** Vectors not cached on disk (--no-cache). */
  noCache?: boolean;
  onProgress?: IndexRetrieverOptions['onProgress'];
  onBuilt?: IndexRetrieverOptions['onBuilt'];
}

/** `cacheDir` undefined: --no-cache; `refresh`: ask again and store the fresh answers (--refresh). Starts nothing yet. */
export function runRetriever(spec: Pick<EvalSpec, 'retriever' | 'index' | 'concurrency' | 'rateLimit' | 'maxRetries' | 'timeoutMs'>, cacheDir: string | undefined, refresh: boolean, env: NodeJS.ProcessEnv, index?: RunIndexContext): CountedRetriever {
  if (spec.index) {
    if (!index) throw new Error('an index: retriever needs the run\'s state folder and credentials');
    return cachedRetriever(indexRetrieverOf(spec.index, spec, env, index), cacheDir, { refresh });
  }
  const source = spec.retriever;
  if (!source || source.type === 'dataset') return cachedRetriever(ROWS_RETRIEVER, undefined);
  return cachedRetriever(createRetriever(source, { env }), cacheDir, { refresh });
}

/**
 * The index retriever, its embedding client made on the first question (creating a provider may load a vendor SDK,
 * which a plan only counted never needs) with the eval file's limits, its vectors cached beside the run's.
 * `rag-inspector index` builds through the same object (`version` builds), so a run finds the index it made.
 */
export function indexRetrieverOf(index: IndexSpec, spec: Pick<EvalSpec, 'concurrency' | 'rateLimit' | 'maxRetries' | 'timeoutMs'>, env: NodeJS.ProcessEnv, context: RunIndexContext): IndexRetriever {
  let made: Promise<IndexRetriever> | undefined;
  let closed = false;
  const make = () => {
    made ??= (async () => {
      const dense = index.search !== 'bm25' && index.embeddings;
      const scheduler = new Scheduler({ concurrency: spec.concurrency, requestsPerMinute: spec.rateLimit.requestsPerMinute, tokensPerMinute: spec.rateLimit.tokensPerMinute, maxRetries: spec.maxRetries, timeoutMs: spec.timeoutMs });
      const embeddings = dense ? await buildEmbeddings(index.embeddings!, context.credentials, scheduler, context.noCache ? undefined : path.join(context.stateDir, 'cache')).catch((error: unknown) => {
        throw new RetrieverError('start', `the index's embedding model ${index.embeddings!.provider}:${index.embeddings!.model} could not be set up: ${error instanceof Error ? error.message : String(error)}`);
      }) : undefined;
      return createIndexRetriever({
        spec: index,
        stateDir: context.stateDir,
        env,
        ...(embeddings ? { embeddings: embeddings.client, openStore: (indexDir: string) => openStore(index.store, indexDir, env) } : {}),
        ...(context.onProgress ? { onProgress: context.onProgress } : {}),
        ...(context.onBuilt ? { onBuilt: context.onBuilt } : {}),
      });
    })();
    return made;
  };
  return {
    identity: indexIdentity(index),
    kind: 'index',
    version: async (signal) => (await make()).version(signal),
    retrieve: async (request, signal) => (await make()).retrieve(request, signal),
    close: async () => {
      if (closed) return;
      closed = true;
      if (made) await (await made.catch(() => undefined))?.close?.();
    },
  };
}
