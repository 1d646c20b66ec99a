// What a run's model calls may cost at most, from the rendered prompts and the price table: asked before anything is
// spent by VS Code (a confirmation above the setting) and by an agent's tools (a ceiling).
import * as path from 'node:path';
import { embeddingCacheDir, modelKeyOf } from './clients.js';
import { renderedCases } from './plan.js';
import { countMessages, tokenizerFor } from '../prompt/tokens.js';
import { batchCostOf, costOf, priceOf } from '../providers/prices.js';
import type { Usage } from '../model.js';
import type { EvalSpec } from '../spec/types.js';
import { planBuild } from '../corpus/build.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { ModelSpec } from '../providers/contract.js';
import { embeddingIdentityOf } from '../providers/registry.js';
import { cachedEmbeddings } from '../run/embeddingClient.js';

export interface CostEstimate {
  /** USD for the model calls whose price is known; 0 when every model is free. */
  usd: number;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  /** Models with no known price: their calls are not in `usd`. */
  unpriced: string[];
  /** What the same calls would cost sent one by one; differs from `usd` when models run in batch mode (half price). */
  interactiveUsd: number;
  /**
   * The eval file's `index:` build, when it embeds (dense, hybrid): the changed files' chunks, how many of them the
   * embedding cache holds, the texts and tokens that will be sent, their price (in `usd` too).
   */
  index?: IndexEstimate;
}

export interface IndexEstimate {
  model: string;
  chunks: number;
  cached: number;
  texts: number;
  inputTokens: number;
  usd: number;
}

/** Output tokens assumed per call when the model sets no `maxTokens`: a short RAG answer. */
export const DEFAULT_OUTPUT_TOKENS = 256;

/**
 * An upper bound on what the run's model calls cost: every selected (case, model) is counted as a fresh call, although
 * unchanged requests will come from the cache, and output is taken at `maxTokens` (else DEFAULT_OUTPUT_TOKENS).
 * Judge calls are not included (how many a suite makes depends on the answers). Free and unpriced models are
 * skipped without rendering any prompt, so a run on the extractive baseline or a local server costs nothing to check.
 */
export async function estimateCost(spec: EvalSpec, caseFilter: ((caseId: string, modelKey: string) => boolean) | undefined, signal: AbortSignal, stateDir = path.join(path.dirname(spec.file), '.rag-inspector')): Promise<CostEstimate> {
  const estimate = await estimateModelCalls(spec, caseFilter, signal);
  const index = spec.index?.embeddings && spec.index.search !== 'bm25' ? await estimateIndex(spec.index, spec.index.embeddings, spec.prices, stateDir, signal) : undefined;
  if (!index) return estimate;
  if (index.unpriced) estimate.unpriced.push(index.model);
  const { unpriced: _, ...priced } = index;
  return { ...estimate, usd: estimate.usd + index.usd, interactiveUsd: estimate.interactiveUsd + index.usd, index: priced };
}

/**
 * What building the index embeds before the first question: the changed files' chunks (corpus/build.ts planBuild)
 * less those whose vector the embedding cache holds (the run's cache under `stateDir`), priced as input tokens.
 */
async function estimateIndex(index: IndexSpec, model: ModelSpec, prices: EvalSpec['prices'], stateDir: string, signal: AbortSignal) {
  const key = modelKeyOf(model);
  const identity = embeddingIdentityOf(model);
  const cacheDir = embeddingCacheDir(path.join(stateDir, 'cache'));
  const plan = await planBuild(index, stateDir, signal, identity ? (texts) => cachedEmbeddings(cacheDir, identity, model.model, texts, signal) : undefined);
  const usd = costOf(key, { inputTokens: plan.inputTokens, outputTokens: 0 }, prices);
  return { model: key, chunks: plan.chunks, cached: plan.cached, texts: plan.texts, inputTokens: plan.inputTokens, usd: usd ?? 0, unpriced: usd === undefined && plan.texts > 0 };
}

/** "Indexing first: 12 chunks to embed with openai:text-embedding-3-small (28 of 40 chunks cached), about 3,100 tokens ($0.0001)." — empty when nothing is sent. */
export function describeIndexEstimate(index: IndexEstimate | undefined): string {
  if (!index || index.texts === 0) return '';
  const cached = index.cached > 0 ? ` (${index.cached.toLocaleString('en-US')} of ${index.chunks.toLocaleString('en-US')} chunks cached)` : '';
  return `Indexing first: ${index.texts.toLocaleString('en-US')} chunk${index.texts === 1 ? '' : 's'} to embed with ${index.model}${cached}, about ${index.inputTokens.toLocaleString('en-US')} tokens (${formatUsd(index.usd)}).`;
}

async function estimateModelCalls(spec: EvalSpec, caseFilter: ((caseId: string, modelKey: string) => boolean) | undefined, signal: AbortSignal): Promise<CostEstimate> {
  const unpriced: string[] = [];
  const paid = spec.models.flatMap((model) => {
    const key = modelKeyOf(model);
    const price = priceOf(key, spec.prices);
    if (!price) unpriced.push(key);
    return price && (price.input > 0 || price.output > 0) ? [{ key, model, price }] : [];
  });
  const estimate: CostEstimate = { usd: 0, calls: 0, inputTokens: 0, outputTokens: 0, unpriced, interactiveUsd: 0 };
  if (paid.length === 0) return estimate;
  const models = paid.map(({ key, model }) => ({
    key,
    // A batched model's calls are priced as the run will bill them (run/modelClient: batchCostOf).
    priced: (usage: Usage) => (model.batch === true ? batchCostOf : costOf)(key, usage, spec.prices) ?? 0,
    listPriced: (usage: Usage) => costOf(key, usage, spec.prices) ?? 0,
    tokenizer: tokenizerFor(key),
    maxTokens: typeof model.parameters.maxTokens === 'number' ? model.parameters.maxTokens : DEFAULT_OUTPUT_TOKENS,
  }));
  // One case in memory at a time: a dataset of 100,000 rows is estimated without holding its prompts.
  for await (const evalCase of renderedCases(spec, signal)) {
    // A response the dataset already holds is scored without a call.
    if (evalCase.givenResponse !== undefined) continue;
    for (const { key, priced, listPriced, tokenizer, maxTokens } of models) {
      if (caseFilter && !caseFilter(evalCase.id, key)) continue;
      const usage = { inputTokens: countMessages(evalCase.messages, tokenizer), outputTokens: maxTokens };
      estimate.calls += 1;
      estimate.inputTokens += usage.inputTokens;
      estimate.outputTokens += usage.outputTokens;
      estimate.usd += priced(usage);
      estimate.interactiveUsd += listPriced(usage);
    }
  }
  return estimate;
}

export function formatUsd(usd: number): string {
  return usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`;
}
