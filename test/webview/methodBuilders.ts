// Fixture runs for the method views: a Needle grid over three templates (reports from the real needleReport), a
// 128k-token needle case, a RAGAS case with every judge detail, IF-RAG cases scored by the real scorer, LLM-Eval.
import type { CaseDetail, RunDetail, RunListing } from '../../src/protocol.js';
import type { CaseDocument, CaseResult, EvalCase, Score } from '../../src/core/model.js';
import type { SuiteReport } from '../../src/core/suites/contract.js';
import { needleReport } from '../../src/core/suites/needle/report.js';
import { parseNeedleParams } from '../../src/core/suites/needle/params.js';
import type { NeedleCaseParams, NeedleExpected } from '../../src/core/suites/needle/cases.js';
import type { StatementFinding } from '../../src/core/suites/ragas/faithfulness.js';
import type { ClaimAttribution, DocumentRoleFinding } from '../../src/core/suites/ragas/noiseSensitivity.js';
import type { ExtractedSentence } from '../../src/core/suites/ragas/contextRelevance.js';
import { scoreIfRagCase } from '../../src/core/suites/ifrag/score.js';
import { parseIfRagParams } from '../../src/core/suites/ifrag/params.js';
import type { IfRagCaseParams, IfRagExpected } from '../../src/core/suites/ifrag/cases.js';
import { llmEvalReport } from '../../src/core/suites/llmEval/report.js';
import { llmEvalSuite } from '../../src/core/suites/llmEval/suite.js';
import { reportCasesOf } from '../../src/core/suites/reportView.js';
import { parseLlmEvalParams } from '../../src/core/suites/llmEval/params.js';
import type { LlmEvalExpected } from '../../src/core/suites/llmEval/cases.js';
import { doc, listItem, prng, totals } from './builders.js';
import type { FixtureRun } from './builders.js';

const WHERE = { file: '/workspace/methods.eval.yaml' };
const STAMP = { startedAt: '2025-06-01T10:00:00.000Z', finishedAt: '2025-06-01T10:00:02.000Z' };

export const NEEDLE_MODEL = 'anthropic:claude-3-haiku';
/** Three suites on one grid, differing only in the prompt template: the seed's headline comparison. */
export const NEEDLE_SUITES = ['needle-reference', 'needle-anthropic-original', 'needle-anthropic-rev2'] as const;
export const LENGTHS = [1000, 2750, 4500, 6250, 8000] as const;
export const DEPTHS = [0, 25, 50, 75, 100] as const;
export const NEEDLE = '\nThe best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.\n';
const NEEDLE_QUESTION = 'What is the best thing to do in San Francisco?';
const GOOD_ANSWER = 'The best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day.';
const BAD_ANSWER = 'The document does not say what to do in San Francisco; it discusses startups and essays.';

/** In the reference suite: a cell that has no result at all, and one whose judge answered out of format. */
export const MISSING_CELL = { length: 8000, depth: 50 } as const;
export const JUDGE_ERROR_CELL = { length: 4500, depth: 75 } as const;

/** The judge rating of a cell; the first column of the reference suite has known values for the colour test. */
export function ratingOf(suite: number, li: number, di: number): number {
  if (suite === 0 && li === 0) return [10, 1, 4, 7, 10][di]!;
  // The close-reading template misses mid-depth needles in long contexts; the pre-filled answer (rev2) mostly fixes that.
  const deep = li >= 2 && di >= 1 && di <= 3;
  if (suite === 0) return deep ? 3 + ((li + di) % 4) : 7 + ((li + di) % 4);
  if (suite === 1) return deep ? 1 + ((li * di) % 3) : 8 + ((li + di) % 3);
  return deep && li === 4 && di === 2 ? 6 : 9 + ((li + di) % 2);
}

const FILLER = [
  'The most important thing about a startup is to make something people want.',
  'Essays are a way of figuring out what you think, not a way of saying what you already know.',
  'Cities each send a message about what you should be; in New York it is that you should make more money.',
  'A good programmer working on a hard problem is like a writer working on a novel.',
  'Wealth is what people want, and money is just a way of moving it around.',
  'The best way to get startup ideas is not to try to think of startup ideas but to look for problems.',
  'Taste is not merely subjective; some things really are better than others.',
  'When you are young you are told that you should find your passion, which is surprisingly bad advice.',
];

