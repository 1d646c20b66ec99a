// The slim view of a finished case that a suite's report reads: no prompt, documents or response text, so a run of
// 100,000 cases keeps a few hundred bytes per case for its tables instead of everything the model saw.
import type { CaseError, CaseResult, EvalCase, ResponseRecord, Score } from '../model.js';

/** What a report may know about a case: where it came from and the parameters that produced it. */
export interface ReportCase extends Pick<EvalCase, 'id' | 'suiteId' | 'method' | 'row' | 'testbed' | 'params'> {
  /** Human scores from the dataset row, for the meta-evaluation tables (RAGAS, LLM-Eval). */
  humanScores?: Readonly<Record<string, number>>;
}

/** A score without its explanation and evidence; of `details`, only what the suite's report reads (Suite.reportDetails). */
export type ReportScore = Pick<Score, 'metric' | 'value' | 'pass' | 'label' | 'judgeError' | 'details' | 'samples'>;

/** What a report may know about a result: verdicts, scores, and the usage that run totals add up. */
export interface ReportResult extends Pick<CaseResult, 'caseId' | 'modelKey' | 'status' | 'pass' | 'judgeUsage'> {
  error?: Pick<CaseError, 'stage' | 'kind'>;
  scores: ReportScore[];
  response?: Pick<ResponseRecord, 'given' | 'usage' | 'cached' | 'costUsd' | 'latencyMs' | 'finishReason'>;
}

/** What the slimming needs from the case's suite (both optional; see Suite in contract.ts). */
export interface ReportViewHooks {
  humanScoresOf?(evalCase: EvalCase): Readonly<Record<string, number>> | undefined;
  reportDetails?(score: Score): unknown;
}

export function toReportCase(evalCase: EvalCase, hooks: ReportViewHooks = {}): ReportCase {
  const { id, suiteId, method, row, testbed, params } = evalCase;
  const view: ReportCase = { id, suiteId, method, row, params };
  if (testbed !== undefined) view.testbed = testbed;
  const humanScores = hooks.humanScoresOf?.(evalCase);
  if (humanScores !== undefined) view.humanScores = humanScores;
  return view;
}

export function toReportResult(result: CaseResult, hooks: ReportViewHooks = {}): ReportResult {
  const view: ReportResult = {
    caseId: result.caseId,
    modelKey: result.modelKey,
    status: result.status,
    scores: result.scores.map((score) => slimScore(score, hooks)),
  };
  if (result.pass !== undefined) view.pass = result.pass;
  if (result.error) view.error = { stage: result.error.stage, kind: result.error.kind };
  if (result.judgeUsage) view.judgeUsage = result.judgeUsage;
  if (result.response) {
    const { given, usage, cached, costUsd, latencyMs, finishReason } = result.response;
    view.response = { usage, cached, latencyMs, ...(given === undefined ? {} : { given }), ...(costUsd === undefined ? {} : { costUsd }), ...(finishReason === undefined ? {} : { finishReason }) };
  }
  return view;
}

function slimScore(score: Score, hooks: ReportViewHooks): ReportScore {
  const view: ReportScore = { metric: score.metric, value: score.value };
  if (score.pass !== undefined) view.pass = score.pass;
  if (score.label !== undefined) view.label = score.label;
  if (score.judgeError !== undefined) view.judgeError = score.judgeError;
  // k numbers per score (judgeSamples): what the self-consistency table reads.
  if (score.samples !== undefined) view.samples = score.samples;
  // Details can be kilobytes per case (RAGAS's per-statement verdicts, RGB's response spans) that no table reads.
  const details = score.details === undefined ? undefined : hooks.reportDetails?.(score);
  if (details !== undefined) view.details = details;
  return view;
}

/** The report view of cases held in full (a test, or a caller with a few cases in memory). */
export function reportCasesOf(cases: ReadonlyMap<string, EvalCase> | Iterable<EvalCase>, hooks: ReportViewHooks = {}): Map<string, ReportCase> {
  const list = cases instanceof Map ? (cases as ReadonlyMap<string, EvalCase>).values() : (cases as Iterable<EvalCase>);
  return new Map([...list].map((c) => [c.id, toReportCase(c, hooks)]));
}
