// The Needle in a Haystack suite (Kamradt's test; Arize and LangChain variants): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import { InputError } from '../../errors.js';
import type { Suite } from '../contract.js';
import { NEEDLE_METHOD, generateNeedleCases } from './cases.js';
import { parseNeedleParams } from './params.js';
import type { NeedleParams } from './params.js';
import { createNeedleAggregator, needleReport } from './report.js';
import { scoreNeedleCase } from './score.js';

export const needleSuite: Suite<NeedleParams> = {
  method: NEEDLE_METHOD,
  summary: 'needle in a haystack',
  parseParams: (raw, where) => parseNeedleParams(raw, where),
  paramDocs: {
    scoring: {
      enum: ['auto', 'judge', 'substring', 'rail'],
      default: 'auto',
      description: 'How each response is scored. auto (default): classic — the judge (the reference\'s 1–10) when the eval file sets judge:, a substring check when it does not; arize — rails; multi — needles retrieved of k. Adding judge: for another suite therefore switches classic needle suites without scoring: to the judge; set scoring: substring to keep them as they were. The scoring used is shown beside the suite in the report and panel.',
    },
  },
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
