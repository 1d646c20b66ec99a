// A fixture run of retrieval-in-the-loop cases: each case stores the retriever's ranked candidates (params.retrieval)
// and, when it failed, its cause score; the report has retrieval metrics by k (a line chart) and the failure split (a
// bar chart filtering the case list). Values are fixed by hand, so every assertion is exact.
import type { CaseDetail, RunDetail, RunListing } from '../../src/protocol.js';
import type { CaseDocument, CaseResult, EvalCase, Score } from '../../src/core/model.js';
import type { CauseFinding, FailureCause, RankedPassage, RetrievalRecord } from '../../src/core/retrieval/contract.js';
import type { ReportTable, SuiteReport } from '../../src/core/suites/contract.js';
import { doc, listItem, totals } from './builders.js';
import type { FixtureRun } from './builders.js';

export const RAG_MODEL = 'openai:gpt-4o-mini';
export const RAG_SUITE = 'rag-docs';
export const RAG_K = 5;
/** Relevant doc-17 at rank 8 of 25 candidates: below the cut-off. */
export const RANKED_OUT_CASE = `${RAG_SUITE}/1`;
export const RANKED_OUT_WORDS = 'relevant passage doc-17 at rank 8, cut-off 5';
/** Six candidates, none relevant; the labels name doc-99, never retrieved. */
export const NOT_RETRIEVED_CASE = `${RAG_SUITE}/2`;
export const NOT_RETRIEVED_WORDS = 'no relevant passage among the 6 candidates (relevant: doc-99)';
export const PASSING_CASE = `${RAG_SUITE}/0`;
/** A case whose stored record is malformed (k is not a number): named, not drawn. */
export const MALFORMED_CASE = `${RAG_SUITE}/4`;
/** A candidate id that is markup: drawn as text. */
export const MARKUP_ID = '<img src=x onerror="window.__xss = 3">';
/** The passage of rank 2 in the ranked-out case comes from a file; rank 3 from a URL; rank 4 from pages 3–4 of a PDF. */
export const SOURCE_FILE = '/workspace/corpus/handbook.md';
export const SOURCE_PDF = '/workspace/corpus/report.pdf';
export const SOURCE_URL = 'https://docs.example.com/handbook#vacation';
export const METRIC_KS = ['1', '3', '5', '10'] as const;

const STAMP = { startedAt: '2025-07-01T10:00:00.000Z', finishedAt: '2025-07-01T10:00:01.000Z' };

interface Plan {
  question: string;
  answer: string;
  /** Candidate ids in rank order. */
  ids: string[];
  /** id → grade, for labelled candidates (others unknown). */
  labels: Record<string, number>;
  relevant: string[];
  cause?: CauseFinding;
}

const PLANS: Plan[] = [
  {
    question: 'How many vacation days do new employees get?', answer: '25 days',
    ids: ['doc-3', 'doc-8', 'doc-11', 'doc-2', 'doc-40', 'doc-41'], labels: { 'doc-3': 1, 'doc-8': 0, 'doc-11': 0 }, relevant: ['doc-3'],
  },
  {
    question: 'Who approves expense reports above 5,000 euros?', answer: 'the finance director',
    ids: Array.from({ length: 25 }, (_, i) => (i === 7 ? 'doc-17' : i === 9 ? MARKUP_ID : `doc-${100 + i}`)),
    labels: { 'doc-17': 2, 'doc-100': 0, 'doc-101': 0, 'doc-102': 0 }, relevant: ['doc-17'],
    cause: { cause: 'ranked-out', words: RANKED_OUT_WORDS, passageId: 'doc-17', rank: 8 },
  },
  {
    question: 'What is the notice period for contractors?', answer: 'two weeks',
    ids: ['doc-50', 'doc-51', 'doc-52', 'doc-53', 'doc-54', 'doc-55'], labels: { 'doc-50': 0, 'doc-51': 0, 'doc-52': 0, 'doc-53': 0, 'doc-54': 0, 'doc-55': 0 }, relevant: ['doc-99'],
    cause: { cause: 'not-retrieved', words: NOT_RETRIEVED_WORDS },
  },
  {
    question: 'Which office hosts the security team?', answer: 'Lisbon',
    ids: ['doc-60', 'doc-61', 'doc-62', 'doc-63', 'doc-64', 'doc-65', 'doc-66'], labels: { 'doc-66': 1 }, relevant: ['doc-66'],
    cause: { cause: 'ranked-out', words: 'relevant passage doc-66 at rank 7, cut-off 5', passageId: 'doc-66', rank: 7 },
  },
];

function candidate(id: string, rank: number, plan: Plan): RankedPassage {
  const passage: RankedPassage = { rank, id, score: Math.round((20 - rank * 0.7) * 100) / 100, sent: rank <= RAG_K };
  if (passage.sent) passage.documentId = `d${rank - 1}`;
  const grade = plan.labels[id];
  if (grade !== undefined) { passage.relevance = grade; passage.labelSource = 'relevant_ids'; }
  if (rank === 2) passage.source = { file: SOURCE_FILE, startLine: 40, endLine: 52 };
  if (rank === 3) passage.source = { url: SOURCE_URL };
  if (rank === 4) passage.source = { file: SOURCE_PDF, startLine: 12, endLine: 19, startPage: 3, endPage: 4 };
  return passage;
}

