// The cost of an explanation before anything is spent: variant runs planned, those the variant log or the response
// cache already answer, the model calls left and their price (output counted at maxTokens, as the run estimate does).
import { completionCall } from '../engine/executeCase.js';
import { templateParametersFor } from '../engine/runEvaluation.js';
import { countMessages, tokenizerFor } from '../prompt/tokens.js';
import { priceOf } from '../providers/prices.js';
import type { ExplainPlan } from './model.js';
import { explanationOf } from './session.js';
import type { Session, Target } from './session.js';

/** Output tokens assumed per call when the model sets no maxTokens: a short RAG answer (as for a run's estimate). */
export const DEFAULT_OUTPUT_TOKENS = 256;

/**
 * Prices the session's pending variants and, with `maxCalls`, drops the ones past the budget (cache hits and given
 * responses cost no call and are kept), so the run makes exactly the calls planned here. Judge calls are not priced:
 * how many a method makes depends on the answers.
 */
export async function priceSession(session: Session, maxCalls?: number): Promise<ExplainPlan> {
  const plan: ExplainPlan = { cases: [], variants: 0, alreadyDone: 0, fromCache: 0, calls: 0, checks: 0, estimatedUsd: 0, unpriced: [], truncated: false };
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
    // The faithfulness check is planned once the other variants have run; its call is budgeted and priced now, as
    // the original's request (an upper bound: it shows fewer sources).
    target.checkBudgeted = checkMayCall(target) && (maxCalls === undefined || plan.calls < maxCalls);
    if (checkMayCall(target) && !target.checkBudgeted) plan.truncated = true;
    if (target.checkBudgeted) {
      plan.calls += 1;
      plan.checks += 1;
      const call = completionCall(target.evalCase, templateParametersFor(target.suitePlan, target.model.spec));
      const price = priceOf(target.model.key, session.spec.prices);
      if (!price) unpriced.add(target.model.key);
      else {
        const maxTokens = typeof target.model.spec.parameters.maxTokens === 'number' ? target.model.spec.parameters.maxTokens : call.maxTokens ?? DEFAULT_OUTPUT_TOKENS;
        plan.estimatedUsd += (countMessages(target.evalCase.messages, tokenizerFor(target.model.key)) * price.input + maxTokens * price.output) / 1_000_000;
      }
    }
    plan.cases.push({ caseId: target.evalCase.id, modelKey: target.result.modelKey, variants: target.variants.length, fromCache });
    plan.variants += target.variants.length;
    plan.alreadyDone += alreadyDone;
    plan.fromCache += fromCache;
  }
  plan.unpriced = [...unpriced];
  plan.estimatedUsd = Math.round(plan.estimatedUsd * 1e6) / 1e6;
  return plan;
}

/**
 * Whether the faithfulness check may need a model call of its own. Not when the response is given (re-judged only), when
 * every subset runs (one of them shows exactly the sources the check leaves in), or when there is at most one source
 * (removing it is its leave-one-out run); when every variant is already done, the check itself says.
 */
export function checkMayCall(target: Target): boolean {
  if (target.evalCase.givenResponse !== undefined || target.sources.length === 0) return false;
  const planned = target.variants.filter((v) => v.id !== 'original');
  if (planned.length > 0 && planned.every((v) => target.done.has(v.id)) && target.done.has('original')) {
    return explanationOf(target).faithfulness?.status === 'not-run';
  }
  if (target.variants.filter((v) => v.kind === 'subsets').length === 2 ** target.sources.length) return false;
  return !(target.sources.length === 1 && target.variants.some((v) => v.kind === 'loo'));
}