/** Prose of about `chars` characters in paragraphs, deterministic, each paragraph numbered so a test knows where it is. */
export function haystackText(chars: number, seed = 7): string {
  const random = prng(seed);
  const paragraphs: string[] = [];
  let length = 0;
  for (let p = 1; length < chars; p++) {
    const sentences = Array.from({ length: 3 + Math.floor(random() * 5) }, () => FILLER[Math.floor(random() * FILLER.length)]!);
    const paragraph = `§${p}. ${sentences.join(' ')}`;
    paragraphs.push(paragraph);
    length += paragraph.length + 2;
  }
  return paragraphs.join('\n\n');
}

/** Inserts the needle at a sentence end before `depth` percent, as the suite does, and records where it went. */
function insertNeedle(context: string, depth: number): { text: string; start: number; end: number; actualDepth: number } {
  let at = depth >= 100 ? context.length : Math.floor((context.length * depth) / 100);
  while (at > 0 && context[at - 1] !== '.') at--;
  const text = context.slice(0, at) + NEEDLE + context.slice(at);
  return { text, start: at, end: at + NEEDLE.length, actualDepth: Math.round((at / context.length) * 1e6) / 1e4 };
}

function needleCase(suiteId: string, length: number, depth: number, haystack: string, tokensPerChar: number, index: number, approximate = false): EvalCase {
  const placed = insertNeedle(haystack, depth);
  const tokenIndex = Math.round(placed.start * tokensPerChar);
  const params: NeedleCaseParams = {
    variant: 'classic', contextLength: length, requestedDepth: depth,
    actualDepthPercent: placed.actualDepth, actualDepthPercents: [placed.actualDepth],
    needleTokenIndex: tokenIndex, needleTokenIndexes: [tokenIndex], insertionPercentages: [placed.actualDepth],
    haystackTokens: Math.round(haystack.length * tokensPerChar), contextTokens: length - 200, buffer: 200,
    tokenizer: 'o200k_base', approximateTokenizer: approximate, tokenizerModel: 'anthropic:claude-3-haiku',
    boundary: 'sentence', negative: false,
  };
  const expected: NeedleExpected = { needles: [NEEDLE], answers: ['eat a sandwich and sit in Dolores Park'], reference: NEEDLE, negative: false };
  const document: CaseDocument = {
    id: 'haystack', role: 'haystack', text: placed.text,
    spans: [{ kind: 'needle', start: placed.start, end: placed.end, text: NEEDLE, label: 'needle' }],
    source: `first ${params.haystackTokens} tokens of 12 haystack files`,
  };
  return {
    id: `${suiteId}/L=${length}/d=${depth}`, suiteId, method: 'needle', testbed: 'classic',
    row: { file: WHERE.file, line: 1, index }, question: NEEDLE_QUESTION, documents: [document], expected, params,
    variables: { context: placed.text, question: NEEDLE_QUESTION, needle: NEEDLE },
    messages: [
      { role: 'system', content: 'You are a helpful AI bot that answers questions for a user. Keep your response short and direct' },
      { role: 'user', content: placed.text },
      { role: 'user', content: `${NEEDLE_QUESTION} Don't give information outside the document or repeat your findings` },
    ],
    template: `/workspace/prompts/needle/${suiteId.replace('needle-', '')}.prompt`,
  };
}

function judgeResult(evalCase: EvalCase, modelKey: string, rating: number | 'error'): CaseResult {
  const good = rating !== 'error' && rating >= 7;
  const text = good ? GOOD_ANSWER : BAD_ANSWER;
  const score: Score = rating === 'error'
    ? { metric: 'judge_score', value: null, label: 'judge-error', judgeError: 'rating: the judge answered "Rating: [[ten]]", not a number from 1 to 10', explanation: 'Rating: [[ten]]', details: { mode: 'judge', judge: 'openai:gpt-4o' } }
    : { metric: 'judge_score', value: rating, pass: rating >= 7, label: `rated ${rating}`, explanation: `The response ${good ? 'matches' : 'misses'} the ground truth. Rating: [[${rating}]]`, details: { mode: 'judge', judge: 'openai:gpt-4o', passAt: 7, scoring: 'default: the eval file sets judge:' } };
  const result: CaseResult = {
    caseId: evalCase.id, modelKey, status: 'success',
    response: { text, usage: { inputTokens: Number(evalCase.params.contextLength), outputTokens: 24 }, latencyMs: 900, cached: false, finishReason: 'stop' },
    scores: [score], attempts: 1, judgeUsage: { calls: 1, inputTokens: 300, outputTokens: 40 }, ...STAMP,
  };
  if (score.pass !== undefined) result.pass = score.pass;
  return result;
}

