// The stress method: RGB's four abilities and the position curve, built from a user's own RAG rows (RAGAS columns).
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { STRESS_METHOD, expandStressRow } from './cases.js';
import { prepareStressRow } from './judgedBearing.js';
import type { StressPrepared } from './judgedBearing.js';
import { STRESS_TESTBEDS, parseStressParams, stressParamsSchema } from './params.js';
import { looksLikeStressRow } from './counterfactual.js';
import type { StressParams } from './params.js';
import { distractorPoolFor } from './pool.js';
import { readStressRow } from './rows.js';
import { createStressAggregator, stressReport } from './report.js';
import { scoreStressCase } from './score.js';

export const stressSuite: Suite<StressParams, StressPrepared | undefined> = {
  method: STRESS_METHOD,
  summary: 'RGB\'s abilities and the position curve on your own RAG rows',
  reviewedQuestion: (row) => readStressRow(row).question,
  parseParams: (raw, where) => parseStressParams(raw, where),
  paramsSchema: stressParamsSchema,
  quickRunChoice: {
    param: 'testbed',
    question: 'Which stress testbed?',
    choices: STRESS_TESTBEDS.map((label) => (label === 'position' ? { label, description: 'accuracy with the answer-bearing passage at each position' } : { label })),
  },
  // A dataset with RAGAS's columns (a user's own questions, retrieved passages and references) is what stress is for.
  proposeFor: (firstRow) => (looksLikeStressRow(firstRow) ? 'proposed: your RAG rows (RAGAS columns) → RGB\'s abilities and the position curve' : undefined),
  // answerBearing: judge — the judge's verdict on each passage and distractor candidate, before the row's cases are
  // built (judgedBearing.ts).
  prepareRow: (row, params, context) => prepareStressRow(row, params, context, distractorPoolFor(params.distractors, row)),
  expandRow: (row, params, context, prepared) => expandStressRow(row, params, context, distractorPoolFor(params.distractors, row), prepared),
  score: (evalCase, responseText, params, context) => scoreStressCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => stressReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createStressAggregator(params, suiteId),
  // RGB's answer-part labels, for the counterfactual and integration tables (the same tables read them).
  reportDetails: (score) => (score.metric === 'correct' ? { labels: (score.details as { labels?: number[] }).labels } : undefined),
  defaultTemplate: () => builtinPrompt('stress/en.prompt'),
};
