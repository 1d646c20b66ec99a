// The cost of an explanation before anything is spent: variant runs planned, those the variant log or the response
// cache already answer, the model calls left and their price (output counted at maxTokens, as the run estimate does).
import { completionCall } from '../engine/executeCase.js';
import { templateParametersFor } from '../engine/runEvaluation.js';
import { countMessages, tokenizerFor } from '../prompt/tokens.js';
import { priceOf } from '../providers/prices.js';
import type { ExplainPlan } from './model.js';
import type { Session } from './session.js';

/** Output tokens assumed per call when the model sets no maxTokens: a short RAG answer (as for a run's estimate). */
export const DEFAULT_OUTPUT_TOKENS = 256;

/**
 * Prices the session's pending variants and, with `maxCalls`, drops the ones past the budget (cache hits and given
 * responses cost no call and are kept), so the run makes exactly the calls planned here. Judge calls are not priced:
 * how many a method makes depends on the answers.
 */
export async function priceSession(session: Session, maxCalls?: number): Promise<ExplainPlan> {
  const plan: ExplainPlan = { cases: [], variants: 0, alreadyDone: 0, fromCache: 0, calls: 0, estimatedUsd: 0, unpriced: [], truncated: false };
  const unpriced = new Set<string>();
  // A variant identical to one of another case (same model, same request) is answered by the cache once that one ran.
  const asked = new Set<string>();
  for (const target of session.targets) {
    const planned = new Set(target.variants.map((v) => v.id));
    const alreadyDone = [...target.done.keys()].filter((id) => planned.has(id)).length;
    let fromCache = 0;
    const kept = [];
    for (const work of target.pending) {
      const call = completionCall(work.evalCase, templateParametersFor(target.suitePlan, work.model.spec));
      const request = `${work.model.key}\u0000${JSON.stringify(call)}`;
      const free = work.evalCase.givenResponse !== undefined || (session.cacheOn && asked.has(request)) || await work.model.client.isCached(call);
      asked.add(request);
      if (!free) {
        if (maxCalls !== undefined && plan.calls >= maxCalls) {
          plan.truncated = true;
          continue;
        }
        plan.calls += 1;
        const price = priceOf(work.model.key, session.spec.prices);
        if (!price) unpriced.add(work.model.key);
        else {
          const maxTokens = typeof work.model.spec.parameters.maxTokens === 'number' ? work.model.spec.parameters.maxTokens : call.maxTokens ?? DEFAULT_OUTPUT_TOKENS;
          plan.estimatedUsd += (countMessages(work.evalCase.messages, tokenizerFor(work.model.key)) * price.input + maxTokens * price.output) / 1_000_000;
        }
      } else fromCache += work.mark.variants.length;
      kept.push(work);
    }
    target.pending = kept;
    plan.cases.push({ caseId: target.evalCase.id, modelKey: target.result.modelKey, variants: target.variants.length, fromCache });
    plan.variants += target.variants.length;
    plan.alreadyDone += alreadyDone;
    plan.fromCache += fromCache;
  }
  plan.unpriced = [...unpriced];
  plan.estimatedUsd = Math.round(plan.estimatedUsd * 1e6) / 1e6;
  return plan;
}
