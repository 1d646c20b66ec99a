// The IF-RAG suite (Takeoka, NEC: instruction following in RAG): the Suite contract wired to its steps.
import { builtinPrompt } from '../../assets.js';
import type { Suite } from '../contract.js';
import { IFRAG_METHOD, expandIfRagRow } from './cases.js';
import { ifragParamsSchema, parseIfRagParams } from './params.js';
import type { IfRagParams } from './params.js';
import { passagePoolOf } from './pool.js';
import { createIfRagAggregator, ifragReport } from './report.js';
import { scoreIfRagCase } from './score.js';

export const ifragSuite: Suite<IfRagParams> = {
  method: IFRAG_METHOD,
  summary: 'IF-RAG',
  parseParams: (raw, where) => parseIfRagParams(raw, where),
  paramsSchema: ifragParamsSchema,
  expandRow: (row, params, context) => expandIfRagRow(row, params, context, passagePoolOf(row.ref.file)),
  score: async (evalCase, responseText, params) => scoreIfRagCase(evalCase, responseText, params),
  report: (cases, results, params, suiteId) => ifragReport(cases, results, params, suiteId),
  createAggregator: (params, suiteId) => createIfRagAggregator(params, suiteId),
  defaultTemplate: (params) => builtinPrompt(`ifrag/instruction-${params.instruction.toLowerCase()}.prompt`),
};
