// The checks a generated question must pass, each a verdict in words or a failure to decide: its answer not in the
// question, its chunks answering it (judge), the model without documents not answering it, the corpus not answering
// an unanswerable one, and no near-duplicate among the kept questions (embedding cosine).
import type { ModelClient } from '../../model.js';
import { cosineSimilarities } from '../../suites/ragas/answerRelevancy.js';
import { findAlias } from '../../suites/ifrag/normalise.js';
import { createJudge } from '../../suites/judging.js';
import { JUDGE_SCHEMA as CORRECTNESS_SCHEMA } from '../../suites/rag/score.js';
import { renderPromptFile } from '../../suites/ifrag/counterfactual.js';
import { describeError } from '../../errors.js';

export const QUESTION_PROMPTS = {
  singleHop: 'questions/single-hop.prompt',
  multiHop: 'questions/multi-hop.prompt',
  unanswerable: 'questions/unanswerable.prompt',
  closedBook: 'questions/closed-book.prompt',
  answerable: 'questions/judge-answerable.prompt',
  correctness: 'rag/judge.prompt',
} as const;

/** A check's outcome: passed (with what it saw), refused (a verdict on the question), or undecided (a failure: asked again on a rerun). */
export type CheckOutcome = { verdict: 'pass'; note: string } | { verdict: 'fail'; reason: string } | { verdict: 'undecided'; reason: string };

const ANSWERABLE_SCHEMA = {
  type: 'object',
  properties: {
    reason: { type: 'string', description: 'What the passages say about the question' },
    verdict: { type: 'string', enum: ['answerable', 'not-answerable'] },
  },
  required: ['reason', 'verdict'],
  additionalProperties: false,
} as const;

/** The question spells out its own answer (RGB/SQuAD normalisation, as the rag method's match): refused without a call. */
export function leakCheck(question: string, answer: string): CheckOutcome {
  const found = findAlias(question, [answer], 'squad');
  return found === undefined ? { verdict: 'pass', note: 'the answer is not in the question' } : { verdict: 'fail', reason: `the question contains its answer "${answer}"` };
}

export interface Passage {
  id: string;
  text: string;
}

/** Whether `passages` answer `question` (with `reference`: state that answer), by the judge. */
export async function judgeAnswerable(judge: ModelClient, question: string, reference: string, passages: readonly Passage[], signal: AbortSignal): Promise<{ answerable: boolean; reason: string } | { error: string }> {
  const outcome = await createJudge(judge, signal).ask<{ reason: string; verdict: 'answerable' | 'not-answerable' }>(QUESTION_PROMPTS.answerable, {
    question,
    reference,
    passages: passages.map(({ id, text }) => ({ id, text })),
    output_schema: JSON.stringify(ANSWERABLE_SCHEMA),
  }, { schema: { name: 'question_answerable', schema: ANSWERABLE_SCHEMA } });
  if (!outcome.ok) return { error: outcome.error };
  return { answerable: outcome.value.verdict === 'answerable', reason: outcome.value.reason };
}

/** The source chunks must state the reference answer. */
export async function answerableCheck(judge: ModelClient, question: string, answer: string, passages: readonly Passage[], signal: AbortSignal): Promise<CheckOutcome> {
  const judged = await judgeAnswerable(judge, question, answer, passages, signal);
  if ('error' in judged) return { verdict: 'undecided', reason: `the answerable check is undetermined: ${judged.error}` };
  return judged.answerable ? { verdict: 'pass', note: `the judge ${judge.key} found the answer in ${passages.map((p) => p.id).join(' + ')}: ${judged.reason}` } : { verdict: 'fail', reason: `its source chunks do not answer it (judge ${judge.key}: ${judged.reason})` };
}

