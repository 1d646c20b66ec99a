// The run's retriever from the eval file's `retriever:`: a command or an HTTP service through the run's cache, or the
// passages already in the rows (`type: dataset`, the default), which the rag method reads from each row itself.
import { createRetriever } from '../retrieval/create.js';
import type { Retriever } from '../retrieval/contract.js';
import { cachedRetriever } from '../run/retrievalCache.js';
import type { CountedRetriever } from '../run/retrievalCache.js';
import type { EvalSpec } from '../spec/types.js';

/** The rows' own passages: nothing to call; the method reads them from the row (rag/cases.ts, passagesInRow). */
const ROWS_RETRIEVER: Retriever = {
  identity: 'dataset',
  kind: 'dataset',
  retrieve: () => Promise.reject(new Error('the dataset retriever has no service to ask: the method reads the passages from the row')),
};

/** `cacheDir` undefined: --no-cache; `refresh`: ask again and store the fresh answers (--refresh). Starts nothing yet. */
export function runRetriever(spec: Pick<EvalSpec, 'retriever'>, cacheDir: string | undefined, refresh: boolean, env: NodeJS.ProcessEnv): CountedRetriever {
  const source = spec.retriever;
  if (!source || source.type === 'dataset') return cachedRetriever(ROWS_RETRIEVER, undefined);
  return cachedRetriever(createRetriever(source, { env }), cacheDir, { refresh });
}
