// Before a run: its cost estimated from the rendered prompts and the price table, and a modal confirmation above `ragInspector.maxCostWithoutConfirm`.
import * as vscode from 'vscode';
import { modelKeyOf } from '../core/engine/clients.js';
import { renderedCases } from '../core/engine/plan.js';
import { countMessages, tokenizerFor } from '../core/prompt/tokens.js';
import { batchCostOf, costOf, priceOf } from '../core/providers/prices.js';
import type { Usage } from '../core/model.js';
import type { ExplainPlan } from '../core/explain/model.js';
import type { EvalSpec } from '../core/spec/types.js';

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
}

/** Output tokens assumed per call when the model sets no `maxTokens`: a short RAG answer. */
export const DEFAULT_OUTPUT_TOKENS = 256;

/**
 * An upper bound on what the run's model calls cost: every selected (case, model) is counted as a fresh call, although
 * unchanged requests will come from the cache, and output is taken at `maxTokens` (else DEFAULT_OUTPUT_TOKENS).
 * Judge calls are not included (how many a suite makes depends on the answers). Free and unpriced models are
 * skipped without rendering any prompt, so a run on the extractive baseline or a local server costs nothing to check.
 */
export async function estimateCost(spec: EvalSpec, caseFilter: ((caseId: string, modelKey: string) => boolean) | undefined, signal: AbortSignal): Promise<CostEstimate> {
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

/** "Batch mode: up to $5.00 at the batch price; the same calls one by one: up to $10.00." — empty without batched models. */
export function batchSaving(estimate: CostEstimate): string {
  if (estimate.interactiveUsd <= estimate.usd) return '';
  return `Batch mode: up to ${formatUsd(estimate.usd)} at the batch price; the same calls one by one: up to ${formatUsd(estimate.interactiveUsd)}.`;
}

export const RUN_ANYWAY = 'Run';

/** True to go ahead: under the limit, or the user confirmed in a modal. */
export async function confirmCost(title: string, estimate: CostEstimate, limit: number): Promise<boolean> {
  return askAboveLimit(title, estimate.usd, limit, [
    `${estimate.calls.toLocaleString()} model calls, about ${estimate.inputTokens.toLocaleString()} input and up to ${estimate.outputTokens.toLocaleString()} output tokens.`,
    'An upper bound: requests already in the cache cost nothing, and judge calls are not included.',
    batchSaving(estimate),
    estimate.unpriced.length ? `No price known for ${estimate.unpriced.join(', ')} (not counted).` : '',
  ]);
}

/** The same question for an explanation, from its plan (core's planExplanation: the cache and finished variants already left out). */
export async function confirmExplanationCost(title: string, plan: ExplainPlan, limit: number): Promise<boolean> {
  return askAboveLimit(title, plan.estimatedUsd, limit, [
    describePlan(plan),
    'An upper bound: output counted at maxTokens, and judge calls are not included.',
    plan.unpriced.length ? `No price known for ${plan.unpriced.join(', ')} (not counted).` : '',
    plan.truncated ? 'The call budget leaves some variants out: the explanation will be partial.' : '',
  ]);
}

/** "3 cases, 40 variants (12 from the cache, 4 already done): 24 model calls" — shown before anything is spent. */
export function describePlan(plan: ExplainPlan): string {
  const cases = `${plan.cases.length} case${plan.cases.length === 1 ? '' : 's'}`;
  return `${cases}, ${plan.variants} variants (${plan.fromCache} from the cache, ${plan.alreadyDone} already done): ${plan.calls} model call${plan.calls === 1 ? '' : 's'}`;
}

async function askAboveLimit(title: string, usd: number, limit: number, lines: string[]): Promise<boolean> {
  if (usd <= limit || usd === 0) return true;
  const detail = [...lines, `Change the limit with the setting ragInspector.maxCostWithoutConfirm (now ${formatUsd(limit)}).`].filter(Boolean).join('\n');
  const answer = await vscode.window.showWarningMessage(`RAG Inspector: ${title} may cost up to ${formatUsd(usd)}. Run it?`, { modal: true, detail }, RUN_ANYWAY);
  return answer === RUN_ANYWAY;
}
