// Parameters of the rag method, declared once: how many candidates to ask the retriever for, how many to send, the
// scorer, the relevance label columns and the cut-offs of the retrieval metrics. The checks, their messages and the
// editor's JSON schema all come from this declaration (paramSchema.ts).
import { choice, items, list, mapping, paramsReader, readParams, text, whole } from '../paramSchema.js';
import type { ParamsOf } from '../paramSchema.js';
import type { ParamsWhere } from '../contract.js';

import { RAG_METHOD } from './view.js';

export { RAG_METHOD };
export const RAG_SCORERS = ['match', 'judge'] as const;
export type RagScorer = (typeof RAG_SCORERS)[number];

const DEFAULT_K = 5;
/** Candidates default to this many, or k when k is larger: enough below the cut-off for "ranked out" to be seen. */
const DEFAULT_CANDIDATES = 20;

const column = (fallback: string, description: string) => text({ default: fallback, hint: `e.g. {key}: ${fallback}`, description });

const shape = {
  candidates: whole({ min: 1, hint: `e.g. candidates: ${DEFAULT_CANDIDATES}`, description: `Passages asked of the retriever per question (at least k; default ${DEFAULT_CANDIDATES}, or k when larger): the ranked list the retrieval metrics and the causes (ranked out below k) read.` }),
  k: whole({ min: 1, default: DEFAULT_K, hint: `e.g. k: ${DEFAULT_K}`, description: 'The cut-off: the first k passages the retriever returns are sent to the model (the case\'s documents d0…).' }),
  score: choice(RAG_SCORERS, { default: 'match', hint: 'score: match compares the answer column with the response; score: judge asks the eval file\'s judge', description: 'match (default): RGB\'s answer match, any alternative of the answer column as a lowercase substring of the response. judge: the eval file\'s judge decides (prompts/rag/judge.prompt); a judge answer that cannot be read is undetermined.' }),
  questionColumn: column('question', 'The row\'s question column (user_input is read when it is absent).'),
  answerColumn: column('answer', 'The row\'s reference answer column: a string or a list of alternatives.'),
  relevantIdsColumn: column('relevant_ids', 'The row\'s list of relevant document ids (each grade 1); read before the graded column.'),
  gradedColumn: column('relevance', 'The row\'s graded relevance: an object of document id → grade (0 not relevant, higher more relevant).'),
  spansColumn: column('relevant_spans', 'The row\'s spans of the source files the answer is in ([{file, start, end, grade?}], character offsets): labels that survive a change of chunking.'),
  ks: list(items.whole({ min: 1 }, 'e.g. ks: [1, 3, 5, 10]'), { default: [1, 3, 5, 10], example: 'e.g. ks: [1, 3, 5, 10]', description: 'The cut-offs of the retrieval metrics table (recall, precision, hit rate, nDCG at each).' }),
};

/** The rag method's params as the eval file writes them. */
export const ragParamsSchema = mapping(shape, { example: 'params: { k: 5, score: match }', hint: `rag params are ${Object.keys(shape).join(', ')}` });

export type RagParams = Omit<ParamsOf<typeof ragParamsSchema>, 'candidates'> & { candidates: number };

export function parseRagParams(raw: unknown, where: ParamsWhere): RagParams {
  const read = readParams(ragParamsSchema, raw, where.file, RAG_METHOD);
  const reader = paramsReader(where.file, RAG_METHOD);
  const candidates = read.candidates ?? Math.max(DEFAULT_CANDIDATES, read.k);
  if (candidates < read.k) reader.fail('candidates', `${candidates} candidates cannot fill a cut-off of k = ${read.k}`, `ask for at least k candidates: candidates: ${read.k} or more`);
  if (read.score === 'judge' && where.judge === false) reader.fail('score', 'score: judge needs a judge model', 'add judge: { provider: …, model: … } at the top of the eval file, or use score: match');
  return { ...read, candidates, ks: [...new Set(read.ks)].sort((a, b) => a - b) };
}
