// A rag row's one case: its question put to the run's retriever (prepareRagRow), the first k candidates sent as the
// case's documents, and the whole ranked list with its relevance labels kept in params.retrieval.
import { rowKey } from '../../data/rowIds.js';
import type { CaseDocument, DatasetRow, EvalCase } from '../../model.js';
import { RetrieverError } from '../../retrieval/contract.js';
import type { RetrievalRecord, RetrievalResponse, RetrievedItem } from '../../retrieval/contract.js';
import { labelledRetrieval } from '../../retrieval/qrels.js';
import { readRagasRow } from '../ragas/rows.js';
import { partsIn } from '../stress/bearing.js';
import type { PrepareContext, SuiteBuildContext } from '../contract.js';
import type { RagParams } from './params.js';
import { RAG_METHOD } from './params.js';
import { readRagRow, runLabels } from './rows.js';

/** What the retriever gave for a row's question, or why it gave nothing (a case error, not a row problem). */
export type RagPrepared =
  | { kind: 'retrieved'; retriever: string; response: RetrievalResponse }
  | { kind: 'failed'; retriever: string; error: { kind: string; message: string } };

export interface RagCaseParams {
  k: number;
  candidates: number;
  score: RagParams['score'];
  /** The run's seed, for the report's bootstrap intervals (the report sees cases, not the run). */
  runSeed: number;
  /** Undefined while the plan is only counted, and when the retrieval failed. */
  retrieval?: RetrievalRecord;
}

/**
 * Suite.prepareRow for rag: asks the run's retriever for `candidates` passages. Without one (the plan is only
 * counted or priced) nothing is asked. A retriever that fails is recorded for the case, never thrown as a row
 * problem; cancellation is rethrown so --resume builds the row again.
 */
export async function prepareRagRow(row: DatasetRow, params: RagParams, context: PrepareContext): Promise<RagPrepared | undefined> {
  const retriever = context.retriever;
  if (!retriever) return undefined;
  const { question } = readRagRow(row, params);
  try {
    const response = retriever.kind === 'dataset'
      ? { items: passagesInRow(row).slice(0, params.candidates), latencyMs: 0, cached: false }
      : await retriever.retrieve({ question, k: params.candidates }, context.signal);
    return { kind: 'retrieved', retriever: retriever.identity, response };
  } catch (error) {
    if (context.signal.aborted) throw error;
    const failure = error instanceof RetrieverError ? { kind: error.kind, message: error.message } : { kind: 'internal', message: error instanceof Error ? error.message : String(error) };
    return { kind: 'failed', retriever: retriever.identity, error: failure };
  }
}

/** `retriever: { type: dataset }`: the passages the row already holds (RAGAS columns), ids from `passages` or their index. */
export function passagesInRow(row: DatasetRow): RetrievedItem[] {
  const ragas = readRagasRow(row);
  return ragas.retrievedContexts.map((text, i) => {
    const known = ragas.retrieved?.[i];
    return {
      id: known?.id ?? String(i),
      text,
      ...(known?.score === undefined ? {} : { score: known.score }),
      ...(known?.metadata === undefined ? {} : { metadata: known.metadata }),
    };
  });
}

/** Suite.expandRow for rag: one case per row, its id the suite and the row's key (never the retrieval's outcome). */
export function expandRagRow(row: DatasetRow, params: RagParams, context: SuiteBuildContext, prepared?: RagPrepared): EvalCase[] {
  const ragRow = readRagRow(row, params);
  const caseParams: RagCaseParams = { k: params.k, candidates: params.candidates, score: params.score, runSeed: context.seed };
  let documents: CaseDocument[] = [];
  if (prepared?.kind === 'retrieved') {
    const { items } = prepared.response;
    const answer = ragRow.answer;
    const { candidates, relevant } = labelledRetrieval(items, params.k, runLabels(ragRow), answer ? (text) => partsIn(text, answer).length > 0 : undefined);
    caseParams.retrieval = {
      retriever: prepared.retriever,
      k: params.k,
      candidates,
      ...(relevant ? { relevant } : {}),
      latencyMs: prepared.response.latencyMs,
      cached: prepared.response.cached,
    };
    documents = candidates.filter((c) => c.sent).map((c, i) => {
      const item = items[i] as RetrievedItem;
      return {
        id: c.documentId as string,
        role: c.relevance === undefined ? 'unknown' : c.relevance > 0 ? 'positive' : 'negative',
        text: item.text,
        spans: [],
        source: `retrieved[${i}]`,
        retrieved: { id: item.id, ...(item.score === undefined ? {} : { score: item.score }), ...(item.metadata === undefined ? {} : { metadata: item.metadata }) },
      };
    });
  }
  return [{
    id: `${context.suiteId}/${rowKey(row)}`,
    suiteId: context.suiteId,
    method: RAG_METHOD,
    row: row.ref,
    question: ragRow.question,
    documents,
    expected: ragRow.answer ?? null,
    params: caseParams as unknown as Record<string, unknown>,
    variables: { question: ragRow.question, documents: documents.map(({ id, text, role }) => ({ id, text, role })) },
    messages: [],
    ...(prepared?.kind === 'failed' ? { retrievalError: prepared.error } : {}),
  }];
}

export function ragCaseParams(evalCase: Pick<EvalCase, 'params'>): RagCaseParams {
  return evalCase.params as unknown as RagCaseParams;
}
