// Editor documentation of the method parameters whose default depends on something else in the eval file (the
// needle's scoring on judge:, LLM-Eval's reply parser, stress's answerBearing: judge, which needs judge:). Each method still checks its own params at load
// (paramChecks.ts); these only describe, so they never reject a key.
import type { JsonSchema } from './schema.js';

function forMethod(method: string, properties: Record<string, JsonSchema>): JsonSchema {
  return { if: { properties: { method: { const: method } }, required: ['method'] }, then: { properties: { params: { type: 'object', properties } } } };
}

export const methodParamDocs: JsonSchema[] = [
  forMethod('needle', {
    scoring: {
      enum: ['auto', 'judge', 'substring', 'rail'],
      default: 'auto',
      description: 'How each response is scored. auto (default): classic — the judge (the reference\'s 1–10) when the eval file sets judge:, a substring check when it does not; arize — rails; multi — needles retrieved of k. Adding judge: for another suite therefore switches classic needle suites without scoring: to the judge; set scoring: substring to keep them as they were. The scoring used is shown beside the suite in the report and panel.',
    },
  }),
  forMethod('stress', {
    answerBearing: {
      enum: ['match', 'judge'],
      default: 'match',
      description: 'Which retrieved passages bear the answer. match (default): RGB\'s rule, the reference (or any alternative of each part) as a lowercase substring. judge: before a row\'s cases are built, the eval file\'s judge is asked once per passage whether it states the reference answer, paraphrased or not (prompts/stress/judge-answer-bearing.prompt); needs judge:, verdicts are cached and recorded on each case, a row whose verdict cannot be read is reported at its line; not for information_integration or counterfactual_robustness. A row\'s answer_bearing column wins over both.',
    },
  }),
  forMethod('rag', {
    k: { type: 'integer', minimum: 1, default: 5, description: 'The cut-off: the first k passages the retriever returns are sent to the model (the case\'s documents d0…).' },
    candidates: { type: 'integer', minimum: 1, default: 20, description: 'Passages asked of the retriever per question (at least k): the ranked list the retrieval metrics and the causes (ranked out below k) read.' },
    score: { enum: ['match', 'judge'], default: 'match', description: 'match (default): RGB\'s answer match, any alternative of the answer column as a lowercase substring of the response. judge: the eval file\'s judge decides (prompts/rag/judge.prompt); a judge answer that cannot be read is undetermined.' },
    ks: { type: 'array', items: { type: 'integer', minimum: 1 }, default: [1, 3, 5, 10], description: 'The cut-offs of the retrieval metrics table (recall, precision, hit rate, nDCG at each).' },
  }),
  forMethod('llm-eval', {
    parser: {
      enum: ['reference', 'strict'],
      default: 'reference',
      description: 'How the judge\'s reply is read. reference (default): as MiuLab/LLM-Eval reads it — the JSON object inside any prose, extra keys ignored, numbers given as strings accepted, non-integer scores on 0–100 truncated by int(); one call, no structured output. strict: the reply must be JSON matching the schema (sent as structured output), one repair retry. What the reference parser tolerated is recorded on each case.',
    },
  }),
];
