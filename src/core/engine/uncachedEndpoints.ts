// Which servers a run will reach: the pre-run check asks only those, so a rerun the cache answers whole needs no server.
import { InputError } from '../errors.js';
import type { EvalCase, ModelClient } from '../model.js';
import { expandedCases, renderCase, variablesProblem } from './plan.js';
import type { LazyPlan, SuitePlan } from './plan.js';

export interface PlannedModel {
  key: string;
  client: { isCached(call: Parameters<ModelClient['complete']>[0]): Promise<boolean> };
}

export interface UncachedEndpoints {
  /** Models under test with at least one call the cache does not answer. */
  models: Set<string>;
  /**
   * Whether the judge and the embeddings model may be asked: their requests are built from the answers, so they are
   * known only once a case runs. They are taken as asked when some answer is new (an uncached call), given by the
   * dataset, or when a method prepares its rows with the judge; when every answer comes from the cache, so, almost
   * always, do the judge's.
   */
  scorers: boolean;
}

export interface UncachedScanOptions<M extends PlannedModel> {
  models: readonly M[];
  /** Whether a (case, model) pair runs (resume, a rerun's selection). */
  wanted: (caseId: string, modelKey: string) => boolean;
  /** The call a case makes to a model, as executeCase makes it. */
  callFor: (suitePlan: SuitePlan, evalCase: EvalCase, model: M) => Parameters<ModelClient['complete']>[0];
  /** false with --no-cache or --refresh: every call reaches its server, nothing to scan. */
  cacheAnswers: boolean;
  /** The run has a judge (a method may then prepare rows with it). */
  judge: boolean;
  /** A retriever the run calls (not the rows' own passages): a case's passages are known only once it answers. */
  retriever?: boolean;
  signal: AbortSignal;
}

/**
 * Renders the planned cases one at a time and asks the cache about each model's call, stopping as soon as every model
 * has a call to make: a first run stops at its first case, only a rerun the cache may answer whole reads them all.
 */
export async function uncachedEndpoints<M extends PlannedModel>(plan: LazyPlan, options: UncachedScanOptions<M>): Promise<UncachedEndpoints> {
  const all = { models: new Set(options.models.map((m) => m.key)), scorers: true };
  if (!options.cacheAnswers) return all;
  // Rows a method prepares with the judge become cases only through the judge: what they will ask is not known here.
  if ((options.judge || options.retriever) && plan.suites.some((s) => s.suite.prepareRow !== undefined && s.dataset !== undefined)) return all;
  const found: UncachedEndpoints = { models: new Set(), scorers: false };
  for (const suitePlan of plan.suites) {
    for await (const evalCase of expandedCases(suitePlan, options.signal)) {
      if (variablesProblem(suitePlan, evalCase)) continue;
      const models = options.models.filter((m) => !found.models.has(m.key) && options.wanted(evalCase.id, m.key));
      if (models.length === 0) continue;
      if (evalCase.givenResponse !== undefined) {
        found.scorers = true;
        continue;
      }
      const rendered = await renderCase(suitePlan, evalCase);
      if (rendered instanceof InputError) continue; // reported by the run as it reaches the case
      for (const model of models) {
        if (await model.client.isCached(options.callFor(suitePlan, rendered, model))) continue;
        found.models.add(model.key);
        found.scorers = true;
      }
      if (found.scorers && found.models.size === options.models.length) return found;
    }
  }
  return found;
}
