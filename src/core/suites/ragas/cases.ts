// Builds one RAGAS case per dataset row: the retrieved contexts as documents, the metrics the row allows, the given response.
import type { CaseDocument, DatasetRow, EvalCase } from '../../model.js';
import type { SuiteBuildContext } from '../contract.js';
import { rowKey } from '../../data/rowIds.js';
import { RAGAS_METRICS } from './params.js';
import type { RagasMetric, RagasParams } from './params.js';
import { readRagasRow } from './rows.js';
import type { RagasRow } from './rows.js';

import { RAGAS_METHOD } from './view.js';
export { RAGAS_METHOD };

/** What a RAGAS case is scored against (EvalCase.expected). */
export interface RagasExpected {
  reference?: string;
  referenceContexts?: string[];
  /** Human scores from the row, by metric name, for the meta-evaluation table. */
  humanScores: Record<string, number>;
}

/** A metric the eval file asked for that this row cannot feed, and why (its score is then undetermined). */
export interface SkippedMetric {
  metric: RagasMetric;
  reason: string;
}

/** The parameters recorded in every RAGAS case (EvalCase.params). */
export interface RagasCaseParams extends Record<string, unknown> {
  /** The metrics scored for this case, in report order. */
  metrics: RagasMetric[];
  skipped: SkippedMetric[];
  /** True when the response came from the dataset and no model was called. */
  givenResponse: boolean;
  /**
   * Where the documents' roles came from before scoring: a retrieved context equal to one of the row's
   * reference_contexts starts as 'positive', the others as 'negative'; without that hint every document is
   * 'unknown' (never counted as noise). Noise sensitivity records the judged role after scoring.
   */
  roleSource: 'reference_contexts' | 'none';
}

/** Which fields each metric reads besides the question and the contexts (the response always exists at scoring). */
const NEEDS_REFERENCE: ReadonlySet<RagasMetric> = new Set(['context_precision', 'context_recall', 'noise_sensitivity_relevant', 'noise_sensitivity_irrelevant']);

function defaultMetrics(params: RagasParams): RagasMetric[] {
  const noise = `noise_sensitivity_${params.noiseSensitivity.mode}` as RagasMetric;
  return RAGAS_METRICS.filter((metric) => !metric.startsWith('noise_sensitivity_') || metric === noise);
}

/** The metrics for this row: the asked-for list (or every default metric), minus those the row cannot feed. */
export function metricsForRow(row: RagasRow, params: RagasParams): { metrics: RagasMetric[]; skipped: SkippedMetric[] } {
  const asked = params.metrics ?? defaultMetrics(params);
  const hasReference = row.reference !== undefined && row.reference.trim() !== '';
  const metrics: RagasMetric[] = [];
  const skipped: SkippedMetric[] = [];
  for (const metric of asked) {
    if (NEEDS_REFERENCE.has(metric) && !hasReference) skipped.push({ metric, reason: 'the row has no reference (ground truth)' });
    else metrics.push(metric);
  }
  return { metrics, skipped };
}

function documentsOf(row: RagasRow): CaseDocument[] {
  const hints = new Set((row.referenceContexts ?? []).map((text) => text.trim()));
  return row.retrievedContexts.map((text, i): CaseDocument => {
    const retrieved = row.retrieved?.[i];
    return {
      id: `d${i}`,
      role: row.referenceContexts === undefined ? 'unknown' : hints.has(text.trim()) ? 'positive' : 'negative',
      text,
      spans: [],
      source: `retrieved_contexts[${i}]`,
      ...(retrieved ? { retrieved } : {}),
    };
  });
}

/** The variables templates may read: `question` and `documents` as in every method, plus the ragas names. */
function templateVariables(row: RagasRow, documents: readonly CaseDocument[]): Record<string, unknown> {
  const variables: Record<string, unknown> = {
    question: row.userInput,
    user_input: row.userInput,
    documents: documents.map(({ id, text, role }) => ({ id, text, role })),
    contexts: row.retrievedContexts,
  };
  if (row.reference !== undefined) variables.reference = row.reference;
  return variables;
}

export function expandRagasRow(row: DatasetRow, params: RagasParams, context: SuiteBuildContext): EvalCase[] {
  const ragasRow = readRagasRow(row);
  const documents = documentsOf(ragasRow);
  const { metrics, skipped } = metricsForRow(ragasRow, params);
  const caseParams: RagasCaseParams = {
    metrics,
    skipped,
    givenResponse: ragasRow.response !== undefined,
    roleSource: ragasRow.referenceContexts ? 'reference_contexts' : 'none',
  };
  const expected: RagasExpected = { humanScores: ragasRow.humanScores };
  if (ragasRow.reference !== undefined) expected.reference = ragasRow.reference;
  if (ragasRow.referenceContexts !== undefined) expected.referenceContexts = ragasRow.referenceContexts;
  const evalCase: EvalCase = {
    id: `${context.suiteId}/${rowKey(row)}`,
    suiteId: context.suiteId,
    method: RAGAS_METHOD,
    row: row.ref,
    question: ragasRow.userInput,
    documents,
    expected,
    params: caseParams,
    variables: templateVariables(ragasRow, documents),
    messages: [],
  };
  if (ragasRow.response !== undefined) evalCase.givenResponse = ragasRow.response;
  return [evalCase];
}

export function ragasCaseParams(evalCase: Pick<EvalCase, 'params'>): RagasCaseParams {
  return evalCase.params as RagasCaseParams;
}

export function ragasExpected(evalCase: EvalCase): RagasExpected {
  return evalCase.expected as RagasExpected;
}
