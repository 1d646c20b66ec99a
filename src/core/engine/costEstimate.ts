// What a run's model calls may cost at most, from the rendered prompts and the price table: asked before anything is
// spent by VS Code (a confirmation above the setting) and by an agent's tools (a ceiling).
import * as path from 'node:path';
import { modelKeyOf } from './clients.js';
import { renderedCases } from './plan.js';
import { countMessages, tokenizerFor } from '../prompt/tokens.js';
import { batchCostOf, costOf, priceOf } from '../providers/prices.js';
import type { Usage } from '../model.js';
import type { EvalSpec } from '../spec/types.js';
import { planBuild } from '../corpus/build.js';
import type { IndexSpec } from '../retrieval/indexSpec.js';
import type { ModelSpec } from '../providers/contract.js';

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
  /** The eval file's `index:` build, when it embeds (dense, hybrid): its texts and tokens, its price in `usd` too. */
  index?: { model: string; texts: number; inputTokens: number; usd: number };
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
  return { ...estimate, usd: estimate.usd + index.usd, interactiveUsd: estimate.interactiveUsd + index.usd, index: { model: index.model, texts: index.texts, inputTokens: index.inputTokens, usd: index.usd } };
}

/**
 * What building the index embeds before the first question: the changed files' chunks (corpus/build.ts planBuild),
 * priced as input tokens of the embedding model. An upper bound: texts already in the embedding cache cost nothing.
 */
async function estimateIndex(index: IndexSpec, model: ModelSpec, prices: EvalSpec['prices'], stateDir: string, signal: AbortSignal) {
  const key = modelKeyOf(model);
  const plan = await planBuild(index, stateDir, signal);
  const usd = costOf(key, { inputTokens: plan.inputTokens, outputTokens: 0 }, prices);
  return { model: key, texts: plan.texts, inputTokens: plan.inputTokens, usd: usd ?? 0, unpriced: usd === undefined && plan.texts > 0 };
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
