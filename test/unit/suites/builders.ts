// What every suite's tests build alike: a finished result, a score picked by metric, a judge answering from a script.
import type { CaseResult, ClientResponse, ModelClient, Score } from '../../../src/core/model.js';
import type { ScoreContext } from '../../../src/core/suites/contract.js';
import { createJudge } from '../../../src/core/suites/judging.js';

/** A signal never aborted, for suite calls that take one. */
export const noSignal = new AbortController().signal;

/** The score context the engine gives a suite: the judge model, when there is one, behind the judge step. */
export function scoreContext(judge?: ModelClient, signal: AbortSignal = noSignal): ScoreContext {
  return { signal, ...(judge ? { judge: createJudge(judge, signal) } : {}) };
}

export function find(scores: readonly Score[], metric: string): Score {
  const found = scores.find((s) => s.metric === metric);
  if (!found) throw new Error(`no ${metric} score in ${JSON.stringify(scores.map((s) => s.metric))}`);
  return found;
}

export function result(caseId: string, modelKey: string, scores: Score[], status: 'success' | 'error' = 'success'): CaseResult {
  return { caseId, modelKey, status, scores, attempts: 1, startedAt: '2024-01-01T00:00:00Z', finishedAt: '2024-01-01T00:00:01Z' };
}

export type ScriptedJudge = ModelClient & { prompts: string[]; temperatures: (number | undefined)[] };

/**
 * A judge that answers from a script (or throws), remembering what it was asked. The script sees the request's
 * messages one per line: their contents, or "role: content" with `withRoles` (for tests that check who says what).
 */
export function scriptedJudge(answer: (prompt: string) => string, options: { withRoles?: boolean } = {}): ScriptedJudge {
  const prompts: string[] = [];
  const temperatures: (number | undefined)[] = [];
  return {
    key: 'fake:judge',
    prompts,
    temperatures,
    async complete(request): Promise<ClientResponse> {
      const prompt = request.messages.map((m) => (options.withRoles ? `${m.role}: ${m.content}` : m.content)).join('\n');
      prompts.push(prompt);
      temperatures.push(request.temperature);
      return { text: answer(prompt), usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, cached: false, attempts: 1 };
    },
  };
}
