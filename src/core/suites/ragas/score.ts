// Scores one RAGAS case: the case's metrics run side by side, sharing the response's statements; no judge → every metric says so.
import type { EvalCase, Score } from '../../model.js';
import type { ScoreContext } from '../contract.js';
import type { JudgeOutcome } from '../judging.js';
import { ANSWER_RELEVANCY, scoreAnswerRelevancy } from './answerRelevancy.js';
import { ragasCaseParams, ragasExpected } from './cases.js';
import { CONTEXT_PRECISION, CONTEXT_UTILIZATION, scoreContextUsefulness } from './contextPrecision.js';
import { CONTEXT_RECALL, scoreContextRecall } from './contextRecall.js';
import { CONTEXT_RELEVANCE, scoreContextRelevance } from './contextRelevance.js';
import { FAITHFULNESS, scoreFaithfulness } from './faithfulness.js';
import { needsJudgeScore, undeterminedScore } from './judgeStep.js';
import type { StepContext } from './judgeStep.js';
import { NOISE_SENSITIVITY_IRRELEVANT, NOISE_SENSITIVITY_RELEVANT, scoreNoiseSensitivity } from './noiseSensitivity.js';
import { RAGAS_METRICS } from './params.js';
import type { NoiseMode, RagasMetric, RagasParams } from './params.js';
import { generateStatements } from './statements.js';

/** A metric the row could not feed: undetermined, saying which field was missing. */
function skippedScores(evalCase: EvalCase): Score[] {
  return ragasCaseParams(evalCase).skipped.map(({ metric, reason }) => undeterminedScore(metric, 'not-applicable', `Not scored: ${reason}.`));
}

/** Decompose the response once, however many metrics read its statements (the promise is shared, not the call repeated). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= make());
}

function noiseModes(metrics: readonly RagasMetric[]): NoiseMode[] {
  const modes: NoiseMode[] = [];
  if (metrics.includes(NOISE_SENSITIVITY_RELEVANT)) modes.push('relevant');
  if (metrics.includes(NOISE_SENSITIVITY_IRRELEVANT)) modes.push('irrelevant');
  return modes;
}

/** Runs every asked metric (judge calls overlap; the judge's scheduler bounds them) and returns scores in report order. */
async function runMetrics(evalCase: EvalCase, response: string, params: RagasParams, step: StepContext, context: ScoreContext): Promise<Score[]> {
  const metrics = ragasCaseParams(evalCase).metrics;
  const reference = ragasExpected(evalCase).reference ?? '';
  const question = evalCase.question;
  const documents = evalCase.documents;
  const responseStatements = once((): Promise<JudgeOutcome<string[]>> => generateStatements(step, { question, answer: response }));
  const jobs: Promise<Score | Score[]>[] = [];
  for (const metric of metrics) {
    switch (metric) {
      case FAITHFULNESS:
        jobs.push(scoreFaithfulness(step, { question, response, documents, responseStatements }));
        break;
      case ANSWER_RELEVANCY:
        jobs.push(scoreAnswerRelevancy(step, { question, response, embeddings: context.embeddings, params: params.answerRelevancy }));
        break;
      case CONTEXT_PRECISION:
        jobs.push(scoreContextUsefulness(step, { metric, question, answer: reference, documents, exact: params.contextPrecision.exact }));
        break;
      case CONTEXT_UTILIZATION:
        jobs.push(response.trim() === ''
          ? Promise.resolve(undeterminedScore(metric, 'empty-response', 'The response is empty: no context can have been used for it.'))
          : scoreContextUsefulness(step, { metric, question, answer: response, documents, exact: params.contextPrecision.exact }));
        break;
      case CONTEXT_RECALL:
        jobs.push(scoreContextRecall(step, { question, reference, documents }));
        break;
      case CONTEXT_RELEVANCE:
        jobs.push(scoreContextRelevance(step, { question, documents }));
        break;
      case NOISE_SENSITIVITY_RELEVANT:
      case NOISE_SENSITIVITY_IRRELEVANT:
        break; // both modes come from one set of calls, below
    }
  }
  const modes = noiseModes(metrics);
  if (modes.length > 0) jobs.push(scoreNoiseSensitivity(step, { question, reference, documents, responseStatements }, modes));
  return (await Promise.all(jobs)).flat();
}

function inReportOrder(scores: Score[]): Score[] {
  const rank = (metric: string) => RAGAS_METRICS.indexOf(metric as RagasMetric);
  return scores.sort((a, b) => rank(a.metric) - rank(b.metric));
}

/** Suite.score for RAGAS. */
export async function scoreRagasCase(evalCase: EvalCase, response: string, params: RagasParams, context: ScoreContext): Promise<Score[]> {
  const skipped = skippedScores(evalCase);
  if (!context.judge) return inReportOrder([...ragasCaseParams(evalCase).metrics.map(needsJudgeScore), ...skipped]);
  const step: StepContext = { judge: context.judge, signal: context.signal };
  return inReportOrder([...(await runMetrics(evalCase, response, params, step, context)), ...skipped]);
}
