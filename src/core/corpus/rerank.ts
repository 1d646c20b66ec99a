// The index's reranker: the first-stage candidates sent to a `/rerank` endpoint of the common shape and put in its order.
import { RetrieverError } from '../retrieval/contract.js';
import type { RerankSpec } from '../retrieval/indexSpec.js';
import { displayUrl, postJson } from '../retrieval/http.js';
import { quoteReceived } from '../retrieval/items.js';

/** A passage's place in the list sent, and the reranker's relevance score for it (higher is more relevant). */
export interface RerankScore {
  index: number;
  score: number;
}

export interface Reranker {
  readonly identity: string;
  /** The reranker's order of `texts` for `query`, best first: every index it scored, at most `topN`. */
  rerank(query: string, texts: readonly string[], topN: number, signal: AbortSignal): Promise<RerankScore[]>;
}

/**
 * Two request shapes, one per family: with `model` (Jina `/v1/rerank`, Cohere `/v2/rerank`, and the servers that copy
 * them: vLLM, Infinity, LiteLLM) `{ model, query, documents, top_n }`; without (TEI's `/rerank`, which serves one
 * model) `{ query, texts }`. Both answers are read: TEI's `[{ index, score }]` and the others'
 * `{ results: [{ index, relevance_score }] }`. Header values come from the environment at every call.
 */
export function createReranker(spec: RerankSpec, env: NodeJS.ProcessEnv): Reranker {
  const identity = `rerank: ${displayUrl(spec.url)}${spec.model ? ` (${spec.model})` : ''}`;
  return {
    identity,
    async rerank(query, texts, topN, signal) {
      if (texts.length === 0) return [];
      const body = spec.model ? { model: spec.model, query, documents: texts, top_n: Math.min(topN, texts.length) } : { query, texts };
      const { answer } = await postJson({ url: spec.url, headers: spec.headers, timeoutMs: spec.timeoutMs, identity }, body, env, signal);
      return scoresOf(answer, texts.length, identity).slice(0, topN);
    },
  };
}

/** The scores in the answer, checked (every index a passage that was sent, once) and sorted best first. */
export function scoresOf(answer: unknown, sent: number, identity: string): RerankScore[] {
  const list = Array.isArray(answer) ? answer : (answer as { results?: unknown } | null)?.results;
  if (!Array.isArray(list)) throw new RetrieverError('bad-shape', `the answer of ${identity} is neither a list of { index, score } (TEI) nor { results: [{ index, relevance_score }] } (Jina, Cohere): received ${quoteReceived(answer)}`);
  const seen = new Set<number>();
  const scores = list.map((entry: unknown, position) => {
    const item = entry as { index?: unknown; score?: unknown; relevance_score?: unknown } | null;
    const index = item?.index;
    const score = item?.relevance_score ?? item?.score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= sent) {
      throw new RetrieverError('bad-shape', `the answer of ${identity}: result ${position + 1} has index ${quoteReceived(index)}, not one of the ${sent} passages sent (0…${sent - 1})`);
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) throw new RetrieverError('bad-shape', `the answer of ${identity}: result ${position + 1} has no numeric score (relevance_score or score): ${quoteReceived(entry)}`);
    if (seen.has(index)) throw new RetrieverError('duplicate-id', `the answer of ${identity} scores passage ${index} twice`);
    seen.add(index);
    return { index, score };
  });
  // Stable: equal scores keep the first stage's order.
  return scores.sort((a, b) => b.score - a.score || a.index - b.index);
}
