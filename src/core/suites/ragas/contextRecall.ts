// Context recall (ragas): the share of the reference's statements that the retrieved contexts can be credited with.
import type { CaseDocument, Score } from '../../model.js';
import { judgeErrorScore } from '../judging.js';
import { ask, joinContexts, undeterminedScore } from './judgeStep.js';
import type { JudgeStep, StepContext } from './judgeStep.js';

export const CONTEXT_RECALL = 'context_recall';

export interface RecallInput {
  question: string;
  context: string;
  /** The reference answer whose sentences are classified. */
  answer: string;
}

export interface RecallClassification {
  statement: string;
  reason: string;
  attributed: 0 | 1;
}

export interface RecallOutput {
  classifications: RecallClassification[];
}

/** ragas ContextRecallClassificationPrompt. */
export const RECALL_STEP: JudgeStep<RecallInput, RecallOutput> = {
  name: 'ragas_context_recall',
  prompt: 'ragas/context-recall.prompt',
  schema: {
    type: 'object',
    properties: {
      classifications: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            statement: { type: 'string', description: 'a sentence of the answer' },
            reason: { type: 'string', description: 'why it can or cannot be attributed to the context' },
            attributed: { type: 'integer', enum: [0, 1], description: '1 if the sentence can be attributed to the context, 0 if not' },
          },
          required: ['statement', 'reason', 'attributed'],
          additionalProperties: false,
        },
      },
    },
    required: ['classifications'],
    additionalProperties: false,
  },
  variables: ({ question, context, answer }) => ({ question, context, answer }),
};

/** attributed / total; no classifications → null (NaN in the reference). */
export function contextRecallScore(attributed: readonly number[]): number | null {
  if (attributed.length === 0) return null;
  return attributed.reduce((sum, a) => sum + a, 0) / attributed.length;
}

export interface ContextRecallInput {
  question: string;
  reference: string;
  documents: readonly CaseDocument[];
}

/** Handler: one classification call over the joined contexts, then the attributed share. */
export async function scoreContextRecall(context: StepContext, input: ContextRecallInput): Promise<Score> {
  const outcome = await ask(context, RECALL_STEP, { question: input.question, context: joinContexts(input.documents.map((d) => d.text)), answer: input.reference });
  if (!outcome.ok) return judgeErrorScore(CONTEXT_RECALL, context.judge.key, outcome.error, { raw: outcome.raw });
  const classifications = outcome.value.classifications;
  const value = contextRecallScore(classifications.map((c) => c.attributed));
  const details = { classifications, judge: context.judge.key };
  if (value === null) return undeterminedScore(CONTEXT_RECALL, 'no-statements', 'The judge classified no sentence of the reference (NaN in the reference).', details);
  const attributed = classifications.filter((c) => c.attributed === 1).length;
  const lines = classifications.map((c, i) => `${i + 1}. ${c.attributed ? 'attributed' : 'NOT attributed'}: ${c.statement} — ${c.reason}`);
  return {
    metric: CONTEXT_RECALL,
    value,
    label: value === 1 ? 'fully-recalled' : 'missing-statements',
    explanation: [`${attributed} of ${classifications.length} reference sentences can be attributed to the contexts.`, ...lines].join('\n'),
    details,
  };
}