function run(runId: string, name: string, models: string[], cases: CaseDetail[], reports: SuiteReport[]): FixtureRun {
  const listing: RunListing = { runId, name, createdAt: '2025-06-01T10:00:00.000Z', status: 'success', models, totals: totals(cases) };
  const detail: RunDetail = { listing, reports, thresholds: [], problems: [], cases: cases.map(listItem) };
  return { detail, cases };
}

/** The Needle grid over three templates for one model: reports and charts from the suite's own report function. */
export function needleGridRun(runId = 'needle-grid', grid: { lengths?: readonly number[]; depths?: readonly number[]; suites?: readonly string[] } = {}): FixtureRun {
  const haystack = haystackText(1_800);
  const cases: CaseDetail[] = [];
  const reports: SuiteReport[] = [];
  const lengths = grid.lengths ?? LENGTHS;
  const depths = grid.depths ?? DEPTHS;
  const params = parseNeedleParams({ contextLengths: [...lengths], depths: [...depths], scoring: 'judge' }, WHERE);
  (grid.suites ?? NEEDLE_SUITES).forEach((suiteId, s) => {
    const suiteCases = new Map<string, EvalCase>();
    const results: CaseResult[] = [];
    lengths.forEach((length, li) => depths.forEach((depth, di) => {
      if (s === 0 && length === MISSING_CELL.length && depth === MISSING_CELL.depth) return;
      const evalCase = needleCase(suiteId, length, depth, haystack, 0.25, li * depths.length + di);
      const errored = s === 0 && length === JUDGE_ERROR_CELL.length && depth === JUDGE_ERROR_CELL.depth;
      const result = judgeResult(evalCase, NEEDLE_MODEL, errored ? 'error' : ratingOf(s, li % LENGTHS.length, di % DEPTHS.length));
      suiteCases.set(evalCase.id, evalCase);
      results.push(result);
      cases.push({ runId, evalCase, result });
    }));
    reports.push(needleReport(suiteCases, results, params, suiteId));
  });
  return run(runId, 'Needle templates compared', [NEEDLE_MODEL], cases, reports);
}

/** The reference's own grid: 35 context lengths (1000–16000) by 35 depths, two templates. */
export function referenceGridRun(runId = 'needle-35'): FixtureRun {
  const defaults = parseNeedleParams({}, WHERE);
  return needleGridRun(runId, { lengths: defaults.contextLengths, depths: defaults.depths, suites: NEEDLE_SUITES.slice(1) });
}

/** About 128k tokens (~500 KB) of haystack with the needle near the middle; the end is marked so a test can find it. */
export const LONG_END_MARK = 'THE END OF THE 128K HAYSTACK.';

export function longNeedleRun(runId = 'needle-128k'): FixtureRun {
  const haystack = `${haystackText(500_000, 11)}\n\n${LONG_END_MARK}`;
  const evalCase = needleCase('needle-128k', 128_000, 50, haystack, 0.256, 0, true);
  const result = judgeResult(evalCase, NEEDLE_MODEL, 9);
  const cases = [{ runId, evalCase, result }];
  return run(runId, 'Needle 128k', [NEEDLE_MODEL], cases, []);
}

// ——— RAGAS ———

export const RAGAS_CASE = 'ragas/0';
export const RAGAS_MODEL = 'given:dataset';

const EIFFEL = {
  question: 'When was the Eiffel Tower completed and how tall is it?',
  d0: 'The Eiffel Tower was completed in 1889 for the World\'s Fair. It is 330 metres tall including its antennas. Gustave Eiffel\'s company built it.',
  d1: 'Some guidebooks wrongly state that the Eiffel Tower was completed in 1901. The tower is repainted every seven years by a team of painters.',
  d2: 'Paris hosts many museums, including the Louvre, which is the most visited museum in the world.',
  response: 'The Eiffel Tower was completed in 1901. It is 330 metres tall. It is painted every year.',
  reference: 'The Eiffel Tower was completed in 1889 and is 330 metres tall.',
};

