// The LLM-Eval suite (Lin & Chen 2023, "LLM-Eval: Unified Multi-Dimensional Automatic Evaluation"; MiuLab/LLM-Eval): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { LLM_EVAL_METHOD, expandLlmEvalRow, llmEvalExpected } from './cases.js';
import { llmEvalParamsSchema, parseLlmEvalParams } from './params.js';
import type { LlmEvalParams } from './params.js';
import { createLlmEvalAggregator, llmEvalReport } from './report.js';
import { scoreLlmEvalCase } from './score.js';

export const llmEvalSuite: Suite<LlmEvalParams> = {
  method: LLM_EVAL_METHOD,
  summary: 'LLM-judged criteria',
  parseParams: (raw, where) => parseLlmEvalParams(raw, where),
  paramsSchema: llmEvalParamsSchema,
  explainSources: 'context',
  expandRow: (row, params, context) => expandLlmEvalRow(row, params, context),
  score: (evalCase, responseText, params, context) => scoreLlmEvalCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => llmEvalReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createLlmEvalAggregator(params, suiteId),
  // The report counts the results read only by tolerating something (referenceParser.ts); the list itself stays in the case.
  reportDetails: (score) => (Array.isArray((score.details as { tolerated?: unknown } | undefined)?.tolerated) ? { tolerated: true } : undefined),
  humanScoresOf: (evalCase) => llmEvalExpected(evalCase).humanScores,
  // Used only for rows without a response: the model under test replies to the context.
  defaultTemplate: () => builtinPrompt('llm-eval/answer.prompt'),
};
