// The pre-run check of an `index:` block's own endpoints, before the index is built or anything is spent: its embedding
// model checked as preflight.ts checks any model (its model list, else the embedding of one word), its reranker with one
// rerank of one word. A wrong URL, key or model stops the run or sweep with a message naming the setting to fix.
import { createReranker } from '../corpus/rerank.js';
import { createEmbeddingProvider } from '../providers/registry.js';
import type { Credentials } from '../providers/registry.js';
import { RetrieverError } from '../retrieval/contract.js';
import type { IndexSpec, RerankSpec } from '../retrieval/indexSpec.js';
import { displayUrl } from '../retrieval/http.js';
import { PREFLIGHT_PROBE_TEXT, PreflightError, preflight } from './preflight.js';
import type { PreflightResult, PreflightTarget } from './preflight.js';
import { modelKeyOf } from './clients.js';

export interface IndexPreflightOptions {
  /** Keys of the embedding model (env vars in the CLI, SecretStorage in VS Code). */
  credentials: Credentials;
  /** Where the reranker's header values are read from. */
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * Checks every embedding model and reranker the `indexes` search with (a run's one index, or each setting of a sweep),
 * each distinct endpoint once. `base` is the eval file's `index:`: a model it does not name came from `sweep.embeddings`.
 */
export async function preflightIndexes(base: IndexSpec, indexes: readonly IndexSpec[], options: IndexPreflightOptions): Promise<PreflightResult> {
  const targets: PreflightTarget[] = [];
  const rerankers = new Map<string, RerankSpec>();
  for (const index of indexes) {
    if (index.search !== 'bm25' && index.embeddings) {
      const key = modelKeyOf(index.embeddings);
      const setting = base.embeddings && modelKeyOf(base.embeddings) === key ? 'index.embeddings' : 'sweep.embeddings';
      if (!targets.some((t) => t.key === `${setting} ${key}`)) {
        const provider = await createEmbeddingProvider(index.embeddings, options.credentials).catch((error: unknown) => {
          throw new PreflightError(`${setting} ${key} cannot be set up: ${error instanceof Error ? error.message : String(error)}`);
        });
        targets.push({ key: `${setting} ${key}`, model: index.embeddings.model, provider, setting });
      }
    }
    if (index.rerank) rerankers.set(JSON.stringify([index.rerank.url, index.rerank.model ?? null]), index.rerank);
  }
  const { warnings } = await preflight(targets, options.signal, options.timeoutMs);
  for (const rerank of rerankers.values()) {
    const warning = await checkReranker(rerank, options);
    if (warning) warnings.push(warning);
  }
  return { warnings };
}

/** One rerank of one word; a busy reranker (429, 5xx) is a warning, since a retrieval that fails is a case error. */
async function checkReranker(spec: RerankSpec, options: IndexPreflightOptions): Promise<string | undefined> {
  const url = displayUrl(spec.url);
  try {
    await createReranker(spec, options.env).rerank(PREFLIGHT_PROBE_TEXT, [PREFLIGHT_PROBE_TEXT], 1, AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]));
    return undefined;
  } catch (error) {
    if (options.signal.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    if (!(error instanceof RetrieverError)) throw new PreflightError(`index.rerank at ${url}: ${detail}`);
    const status = error.status;
    if (status === 429 || (status !== undefined && status >= 500)) return `index.rerank: the first request to ${url} failed, the run goes on — ${detail}`;
    throw rerankStop(error, url, spec, detail);
  }
}

function rerankStop(error: RetrieverError, url: string, spec: RerankSpec, detail: string): PreflightError {
  switch (error.kind) {
    case 'network':
      return new PreflightError(`index.rerank: cannot connect to ${url} — is the reranker running? (start it, or correct index.rerank.url in the eval file) (${detail})`, 'unreachable');
    case 'timeout':
      return new PreflightError(`index.rerank: no answer from ${url} in time — is the reranker up and not still loading? (index.rerank.timeoutMs in the eval file)`);
    case 'start':
      return new PreflightError(`index.rerank: ${detail} (index.rerank.headers in the eval file names the variables)`);
    case 'http-status':
      if (error.status === 401 || error.status === 403) return new PreflightError(`index.rerank: ${url} refused the key (HTTP ${error.status}) — check the variable index.rerank.headers names in the eval file (${detail})`);
      if (error.status === 404 || error.status === 400 || error.status === 422) {
        return new PreflightError(`index.rerank: ${url} answered HTTP ${error.status} — check index.rerank.url (TEI serves /rerank, Jina /v1/rerank, Cohere /v2/rerank)${spec.model ? ` and index.rerank.model ('${spec.model}')` : ''} in the eval file (${detail})`);
      }
      return new PreflightError(`index.rerank: ${detail}`);
    default:
      return new PreflightError(`index.rerank: ${url} does not answer as a reranker — check index.rerank.url in the eval file (${detail})`);
  }
}
