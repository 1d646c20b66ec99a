// Runs one case against one model: the call, then the suite's scorers; every failure ends as a recorded result.
import { isTruncated } from '../model.js';
import type { CaseError, CaseResult, ClientResponse, EvalCase, ModelClient, Score, TruncatedPolicy, Usage } from '../model.js';
import { ProviderConfigError, ProviderError } from '../providers/contract.js';
import { attemptsOf as schedulerAttemptsOf } from '../run/scheduler.js';
import type { EmbeddingClient, ScoreContext, Suite } from '../suites/contract.js';
import { createJudge } from '../suites/judging.js';
import { aggregateSamples } from '../suites/judgeSamples.js';
import type { JudgeSampling } from '../suites/judgeSamples.js';

/** Judge calls and what they used; the cost is undefined once any call's price is unknown. */
export type JudgeUsage = Usage & { calls: number; costUsd?: number };

export interface CaseRun {
  evalCase: EvalCase;
  suite: Suite<unknown>;
  params: unknown;
  modelKey: string;
  client: ModelClient;
  judge?: ModelClient;
  /** The embeddings model, for scorers that compare meanings (RAGAS answer relevancy). */
  embeddings?: EmbeddingClient;
  /** Decoding parameters from the template's front matter; the model's own parameters win over them. */
  templateParameters: Record<string, unknown>;
  signal: AbortSignal;
  /** judgeSamples: k from the eval file; absent or k = 1 scores once. */
  judgeSamples?: JudgeSampling;
  /** The model entry's `truncated`: 'error' makes an answer cut at the token limit a case error instead of scoring it. */
  truncated?: TruncatedPolicy;
}

export async function executeCase(run: CaseRun): Promise<CaseResult> {
  const startedAt = new Date().toISOString();
  const judgeUsage = { inputTokens: 0, outputTokens: 0, calls: 0, costUsd: 0 as number | undefined };

  // The retriever failed for this case's question: nothing to send the model; --resume --retry-errors asks again.
  if (run.evalCase.retrievalError) {
    const { kind, message } = run.evalCase.retrievalError;
    return {
      caseId: run.evalCase.id, modelKey: run.modelKey, status: 'error', scores: [],
      error: { stage: 'retrieval', kind, message: `the retriever failed: ${message}` }, attempts: 0, startedAt, finishedAt: new Date().toISOString(),
    };
  }

  let response: ClientResponse;
  try {
    if (run.evalCase.givenResponse !== undefined) {
      response = givenResponse(run.evalCase.givenResponse);
    } else {
      // Cases started together (a run's first wave) make their calls one turn apart, each request written before
      // the next is built, rather than every request waiting until the last one is made.
      await afterPendingIo();
      response = await run.client.complete(completionCall(run.evalCase, run.templateParameters), run.signal);
    }
  } catch (error) {
    return {
      caseId: run.evalCase.id, modelKey: run.modelKey, status: 'error', scores: [],
      error: caseErrorOf('model', error), attempts: attemptsOf(error), startedAt, finishedAt: new Date().toISOString(),
    };
  }

  await afterPendingIo();

  if (run.truncated === 'error' && isTruncated(response)) {
    return {
      caseId: run.evalCase.id, modelKey: run.modelKey, status: 'error', response: withoutAttempts(response), scores: [],
      error: { stage: 'model', kind: 'truncated', message: `the answer was cut at the token limit (finish reason "${response.finishReason ?? ''}") and not scored (truncated: error)` },
      attempts: response.attempts, startedAt, finishedAt: new Date().toISOString(),
    };
  }

  let scores: Score[];
  try {
    scores = await scoreCase(run, response.text, judgeUsage);
  } catch (error) {
    return {
      caseId: run.evalCase.id, modelKey: run.modelKey, status: 'error', response: withoutAttempts(response), scores: [],
      error: caseErrorOf('score', error), attempts: response.attempts, startedAt, finishedAt: new Date().toISOString(),
      judgeUsage: judgeUsage.calls ? judgeUsage : undefined,
    };
  }

  return {
    caseId: run.evalCase.id,
    modelKey: run.modelKey,
    status: 'success',
    response: withoutAttempts(response),
    scores,
    pass: overallPass(scores),
    attempts: response.attempts,
    judgeUsage: judgeUsage.calls ? judgeUsage : undefined,
    startedAt,
    finishedAt: new Date().toISOString(),
  };
}

