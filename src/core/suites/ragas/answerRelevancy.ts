// Answer relevancy (ragas): questions generated back from the response, compared with the asked question by embedding cosine.
import type { Score } from '../../model.js';
import type { EmbeddingClient } from '../contract.js';
import { judgeErrorScore } from '../judging.js';
import { NEEDS_EMBEDDINGS_LABEL, ask, undeterminedScore } from './judgeStep.js';
import type { JudgeStep, StepContext } from './judgeStep.js';
import type { AnswerRelevancyParams, NoncommittalRule } from './params.js';

export const ANSWER_RELEVANCY = 'answer_relevancy';

export interface QuestionGenInput {
  response: string;
}

export interface QuestionGenOutput {
  question: string;
  noncommittal: 0 | 1;
}

/** ragas ResponseRelevancePrompt. */
export const QUESTION_GEN_STEP: JudgeStep<QuestionGenInput, QuestionGenOutput> = {
  name: 'ragas_answer_relevancy',
  prompt: 'ragas/answer-relevancy.prompt',
  schema: {
    type: 'object',
    properties: {
      question: { type: 'string', description: 'a question the answer responds to' },
      noncommittal: { type: 'integer', enum: [0, 1], description: '1 if the answer is noncommittal (evasive, vague, ambiguous), else 0' },
    },
    required: ['question', 'noncommittal'],
    additionalProperties: false,
  },
  variables: ({ response }) => ({ answer: response }),
};

/**
 * cos(E(q_i), E(q)) per generated question, in the reference's order of operations: dot / (‖q_i‖·‖q‖).
 * numpy sums long vectors pairwise (and BLAS may use FMA), so for real embeddings the last bits can differ.
 */
export function cosineSimilarities(question: readonly number[], generated: readonly (readonly number[])[]): number[] {
  const norm = (v: readonly number[]) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0));
  const questionNorm = norm(question);
  return generated.map((vector) => {
    if (vector.length !== question.length) throw new RangeError(`embedding sizes differ: ${vector.length} and ${question.length}`);
    const dot = vector.reduce((sum, x, i) => sum + x * (question[i] as number), 0);
    return dot / (norm(vector) * questionNorm);
  });
}

/**
 * mean cosine × (0 when the noncommittal rule fires, else 1). 'all': every generation noncommittal (ragas since
 * PR #2327); 'any': at least one (earlier ragas releases). Either way a noncommittal answer scores exactly 0.
 */
export function answerRelevancyScore(cosines: readonly number[], noncommittal: readonly number[], rule: NoncommittalRule): number {
  const mean = cosines.reduce((sum, c) => sum + c, 0) / cosines.length;
  return mean * (noncommittalFires(noncommittal, rule) ? 0 : 1);
}

export function noncommittalFires(noncommittal: readonly number[], rule: NoncommittalRule): boolean {
  return rule === 'all' ? noncommittal.every((flag) => flag === 1) : noncommittal.some((flag) => flag === 1);
}

export interface AnswerRelevancyInput {
  question: string;
  response: string;
  embeddings: EmbeddingClient | undefined;
  params: AnswerRelevancyParams;
}

/** Step: strictness generations, each its own sample so the cache keeps them apart. */
async function generateQuestions(context: StepContext, input: AnswerRelevancyInput) {
  const samples = Array.from({ length: input.params.strictness }, (_, i) => i + 1);
  return Promise.all(samples.map((sample) => ask(context, QUESTION_GEN_STEP, { response: input.response }, { temperature: input.params.temperature, sample })));
}

function ruleText(rule: NoncommittalRule): string {
  return rule === 'all'
    ? '0 only if every generation is noncommittal (ragas after PR #2327)'
    : '0 if any generation is noncommittal (ragas releases before PR #2327)';
}

/** Handler: needs an embeddings model; then generations → embeddings → cosine → the noncommittal rule. */
export async function scoreAnswerRelevancy(context: StepContext, input: AnswerRelevancyInput): Promise<Score> {
  if (!input.embeddings) {
    return undeterminedScore(ANSWER_RELEVANCY, NEEDS_EMBEDDINGS_LABEL, 'Not scored: answer relevancy needs an embeddings model. Set embeddings: in the eval file (e.g. embeddings: openai:text-embedding-3-small).');
  }
  if (input.response.trim() === '') return undeterminedScore(ANSWER_RELEVANCY, 'empty-response', 'The response is empty: no question can be generated from it.');
  const outcomes = await generateQuestions(context, input);
  const failed = outcomes.find((o) => !o.ok);
  if (failed && !failed.ok) return judgeErrorScore(ANSWER_RELEVANCY, context.judge.key, `question generation: ${failed.error}`, { raw: failed.raw });
  const generations = outcomes.flatMap((o) => (o.ok ? [o.value] : []));
  // Both references leave empty questions out of the comparison; 'all' also leaves them out of the noncommittal vote.
  const kept = generations.filter((g) => g.question.trim() !== '');
  const flags = (input.params.noncommittal === 'all' ? kept : generations).map((g) => g.noncommittal);
  const common = { rule: input.params.noncommittal, strictness: input.params.strictness, temperature: input.params.temperature, embeddings: input.embeddings.key, judge: context.judge.key };
  if (kept.length === 0) {
    return undeterminedScore(ANSWER_RELEVANCY, 'no-questions', 'The judge generated no question from the response: nothing to compare (ragas ≤ 0.2 returns NaN, the current reference 0; counted as undetermined here).', { ...common, generations });
  }
  let vectors: number[][];
  try {
    vectors = await input.embeddings.embed([input.question, ...kept.map((g) => g.question)], context.signal);
  } catch (error) {
    if (context.signal.aborted) throw error;
    return judgeErrorScore(ANSWER_RELEVANCY, input.embeddings.key, `embeddings call failed: ${error instanceof Error ? error.message : String(error)}`, { ...common, generations });
  }
  const [questionVector, ...generatedVectors] = vectors as [number[], ...number[][]];
  if (generatedVectors.some((v) => v.length !== questionVector.length)) {
    return judgeErrorScore(ANSWER_RELEVANCY, input.embeddings.key, 'the embeddings model returned vectors of different sizes', { ...common, generations });
  }
  const cosines = cosineSimilarities(questionVector, generatedVectors);
  if (cosines.some((c) => !Number.isFinite(c))) {
    return undeterminedScore(ANSWER_RELEVANCY, 'zero-vector', 'An embedding had zero length, so the cosine is undefined (NaN in the reference).', { ...common, generations });
  }
  const value = answerRelevancyScore(cosines, flags, input.params.noncommittal);
  const perGeneration = kept.map((g, i) => ({ question: g.question, noncommittal: g.noncommittal, cosine: cosines[i] }));
  const zeroed = noncommittalFires(flags, input.params.noncommittal);
  const lines = perGeneration.map((g, i) => `${i + 1}. "${g.question}" cos ${g.cosine}${g.noncommittal ? ' (noncommittal)' : ''}`);
  return {
    metric: ANSWER_RELEVANCY,
    value,
    label: zeroed ? 'noncommittal' : 'committal',
    explanation: [`Mean cosine of ${kept.length} generated question(s) with the question; noncommittal rule: ${ruleText(input.params.noncommittal)}${zeroed ? ' — it fired, so the score is 0' : ''}.`, ...lines].join('\n'),
    details: { ...common, generations: perGeneration, noncommittalFlags: flags },
  };
}
