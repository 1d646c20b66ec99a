// The RGB suite (Chen et al., "Benchmarking LLMs in RAG", chen700564/RGB): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { RGB_METHOD, expandRgbRow } from './cases.js';
import { TESTBEDS, parseRgbParams, rgbParamsSchema } from './params.js';
import type { RgbParams } from './params.js';
import { createRgbAggregator, rgbReport } from './report.js';
import { scoreRgbCase } from './score.js';

export const rgbSuite: Suite<RgbParams> = {
  method: RGB_METHOD,
  summary: 'RGB benchmark',
  parseParams: (raw, where) => parseRgbParams(raw, where),
  paramsSchema: rgbParamsSchema,
  quickRunChoice: {
    param: 'testbed',
    question: 'Which RGB testbed?',
    choices: TESTBEDS.map((label) => (label === 'noise_robustness' ? { label, description: 'accuracy as noise documents are added' } : { label })),
  },
  expandRow: (row, params, context) => expandRgbRow(row, params, context),
  score: (evalCase, responseText, params, context) => scoreRgbCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => rgbReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createRgbAggregator(params, suiteId),
  // The answer-part labels behind the counterfactual and integration tables; the response spans stay in the log.
  reportDetails: (score) => (score.metric === 'correct' ? { labels: (score.details as { labels?: number[] }).labels } : undefined),
  defaultTemplate: (params) => builtinPrompt(params.language === 'zh' ? 'rgb/zh.prompt' : 'rgb/en.prompt'),
};
