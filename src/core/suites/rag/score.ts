// Scores a rag case: RGB's answer match on the reference (score: match) or the eval file's judge (score: judge);
// a failed case also gets the retrieval's part of its cause (not retrieved, ranked out, or undetermined so far).
import { builtinPrompt } from '../../assets.js';
import type { EvalCase, Score } from '../../model.js';
import { retrievalCause } from '../../retrieval/causes.js';
import type { ScoreContext } from '../contract.js';
import { judgeErrorScore } from '../judging.js';
import { checkAnswer, isCorrect } from '../rgb/match.js';
import type { AnswerParts } from '../rgb/rows.js';
import { ragCaseParams } from './cases.js';
import type { RagParams } from './params.js';

export const RAG_JUDGE_PROMPT = builtinPrompt('rag/judge.prompt');

export const JUDGE_SCHEMA = {
  type: 'object',
  properties: {
    reason: { type: 'string', description: 'Why the response does or does not answer the question correctly' },
    verdict: { type: 'string', enum: ['correct', 'incorrect'] },
  },
  required: ['reason', 'verdict'],
  additionalProperties: false,
} as const;

interface JudgeAnswer {
  reason: string;
  verdict: 'correct' | 'incorrect';
}

export async function scoreRagCase(evalCase: EvalCase, response: string, params: RagParams, context: ScoreContext): Promise<Score[]> {
  const correct = params.score === 'judge' ? await judged(evalCase, response, context) : matched(evalCase, response);
  if (correct.pass !== false) return [correct];
  return [correct, causeScore(evalCase)];
}

function matched(evalCase: EvalCase, response: string): Score {
  const answer = evalCase.expected as AnswerParts;
  const parts = checkAnswer(response, answer);
  const pass = isCorrect(parts.map((p) => p.label));
  const alternatives = answer.map((alts) => alts.map((a) => `"${a}"`).join(' / ')).join(' and ');
  const found = parts.find((p) => p.matched !== undefined)?.matched;
  return {
    metric: 'correct',
    value: pass ? 1 : 0,
    pass,
    label: pass ? 'correct' : 'incorrect',
    explanation: pass ? `The response contains the answer "${found}".` : `The response contains none of ${alternatives} (lowercase substring match).`,
  };
}

async function judged(evalCase: EvalCase, response: string, context: ScoreContext): Promise<Score> {
  if (!context.judge) return { metric: 'correct', value: null, label: 'judge-error', judgeError: 'no judge configured', explanation: 'score: judge needs judge: in the eval file. Not counted either way.' };
  const answer = evalCase.expected as AnswerParts | null;
  const outcome = await context.judge.ask<JudgeAnswer>(RAG_JUDGE_PROMPT, {
    question: evalCase.question,
    reference: answer ? answer.map((alts) => alts.join(' or ')).join(' and ') : '',
    response,
    documents: evalCase.documents.map(({ id, text }) => ({ id, text })),
    output_schema: JSON.stringify(JUDGE_SCHEMA),
  }, { schema: { name: 'rag_correct', schema: JUDGE_SCHEMA } });
  if (!outcome.ok) return judgeErrorScore('correct', context.judge.key, outcome.error);
  const pass = outcome.value.verdict === 'correct';
  return { metric: 'correct', value: pass ? 1 : 0, pass, label: outcome.value.verdict, explanation: `The judge ${context.judge.key}: ${outcome.value.reason}` };
}

/** The retrieval's part of a failed case's cause; undetermined when a relevant passage was sent (Explain decides). */
function causeScore(evalCase: EvalCase): Score {
  const record = ragCaseParams(evalCase).retrieval;
  const finding = record ? retrievalCause(record) : { cause: 'undetermined' as const, words: 'no retrieval was recorded for this case' };
  return { metric: 'cause', value: null, label: finding.cause, explanation: finding.words, details: finding };
}
