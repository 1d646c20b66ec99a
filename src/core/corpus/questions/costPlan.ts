// The cost of generating the planned questions before anything is spent: model calls per kind (the generation, the
// closed-book answer, the counterfactual rewrite), judge calls (answerable, each multi-hop chunk alone, closed-book correctness, unanswerable) and
// one embedding per question, priced from the chunks' tokens. An upper bound on calls: no repair or retry counted,
// and a question rejected early makes fewer. Building the index the unanswerable check searches is `rag-inspector
// index`'s cost, not counted here.
import { priceOf } from '../../providers/prices.js';
import type { Price } from '../../providers/prices.js';
import type { QuestionJob, QuestionKind } from './model.js';

/** Calls one job makes when every check runs. */
export const CALLS_PER_JOB: Record<QuestionKind, { generator: number; judge: number }> = {
  'single-hop': { generator: 2, judge: 2 },
  'multi-hop': { generator: 2, judge: 4 },
  unanswerable: { generator: 1, judge: 1 },
  conflicting: { generator: 3, judge: 2 },
};

/** Tokens around the chunk text in a prompt (instructions, the question, the JSON format). */
const PROMPT_OVERHEAD_TOKENS = 300;
/** Output assumed per call: a question, its answer and a quoted sentence, or a judge's reason. */
const OUTPUT_TOKENS = 200;

export interface QuestionCostPlan {
  jobs: number;
  /** Finished by an earlier run: skipped. */
  alreadyDone: number;
  byKind: Partial<Record<QuestionKind, number>>;
  calls: { generator: number; judge: number; embeddings: number };
  estimatedUsd: number;
  /** Models with no known price: their calls are not in estimatedUsd. */
  unpriced: string[];
}

export interface CostModels {
  generator: string;
  judge: string;
  embeddings: string;
  prices?: Record<string, Price>;
}

export function planCost(jobs: readonly QuestionJob[], done: ReadonlySet<string>, models: CostModels): QuestionCostPlan {
  const plan: QuestionCostPlan = { jobs: 0, alreadyDone: 0, byKind: {}, calls: { generator: 0, judge: 0, embeddings: 0 }, estimatedUsd: 0, unpriced: [] };
  const unpriced = new Set<string>();
  const price = (key: string, calls: number, inputTokens: number) => {
    const known = priceOf(key, models.prices);
    if (!known) unpriced.add(key);
    else plan.estimatedUsd += (inputTokens * known.input + calls * OUTPUT_TOKENS * known.output) / 1_000_000;
  };
  for (const job of jobs) {
    if (done.has(job.key)) {
      plan.alreadyDone++;
      continue;
    }
    plan.jobs++;
    plan.byKind[job.kind] = (plan.byKind[job.kind] ?? 0) + 1;
    const calls = CALLS_PER_JOB[job.kind];
    const chunkTokens = job.chunks.reduce((sum, c) => sum + c.tokens, 0);
    plan.calls.generator += calls.generator;
    plan.calls.judge += calls.judge;
    plan.calls.embeddings += 1;
    price(models.generator, calls.generator, calls.generator * (chunkTokens + PROMPT_OVERHEAD_TOKENS));
    price(models.judge, calls.judge, calls.judge * (chunkTokens + PROMPT_OVERHEAD_TOKENS));
  }
  // Embeddings are priced by input only; a question is a few dozen tokens.
  const embeddingPrice = priceOf(models.embeddings, models.prices);
  if (plan.calls.embeddings > 0 && !embeddingPrice) unpriced.add(models.embeddings);
  else if (embeddingPrice) plan.estimatedUsd += (plan.calls.embeddings * 30 * embeddingPrice.input) / 1_000_000;
  plan.unpriced = [...unpriced];
  plan.estimatedUsd = Math.round(plan.estimatedUsd * 1e6) / 1e6;
  return plan;
}

/** The plan in a few lines, for the terminal (and the palette command's confirmation). */
export function formatCostPlan(plan: QuestionCostPlan, models: CostModels): string {
  const kinds = Object.entries(plan.byKind).map(([kind, n]) => `${n} ${kind}`).join(', ') || 'none';
  const lines = [
    `Questions to generate: ${plan.jobs} (${kinds})${plan.alreadyDone ? `; ${plan.alreadyDone} already done, skipped` : ''}`,
    `Calls, at most: ${plan.calls.generator} to ${models.generator}, ${plan.calls.judge} to the judge ${models.judge}, ${plan.calls.embeddings} embedding(s) with ${models.embeddings}`,
    `Estimated cost: $${plan.estimatedUsd.toFixed(4)}${plan.unpriced.length ? ` (no price known for ${plan.unpriced.join(', ')}: not counted)` : ''}`,
  ];
  return lines.join('\n');
}