function ragCase(plan: Plan, index: number): CaseDetail {
  const id = `${RAG_SUITE}/${index}`;
  const candidates = plan.ids.map((cid, i) => candidate(cid, i + 1, plan));
  const retrieval: RetrievalRecord = {
    retriever: 'command: node bm25.mjs', k: RAG_K, candidates,
    relevant: plan.relevant.map((r) => ({ id: r, grade: plan.labels[r] ?? 1 })), latencyMs: 12, cached: false,
  };
  const documents: CaseDocument[] = candidates.filter((c) => c.sent).map((c) => doc(c.documentId!,
    c.relevance === undefined ? 'unknown' : c.relevance > 0 ? 'positive' : 'negative',
    c.relevance && c.relevance > 0 ? `Passage ${c.id}: ${plan.question.replace('?', '')} — ${plan.answer}.` : `Passage ${c.id}: a policy paragraph about another subject.`));
  const pass = !plan.cause;
  const scores: Score[] = [{ metric: 'correct', value: pass ? 1 : 0, pass, label: pass ? 'correct' : 'incorrect', explanation: pass ? `Found “${plan.answer}”.` : `“${plan.answer}” not found in the response.` }];
  if (plan.cause) scores.push({ metric: 'cause', value: null, label: plan.cause.cause, explanation: plan.cause.words, details: plan.cause });
  const evalCase: EvalCase = {
    id, suiteId: RAG_SUITE, method: 'rag', row: { file: '/workspace/data/questions.jsonl', line: index + 1, index },
    question: plan.question, documents, expected: { answer: plan.answer },
    params: { k: RAG_K, candidates: 25, retrieval }, variables: { question: plan.question },
    messages: [{ role: 'user', content: `${documents.map((d) => d.text).join('\n')}\n\nQuestion: ${plan.question}` }],
  };
  const result: CaseResult = {
    caseId: id, modelKey: RAG_MODEL, status: 'success', pass,
    response: { text: pass ? `New employees get ${plan.answer}.` : 'The documents do not say.', usage: { inputTokens: 300, outputTokens: 8 }, latencyMs: 420, cached: false, finishReason: 'stop' },
    scores, attempts: 1, ...STAMP,
  };
  return { runId: 'rag-run', evalCase, result };
}

/** Metric × k, hand-written values with bootstrap-like intervals (the line chart's data). */
function metricsTable(): ReportTable {
  const row = (label: string, values: number[]) => ({
    label, cells: values.map((v) => ({ value: v, low: Math.max(0, v - 0.15), high: Math.min(1, v + 0.15), n: 4 })),
  });
  return {
    id: `${RAG_SUITE}-retrieval`, title: 'Retrieval metrics by k', columns: [...METRIC_KS],
    rows: [row('recall@k', [0.25, 0.25, 0.25, 0.75]), row('precision@k', [0.25, 0.083, 0.05, 0.075]), row('hit rate@k', [0.25, 0.25, 0.25, 0.75]),
      row('MRR', [0.25, 0.25, 0.25, 0.332]), row('nDCG@k', [0.25, 0.25, 0.25, 0.48])],
  };
}

/** Share of failed cases per cause (3 failures: 2 ranked out, 1 not retrieved), Wilson 95% intervals. */
function splitTable(): ReportTable {
  const rows: [FailureCause, number, number, number][] = [['not-retrieved', 1 / 3, 0.061, 0.792], ['ranked-out', 2 / 3, 0.208, 0.939], ['retrieved-not-used', 0, 0, 0.561]];
  return {
    id: `${RAG_SUITE}-failure-split`, title: 'Where the failures come from', columns: [RAG_MODEL],
    rows: rows.map(([label, value, low, high]) => ({ label, cells: [{ value, low, high, n: 3 }] })),
  };
}

export function ragRun(runId = 'rag-run'): FixtureRun {
  const cases = PLANS.map((plan, i) => ({ ...ragCase(plan, i), runId }));
  const malformed = ragCase(PLANS[0]!, PLANS.length);
  malformed.evalCase.params = { ...malformed.evalCase.params, retrieval: { retriever: 'command: node bm25.mjs', k: 'five', candidates: [] } };
  cases.push({ ...malformed, runId });
  const metrics = metricsTable();
  const split = splitTable();
  const report: SuiteReport = {
    suiteId: RAG_SUITE, method: 'rag', tables: [metrics, split], metrics: [], notes: [], scoring: 'answer match',
    charts: [
      { kind: 'line', tableId: metrics.id, title: 'Retrieval metrics by k', xTitle: 'k', yTitle: 'value', min: 0, max: 1 },
      { kind: 'bar', tableId: split.id, title: 'Where the failures come from', xTitle: 'share of failed cases', filter: { field: 'cause' } },
    ],
  };
  const listing: RunListing = { runId, name: 'RAG over the handbook', createdAt: '2025-07-01T10:00:00.000Z', status: 'success', models: [RAG_MODEL], totals: totals(cases) };
  const detail: RunDetail = { listing, reports: [report], thresholds: [], problems: [], cases: cases.map(listItem) };
  return { detail, cases };
}
