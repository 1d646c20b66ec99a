// The Needle in a Haystack suite (Kamradt's test; Arize and LangChain variants): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import { InputError } from '../../errors.js';
import type { Suite } from '../contract.js';
import { NEEDLE_METHOD, generateNeedleCases } from './cases.js';
import { needleParamsSchema, parseNeedleParams } from './params.js';
import type { NeedleParams } from './params.js';
import { createNeedleAggregator, needleReport } from './report.js';
import { scoreNeedleCase } from './score.js';

export const needleSuite: Suite<NeedleParams> = {
  method: NEEDLE_METHOD,
  summary: 'needle in a haystack',
  parseParams: (raw, where) => parseNeedleParams(raw, where),
  paramsSchema: needleParamsSchema,
  explainSources: 'haystack',
  fileParams: ['haystack'],
  expandRow: (row) => {
    // The grid comes from the haystack and the params; a dataset has nothing to add to it.
    throw new InputError({ file: row.ref.file, line: row.ref.line }, 'the needle method builds its cases from params.haystack, not from a dataset', 'remove dataset from this suite (and from the top level, or give this suite its own entry without one)');
  },
  // One tokenizer per suite: the one named in params, else the first model under test's.
  generateCases: (params, context) => generateNeedleCases(
    params.tokenizerModelChosen || !context.models[0] ? params : { ...params, tokenizerModel: context.models[0] },
    context,
  ),
  score: (evalCase, responseText, params, context) => scoreNeedleCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => needleReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createNeedleAggregator(params, suiteId),
  defaultTemplate: (params) => builtinPrompt(`needle/${params.prompt}.prompt`),
};