function located(documents: CaseDocument[], documentId: string, quote: string) {
  const document = documents.find((d) => d.id === documentId)!;
  const start = document.text.indexOf(quote);
  if (start < 0) throw new Error(`builder: "${quote}" is not in ${documentId}`);
  return { documentId, start, end: start + quote.length, text: quote };
}

export function ragasRun(runId = 'ragas-run'): FixtureRun {
  const documents = [
    doc('d0', 'positive', EIFFEL.d0), doc('d1', 'negative', EIFFEL.d1), doc('d2', 'negative', EIFFEL.d2),
  ].map((d, i) => ({ ...d, source: `retrieved_contexts[${i}]` }));
  const statements: StatementFinding[] = [
    { statement: 'The Eiffel Tower was completed in 1901.', verdict: 1, reason: 'One context states the tower was completed in 1901.', quote: 'the Eiffel Tower was completed in 1901', evidence: located(documents, 'd1', 'the Eiffel Tower was completed in 1901') },
    { statement: 'The Eiffel Tower is 330 metres tall.', verdict: 1, reason: 'The first context gives the height as 330 metres.', quote: 'It is 330 metres tall', evidence: located(documents, 'd0', 'It is 330 metres tall') },
    { statement: 'The Eiffel Tower is painted every year.', verdict: 0, reason: 'The contexts say it is repainted every seven years, not every year.', quote: null },
  ];
  const claims: ClaimAttribution[] = [
    { claim: 'The Eiffel Tower was completed in 1901.', correct: false, reasonAgainstReference: 'The reference says 1889.', sources: [{ documentId: 'd1', relevant: false, evidence: located(documents, 'd1', 'completed in 1901') }], counts: 'irrelevant' },
    { claim: 'The Eiffel Tower is 330 metres tall.', correct: true, reasonAgainstReference: 'The reference gives 330 metres.', sources: [{ documentId: 'd0', relevant: true, evidence: located(documents, 'd0', '330 metres tall') }], counts: null },
    { claim: 'The Eiffel Tower is painted every year.', correct: false, reasonAgainstReference: 'The reference says nothing about painting.', sources: [], counts: null },
  ];
  const roles: DocumentRoleFinding[] = [
    { documentId: 'd0', role: 'positive', supports: ['The Eiffel Tower was completed in 1889.', 'The Eiffel Tower is 330 metres tall.'] },
    { documentId: 'd1', role: 'negative', supports: [] },
    { documentId: 'd2', role: 'negative', supports: [] },
  ];
  const extracted: ExtractedSentence[] = [
    { text: 'The Eiffel Tower was completed in 1889 for the World\'s Fair.', sentences: 1, evidence: located(documents, 'd0', 'The Eiffel Tower was completed in 1889 for the World\'s Fair.') },
    { text: 'It is 330 metres tall including its antennas.', sentences: 1, evidence: located(documents, 'd0', 'It is 330 metres tall including its antennas.') },
    { text: 'The tower is 330 m high.', sentences: 1 },
  ];
  const judge = 'openai:gpt-4o';
  const scores: Score[] = [
    { metric: 'faithfulness', value: 2 / 3, label: 'unsupported-statements', explanation: '2 of 3 statements can be inferred from the contexts.', evidence: statements.flatMap((s) => (s.evidence ? [s.evidence] : [])), details: { statements, generated: statements.map((s) => s.statement), judge } },
    { metric: 'answer_relevancy', value: 0.912, label: 'committal', explanation: 'Mean cosine of 3 generated questions with the question; no generation was noncommittal.' },
    { metric: 'context_precision', value: 0.9999999999, label: 'useful-contexts', explanation: 'Average precision of the contexts judged useful.', details: { verdicts: [
      { documentId: 'd0', rank: 1, verdict: 1, reason: 'States the completion year and the height the reference gives.' },
      { documentId: 'd1', rank: 2, verdict: 0, reason: 'Gives a wrong year; not useful for the reference.' },
      { documentId: 'd2', rank: 3, verdict: 0, reason: 'About museums, not the tower.' },
    ], exact: false, judge } },
    { metric: 'context_recall', value: 1, label: 'fully-recalled', explanation: '2 of 2 reference sentences can be attributed.', details: { classifications: [
      { statement: 'The Eiffel Tower was completed in 1889.', reason: 'The first context says 1889.', attributed: 1 },
      { statement: 'It is 330 metres tall.', reason: 'The first context gives the height.', attributed: 1 },
    ], judge } },
    { metric: 'context_relevance', value: 3 / 7, label: 'partly-relevant', explanation: '3 of 7 context sentences were extracted as relevant.', evidence: extracted.flatMap((e) => (e.evidence ? [e.evidence] : [])), details: { extracted, contextSentences: 7, judge } },
    { metric: 'noise_sensitivity_irrelevant', value: 1 / 3, label: 'noise-errors', explanation: '1 of 3 response claims are incorrect and came from noise (irrelevant) contexts.', evidence: [claims[0]!.sources[0]!.evidence!], details: { mode: 'irrelevant', claims, documentRoles: roles, referenceStatements: roles[0]!.supports, matrices: { r2g: [], r2a: [], g2a: [] }, judge } },
  ];
  const expected = { reference: EIFFEL.reference, humanScores: { faithfulness: 0.5 } };
  const evalCase: EvalCase = {
    id: RAGAS_CASE, suiteId: 'ragas', method: 'ragas', row: { file: '/workspace/data/ragas.jsonl', line: 1, index: 0 },
    question: EIFFEL.question, documents, expected,
    params: { metrics: scores.map((s) => s.metric), skipped: [], givenResponse: true, roleSource: 'reference_contexts' },
    variables: { question: EIFFEL.question }, messages: [], givenResponse: EIFFEL.response,
  };
  const result: CaseResult = {
    caseId: RAGAS_CASE, modelKey: RAGAS_MODEL, status: 'success',
    response: { text: EIFFEL.response, given: true, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, cached: false },
    scores, attempts: 1, judgeUsage: { calls: 11, inputTokens: 5200, outputTokens: 900 }, ...STAMP,
  };
  return run(runId, 'RAGAS on given answers', [RAGAS_MODEL], [{ runId, evalCase, result }], []);
}

