// The rag method: question → the user's retriever → the first k passages → the user's template → model → the scorer;
// every failed case also gets its retrieval cause (not retrieved, ranked out) from the ranked list it kept.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { expandRagRow, prepareRagRow } from './cases.js';
import type { RagPrepared } from './cases.js';
import { RAG_METHOD, parseRagParams, ragParamsSchema } from './params.js';
import type { RagParams } from './params.js';
import { createRagAggregator, ragReport } from './report.js';
import { readRagRow } from './rows.js';
import { scoreRagCase } from './score.js';

export const ragSuite: Suite<RagParams, RagPrepared | undefined> = {
  method: RAG_METHOD,
  summary: 'your retriever in the loop: retrieval metrics and where failures come from',
  paramsSchema: ragParamsSchema,
  retrievalQuestions: {
    k: (params) => params.k,
    read: (row, params) => {
      const read = readRagRow(row, params);
      const labels = read.spans ?? read.labels;
      return { question: read.question, ...(labels ? { labels } : {}) };
    },
  },
  reviewedQuestion: (row, params) => readRagRow(row, params).question,
  parseParams: (raw, where) => parseRagParams(raw, where),
  prepareRow: (row, params, context) => prepareRagRow(row, params, context),
  expandRow: (row, params, context, prepared) => expandRagRow(row, params, context, prepared),
  score: (evalCase, responseText, params, context) => scoreRagCase(evalCase, responseText, params, context),
  report: (cases, results, params, suiteId) => ragReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createRagAggregator(params, suiteId),
  defaultTemplate: () => builtinPrompt('rag/en.prompt'),
};
