// The rag method: question → the user's retriever → the first k passages → the user's template → model → the scorer;
// every failed case also gets its retrieval cause (not retrieved, ranked out) from the ranked list it kept.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { expandRagRow, prepareRagRow } from './cases.js';
import type { RagPrepared } from './cases.js';
import { RAG_METHOD, parseRagParams } from './params.js';
import type { RagParams } from './params.js';
import { createRagAggregator, ragReport } from './report.js';
import { scoreRagCase } from './score.js';

export const ragSuite: Suite<RagParams, RagPrepared | undefined> = {
  method: RAG_METHOD,
  summary: 'your retriever in the loop: retrieval metrics and where failures come from',
  paramDocs: {
    k: { type: 'integer', minimum: 1, default: 5, description: 'The cut-off: the first k passages the retriever returns are sent to the model (the case\'s documents d0…).' },
    candidates: { type: 'integer', minimum: 1, default: 20, description: 'Passages asked of the retriever per question (at least k): the ranked list the retrieval metrics and the causes (ranked out below k) read.' },
    score: { enum: ['match', 'judge'], default: 'match', description: 'match (default): RGB\'s answer match, any alternative of the answer column as a lowercase substring of the response. judge: the eval file\'s judge decides (prompts/rag/judge.prompt); a judge answer that cannot be read is undetermined.' },
    ks: { type: 'array', items: { type: 'integer', minimum: 1 }, default: [1, 3, 5, 10], description: 'The cut-offs of the retrieval metrics table (recall, precision, hit rate, nDCG at each).' },
  },
  parseParams: (raw, where) => parseRagParams(raw, where),
  prepareRow: (row, params, context) => prepareRagRow(row, params, context),
  expandRow: (row, params, context, prepared) => expandRagRow(row, params, context, prepared),
  score: (evalCase, responseText, params, context) => scoreRagCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => ragReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createRagAggregator(params, suiteId),
  defaultTemplate: () => builtinPrompt('rag/en.prompt'),
};