// ——— IF-RAG ———

export const IFRAG_MODEL = 'openai:gpt-4o-mini';
const TOKYO_DOCS = [
  'Kyoto was the imperial capital of Japan for more than a thousand years.',
  'Mount Fuji is the highest mountain in Japan at 3,776 metres.',
  'Tokyo has been the capital of Japan since 1868, when the emperor moved there from Kyoto.',
  'Osaka is known for its food culture and its castle.',
  'The Shinkansen connects Tokyo and Osaka in about two and a half hours.',
];

function ifragCase(suiteId: string, instruction: 'A' | 'B'): EvalCase {
  const documents = TOKYO_DOCS.map((text, i) => doc(`d${i}`, i === 2 ? 'positive' : 'negative', text, i === 2 ? [['answer', 'Tokyo']] : []));
  const idFormat = '[Document {n}]';
  const params: IfRagCaseParams = {
    kind: 'factual', instruction, k: 5, idFormat, normalise: 'rgb', sampleSeed: 1, orderSeed: 2, evidence: 1, irrelevant: 4,
    requestedIrrelevant: 4, available: 40, passedOver: 0, documentLabels: documents.map((_, i) => `[Document ${i + 1}]`),
    helpfulLabels: ['[Document 3]'], order: documents.map((d) => d.source ?? d.id), irrelevantSources: [], skippedKinds: [],
  };
  const expected: IfRagExpected = { kind: 'factual', gold: [{ source: 'factual', aliases: ['Tokyo'], helpful: ['d2'] }] };
  return {
    id: `${suiteId}/q7/factual`, suiteId, method: 'ifrag', testbed: 'factual', row: { file: '/workspace/data/ifrag.jsonl', line: 7, index: 6 },
    question: 'What is the capital of Japan?', documents, expected, params, variables: {}, messages: [],
  };
}

