// Context relevance as in the RAGAS paper: the share of the context's sentences the judge extracts as needed for the question.
import type { CaseDocument, Evidence, Score } from '../../model.js';
import { locateQuote } from './evidence.js';
import { NEITHER_VERDICT, judgeErrorScore } from '../judging.js';
import { ask, joinContexts } from './judgeStep.js';
import type { JudgeStep, StepContext } from './judgeStep.js';
import { countSentences } from './sentences.js';

export const CONTEXT_RELEVANCE = 'context_relevance';

export interface RelevanceInput {
  question: string;
  context: string;
}

export interface RelevanceOutput {
  sentences: string[];
}

/** The paper's extraction prompt (ragas 0.0.x `context_relevancy`), with the sentences returned as a JSON list. */
export const RELEVANCE_STEP: JudgeStep<RelevanceInput, RelevanceOutput> = {
  name: 'ragas_context_relevance',
  prompt: 'ragas/context-relevance.prompt',
  schema: {
    type: 'object',
    properties: {
      sentences: {
        type: 'array',
        items: { type: 'string' },
        description: 'the relevant sentences copied unchanged from the context, or ["Insufficient Information"]',
      },
    },
    required: ['sentences'],
    additionalProperties: false,
  },
  variables: ({ question, context }) => ({ question, context }),
};

const INSUFFICIENT = /^insufficient information\.?$/i;

/** True when the judge said "Insufficient Information" (with or without a period) or extracted nothing. */
export function isInsufficient(sentences: readonly string[]): boolean {
  const meaningful = sentences.map((s) => s.trim()).filter((s) => s !== '');
  return meaningful.every((s) => INSUFFICIENT.test(s));
}

/** min(extracted / total, 1); a context with no sentences scores 0, as in the reference. */
export function contextRelevanceScore(extracted: number, total: number): number {
  if (total === 0) return 0;
  return Math.min(extracted / total, 1);
}

export interface ExtractedSentence {
  text: string;
  /** Sentences it counts as (an item may hold more than one). */
  sentences: number;
  /** Where it is, when it is an exact substring of a document; the reference counts it either way. */
  evidence?: Evidence;
}

export interface ContextRelevanceInput {
  question: string;
  documents: readonly CaseDocument[];
}

/** Handler: one extraction call over the joined contexts; count sentences on both sides; locate each extracted one. */
export async function scoreContextRelevance(context: StepContext, input: ContextRelevanceInput): Promise<Score> {
  const joined = joinContexts(input.documents.map((d) => d.text));
  const outcome = await ask(context, RELEVANCE_STEP, { question: input.question, context: joined });
  if (!outcome.ok) return judgeErrorScore(CONTEXT_RELEVANCE, context.judge.key, outcome.error, { raw: outcome.raw });
  const total = countSentences(joined);
  if (outcome.value.sentences.every((s) => s.trim() === '')) {
    // Neither a sentence nor "Insufficient Information": the reference counts no sentence, so 0; said, and counted.
    return {
      metric: CONTEXT_RELEVANCE,
      value: 0,
      label: NEITHER_VERDICT,
      explanation: `The judge extracted nothing and did not say "Insufficient Information" (it matched neither answer the prompt asks for); scored 0 as the reference counts it (the context has ${total} sentences).`,
      details: { extracted: [], contextSentences: total, judge: context.judge.key },
    };
  }
  if (isInsufficient(outcome.value.sentences)) {
    return {
      metric: CONTEXT_RELEVANCE,
      value: 0,
      label: 'insufficient-information',
      explanation: `The judge found no relevant sentence ("Insufficient Information"), so the score is 0 (the context has ${total} sentences).`,
      details: { extracted: [], contextSentences: total, judge: context.judge.key },
    };
  }
  const extracted: ExtractedSentence[] = outcome.value.sentences.map((s) => s.trim()).filter((s) => s !== '').map((text) => {
    const evidence = locateQuote(input.documents, text);
    return { text, sentences: countSentences(text), ...(evidence ? { evidence } : {}) };
  });
  const count = extracted.reduce((sum, e) => sum + e.sentences, 0);
  const value = contextRelevanceScore(count, total);
  const notFound = extracted.filter((e) => !e.evidence).length;
  const note = notFound > 0 ? ` ${notFound} extracted sentence(s) are not exact text of any document (the judge changed them); they still count, as in the reference.` : '';
  const evidence = extracted.flatMap((e) => (e.evidence ? [e.evidence] : []));
  return {
    metric: CONTEXT_RELEVANCE,
    value,
    label: value === 1 ? 'all-relevant' : 'partly-relevant',
    explanation: `${count} of ${total} context sentences were extracted as relevant: min(${count}/${total}, 1) = ${value}.${note}`,
    ...(evidence.length > 0 ? { evidence } : {}),
    details: { extracted, contextSentences: total, judge: context.judge.key },
  };
}
