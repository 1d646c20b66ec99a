// The RAGAS suite (Es et al., "RAGAS: Automated Evaluation of Retrieval Augmented Generation"; explodinggradients/ragas): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { RAGAS_METHOD, expandRagasRow, ragasExpected } from './cases.js';
import { parseRagasParams, ragasParamsSchema } from './params.js';
import type { RagasParams } from './params.js';
import { createRagasAggregator, ragasReport } from './report.js';
import { scoreRagasCase } from './score.js';

export const ragasSuite: Suite<RagasParams> = {
  method: RAGAS_METHOD,
  summary: 'RAGAS metrics',
  parseParams: (raw, where) => parseRagasParams(raw, where),
  paramsSchema: ragasParamsSchema,
  expandRow: (row, params, context) => expandRagasRow(row, params, context),
  score: (evalCase, responseText, params, context) => scoreRagasCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => ragasReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createRagasAggregator(params, suiteId),
  humanScoresOf: (evalCase) => ragasExpected(evalCase).humanScores,
  // Used only for rows without a response: the model under test answers from the retrieved contexts.
  defaultTemplate: () => builtinPrompt('ragas/answer.prompt'),
  lowerIsBetter: ['noise_sensitivity_relevant', 'noise_sensitivity_irrelevant'],
};