/** Instruction B: one response cites the helpful document, one cites a wrong one, one cites none. */
export const IFRAG_RESPONSES = {
  right: 'The capital of Japan is Tokyo [Document 3].',
  wrong: 'The capital of Japan is Tokyo, as [Document 1] and Document 5 say.',
  missing: 'The capital of Japan is Tokyo.',
} as const;

export function ifragRun(runId = 'ifrag-run'): FixtureRun {
  const params = parseIfRagParams({ instruction: 'B', normalise: 'rgb' }, WHERE);
  const cases = (Object.entries(IFRAG_RESPONSES) as [keyof typeof IFRAG_RESPONSES, string][]).map(([kind, text]): CaseDetail => {
    const evalCase = ifragCase(`ifrag-b-${kind}`, 'B');
    const scores = scoreIfRagCase(evalCase, text, params);
    const result: CaseResult = {
      caseId: evalCase.id, modelKey: IFRAG_MODEL, status: 'success',
      response: { text, usage: { inputTokens: 500, outputTokens: 20 }, latencyMs: 400, cached: false },
      scores, attempts: 1, ...STAMP,
    };
    const pass = scores.every((s) => s.pass !== false);
    result.pass = pass;
    return { runId, evalCase, result };
  });
  return run(runId, 'IF-RAG instruction B', [IFRAG_MODEL], cases, []);
}

// ——— LLM-Eval ———

export const LLM_EVAL_MODELS = ['openai:gpt-4o-mini', 'anthropic:claude-haiku'] as const;
const DIMENSIONS = ['content', 'grammar', 'relevance', 'appropriateness'] as const;

export function llmEvalRun(runId = 'llm-eval-run'): FixtureRun {
  const random = prng(99);
  const params = parseLlmEvalParams({ scale: '0-5' }, WHERE);
  const evalCases = new Map<string, EvalCase>();
  const results: CaseResult[] = [];
  const cases: CaseDetail[] = [];
  for (let i = 0; i < 12; i++) {
    const expected: LlmEvalExpected = { context: `User: question ${i}?`, reference: `Reference answer ${i}.`, humanScores: { content: 1 + (i % 5), grammar: 2 + (i % 3) } };
    const evalCase: EvalCase = {
      id: `llm-eval/${i}`, suiteId: 'llm-eval', method: 'llm-eval', row: { file: '/workspace/data/dialogues.jsonl', line: i + 1, index: i },
      question: `Question ${i}: how do I reset my password?`, documents: [], expected, params: { level: 'response', withReference: true, givenResponse: false },
      variables: {}, messages: [{ role: 'user', content: `Question ${i}` }],
    };
    evalCases.set(evalCase.id, evalCase);
    LLM_EVAL_MODELS.forEach((modelKey, m) => {
      const raw = JSON.stringify(Object.fromEntries(DIMENSIONS.map((d) => [d, 0])));
      const details = { scale: '0-5', level: 'response', withReference: true, judge: 'openai:gpt-4o', prompt: 'llm-eval/turn.prompt', attempts: 1 };
      const scores: Score[] = DIMENSIONS.map((d, k) => (i === 3 && m === 1 && d === 'grammar'
        ? { metric: d, value: null, label: 'judge-error', judgeError: 'grammar = 7 is outside 0.0–5.0', explanation: raw, details }
        : { metric: d, value: Math.round(Math.min(5, Math.max(0, 2.2 + m * 0.8 + k * 0.3 + random() * 2)) * 10) / 10, explanation: raw, details }));
      const result: CaseResult = {
        caseId: evalCase.id, modelKey, status: 'success', response: { text: `Open Settings, then Security, then Reset password (${modelKey}).`, usage: { inputTokens: 80, outputTokens: 20 }, latencyMs: 500, cached: false },
        scores, attempts: 1, judgeUsage: { calls: 1, inputTokens: 400, outputTokens: 40 }, ...STAMP,
      };
      results.push(result);
      cases.push({ runId, evalCase, result });
    });
  }
  // Reports read the engine's report view of a case (human scores included), not the case itself.
  const report = llmEvalReport(reportCasesOf(evalCases, llmEvalSuite), results, params, 'llm-eval');
  return run(runId, 'LLM-Eval dialogue scores', [...LLM_EVAL_MODELS], cases, [report]);
}