/** A multi-hop question: neither chunk alone may state the answer, or it is a single-hop question in disguise. */
export async function needsBothCheck(judge: ModelClient, question: string, answer: string, passages: readonly Passage[], signal: AbortSignal): Promise<CheckOutcome> {
  for (const passage of passages) {
    const judged = await judgeAnswerable(judge, question, answer, [passage], signal);
    if ('error' in judged) return { verdict: 'undecided', reason: `the needs-both-chunks check is undetermined: ${judged.error}` };
    if (judged.answerable) return { verdict: 'fail', reason: `not multi-hop: ${passage.id} alone answers it (judge ${judge.key}: ${judged.reason})` };
  }
  return { verdict: 'pass', note: `neither chunk alone answers it (judge ${judge.key})` };
}

/**
 * The generating model answers without documents, then the rag method's correctness judge compares that answer with
 * the reference: correct means the question does not need the documents (it leaks its answer, or asks common knowledge).
 */
export async function closedBookCheck(generator: ModelClient, judge: ModelClient, question: string, answer: string, signal: AbortSignal): Promise<CheckOutcome> {
  let response: string;
  try {
    const prompt = await renderPromptFile(QUESTION_PROMPTS.closedBook, { question });
    response = (await generator.complete({ messages: prompt.messages, temperature: 0, maxTokens: 200 }, signal)).text;
  } catch (error) {
    if (signal.aborted) throw error;
    return { verdict: 'undecided', reason: `the closed-book answer could not be had: ${describeError(error)}` };
  }
  const outcome = await createJudge(judge, signal).ask<{ reason: string; verdict: 'correct' | 'incorrect' }>(QUESTION_PROMPTS.correctness, {
    question,
    reference: answer,
    response,
    documents: [],
    output_schema: JSON.stringify(CORRECTNESS_SCHEMA),
  }, { schema: { name: 'rag_correct', schema: CORRECTNESS_SCHEMA } });
  if (!outcome.ok) return { verdict: 'undecided', reason: `the closed-book check is undetermined: ${outcome.error}` };
  const shown = JSON.stringify(response.length > 120 ? `${response.slice(0, 117)}…` : response);
  return outcome.value.verdict === 'correct'
    ? { verdict: 'fail', reason: `answerable without the documents: ${generator.key} answered ${shown} with no context (judge: ${outcome.value.reason})` }
    : { verdict: 'pass', note: `${generator.key} without documents answered ${shown}: not the answer` };
}

/** An unanswerable question: the passages a search of the corpus returns for it must not answer it. */
export async function corpusLacksCheck(judge: ModelClient, question: string, found: readonly Passage[], signal: AbortSignal): Promise<CheckOutcome> {
  if (found.length === 0) return { verdict: 'pass', note: 'a search of the corpus found no chunk sharing a term with it' };
  const judged = await judgeAnswerable(judge, question, '', found, signal);
  if ('error' in judged) return { verdict: 'undecided', reason: `the unanswerable check is undetermined: ${judged.error}` };
  const ids = found.map((p) => p.id).join(', ');
  return judged.answerable
    ? { verdict: 'fail', reason: `the corpus answers it: the judge ${judge.key} found the answer in the top ${found.length} search hits (${ids}): ${judged.reason}` }
    : { verdict: 'pass', note: `searched the corpus (top ${found.length}: ${ids}); the judge ${judge.key} found no answer: ${judged.reason}` };
}

/** The kept questions' vectors, and the duplicate check against them. */
export class DuplicateIndex {
  private readonly kept: { id: string; vector: number[] }[] = [];

  constructor(private readonly threshold: number) {}

  add(id: string, vector: number[]): void {
    this.kept.push({ id, vector });
  }

  check(vector: number[]): CheckOutcome {
    if (this.kept.length === 0) return { verdict: 'pass', note: 'the first question of its kind' };
    const cosines = cosineSimilarities(vector, this.kept.map((k) => k.vector));
    let best = 0;
    cosines.forEach((c, i) => {
      if (c > (cosines[best] as number)) best = i;
    });
    const closest = `${this.kept[best]?.id} (cosine ${(cosines[best] as number).toFixed(3)})`;
    return (cosines[best] as number) >= this.threshold
      ? { verdict: 'fail', reason: `a near-duplicate of ${closest}, at or above the threshold ${this.threshold}` }
      : { verdict: 'pass', note: `closest kept question ${closest}, below ${this.threshold}` };
  }
}