/**
 * The method's scorers, once; or k times with judge samples 0..k-1 (one after another, so a case's samples never
 * race each other for the judge's rate limit), aggregated per metric (judgeSamples.ts).
 */
async function scoreCase(run: CaseRun, text: string, judgeUsage: JudgeUsage): Promise<Score[]> {
  const contextFor = (index?: number): ScoreContext => ({
    signal: run.signal,
    judge: run.judge ? createJudge(countingJudge(run.judge, judgeUsage), run.signal, index === undefined ? undefined : { index, temperature: run.judgeSamples!.temperature }) : undefined,
    embeddings: run.embeddings,
  });
  const k = run.judge && run.judgeSamples ? run.judgeSamples.k : 1;
  if (k <= 1) return run.suite.score(run.evalCase, text, run.params, contextFor());
  const samples: Score[][] = [];
  for (let index = 0; index < k; index++) samples.push(await run.suite.score(run.evalCase, text, run.params, contextFor(index)));
  return aggregateSamples(samples);
}

/** The call a case makes: its messages and the template's decoding parameters (also what a cost plan checks the cache for). */
export function completionCall(evalCase: EvalCase, templateParameters: Record<string, unknown>): Parameters<ModelClient['complete']>[0] {
  return {
    messages: evalCase.messages,
    temperature: numberParam(templateParameters, 'temperature'),
    maxTokens: numberParam(templateParameters, 'maxTokens'),
  };
}

/**
 * Resolves once the event loop has gone round. A request is written to its socket on a later tick than it is made
 * (http.request assigns the socket with process.nextTick), and Node runs ticks only once the promise jobs queued
 * before them are done: without a turn of the loop, a call's request waits for whatever else the same turn does — the
 * next calls being built, the answered case being scored and logged. After an answer, this lets the next call (given
 * the answer's slot by the scheduler) write its request, and answers that arrived meanwhile be read and their slots
 * given on, before the case's own work takes the thread. A run waiting on a server keeps its slots busy; the work is the
 * same, done a moment later.
 */
function afterPendingIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The dataset's own answer, scored as it is: no call, no tokens, no cost. */
function givenResponse(text: string): ClientResponse {
  return { text, given: true, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, cached: false, costUsd: 0, attempts: 0 };
}

/** A case passes when every score that gives a verdict passed; a judge error is not a pass. */
export function overallPass(scores: readonly Score[]): boolean | undefined {
  const verdicts = scores.filter((s) => s.pass !== undefined || s.judgeError !== undefined);
  if (verdicts.length === 0) return undefined;
  return verdicts.every((s) => s.pass === true && s.judgeError === undefined);
}

/** The judge client, adding each call's tokens and cost to `usage` (a case's judgeUsage; the run's row preparation). */
export function countingJudge(judge: ModelClient, usage: JudgeUsage): ModelClient {
  return {
    key: judge.key,
    async complete(request, signal) {
      const response = await judge.complete(request, signal);
      usage.calls += 1;
      usage.inputTokens += response.usage.inputTokens;
      usage.outputTokens += response.usage.outputTokens;
      // An unknown price makes the whole sum unknown rather than quietly low.
      usage.costUsd = usage.costUsd === undefined || response.costUsd === undefined ? undefined : usage.costUsd + response.costUsd;
      return response;
    },
  };
}

function withoutAttempts(response: ClientResponse) {
  const { attempts: _attempts, ...record } = response;
  return record;
}

function numberParam(parameters: Record<string, unknown>, name: string): number | undefined {
  const value = parameters[name];
  return typeof value === 'number' ? value : undefined;
}

/** The scheduler's count, which also covers a non-retryable error that ended a call after retries (kept beside the error, not on it). */
function attemptsOf(error: unknown): number {
  return schedulerAttemptsOf(error) ?? 1;
}

export function caseErrorOf(stage: CaseError['stage'], error: unknown): CaseError {
  if (error instanceof ProviderError) {
    return { stage, kind: error.kind, message: error.message, status: error.status };
  }
  const cause = (error as { lastError?: unknown })?.lastError;
  if (cause instanceof ProviderError) {
    return { stage, kind: cause.kind, message: (error as Error).message, status: cause.status };
  }
  if (error instanceof ProviderConfigError) return { stage, kind: 'config', message: error.message };
  return { stage, kind: 'internal', message: error instanceof Error ? error.message : String(error) };
}
