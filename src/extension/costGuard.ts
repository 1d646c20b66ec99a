// Before a run: its cost estimated (core's costEstimate.ts) and a modal confirmation above `ragInspector.maxCostWithoutConfirm`.
import * as vscode from 'vscode';
import { describeIndexEstimate, formatUsd } from '../core/engine/costEstimate.js';
import type { CostEstimate } from '../core/engine/costEstimate.js';
import type { ExplainPlan } from '../core/explain/model.js';
import { formatCostPlan } from '../core/corpus/questions/costPlan.js';
import type { CostModels, QuestionCostPlan } from '../core/corpus/questions/costPlan.js';
import type { SweepCostPlan } from '../core/engine/sweepCell.js';


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
    describeIndexEstimate(estimate.index),
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

/** The same question for test-question generation, from its cost plan (jobs finished by an earlier run left out). */
export async function confirmQuestionCost(title: string, plan: QuestionCostPlan, models: CostModels, limit: number): Promise<boolean> {
  return askAboveLimit(title, plan.estimatedUsd, limit, [formatCostPlan(plan, models), 'An upper bound: requests already in the cache cost nothing, and a question rejected early makes fewer calls.']);
}

/** The same question for a sweep's cells run end to end: `line` is the CLI's ("End to end: 2 cells, cost plan: …"). */
export async function confirmSweepCost(title: string, plan: SweepCostPlan, line: string, limit: number): Promise<boolean> {
  return askAboveLimit(title, plan.usd, limit, [line, 'An upper bound: requests already in the cache cost nothing, and judge calls are not included.']);
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
