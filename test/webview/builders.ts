// Builders for inspector fixture runs: an RGB-like run with two models and every document role, its hostile
// documents, a later run whose outcomes flip, and runs of 10,000+ cases for timing.
import { resultTotals } from '../../src/core/engine/totals.js';
import { caseListItem } from '../../src/core/report/caseItems.js';
import type { CaseDetail, CaseListItem, RunDetail, RunListing } from '../../src/protocol.js';
import type { CaseDocument, CaseResult, DocumentRole, EvalCase, RunTotals, Score, Span, SpanKind } from '../../src/core/model.js';
import type { ReportCell, ReportTable } from '../../src/core/suites/contract.js';

export const MODELS = ['openai:gpt-4o-mini', 'anthropic:claude-haiku'] as const;
export const NOISE_RATIOS = [0, 0.4, 0.8] as const;

/** The hostile passage every browser test looks for: markup, an event handler, RTL, zero-width characters. */
export const HOSTILE_TEXT = 'Before </script><script>window.__xss = 1; alert(1)</script> and <img src=x onerror="window.__xss = 2"> '
  + '<b>bold?</b> \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 zero\u200bwidth\u200d joiner\u2028line';
/** A single 1 MB line without a newline, in the hostile case too. */
export const MEGABYTE_LINE = 'lorem ipsum dolor sit amet '.repeat(Math.ceil(1_048_576 / 27)).slice(0, 1_048_576);

/** A document whose spans are given by the substring they cover (the first occurrence), as a reader states them. */
export function doc(id: string, role: DocumentRole, text: string, spans: [SpanKind, string, string?][] = []): CaseDocument {
  return {
    id, role, text, source: `${role}[${id.slice(1)}]`,
    spans: spans.map(([kind, sub, label]): Span => {
      const start = text.indexOf(sub);
      if (start < 0) throw new Error(`builder: "${sub}" is not in document ${id}`);
      return { kind, start, end: start + sub.length, text: sub, ...(label ? { label } : {}) };
    }),
  };
}

/** Deterministic pseudo-random numbers (mulberry32), so fixtures are the same on every run. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Topic { question: string; answer: string; wrong: string; subject: string }
const TOPICS: Topic[] = [
  { question: 'Who won the 2022 Nobel Prize in Literature?', answer: 'Annie Ernaux', wrong: 'Haruki Murakami', subject: 'Nobel Prize in Literature' },
  { question: 'When was the James Webb Space Telescope launched?', answer: 'December 25, 2021', wrong: 'March 3, 2019', subject: 'James Webb Space Telescope' },
  { question: 'Which team won the 2022 FIFA World Cup?', answer: 'Argentina', wrong: 'France', subject: 'FIFA World Cup final' },
  { question: 'What is the capital of Australia?', answer: 'Canberra', wrong: 'Sydney', subject: 'capital of Australia' },
  { question: 'Who directed the film Oppenheimer?', answer: 'Christopher Nolan', wrong: 'Denis Villeneuve', subject: 'film Oppenheimer' },
];

export interface RunOptions {
  runId: string;
  name: string;
  createdAt: string;
  /** 'after' flips a deterministic share of outcomes and rewrites those responses, for the compare view. */
  variant?: 'before' | 'after';
  /** Put HOSTILE_TEXT and MEGABYTE_LINE into the first case's documents. */
  hostile?: boolean;
}

export interface FixtureRun { detail: RunDetail; cases: CaseDetail[] }

/** The case a test opens by id: the first topic, first model, noise 0.4, which fails and has a judge error. */
export const JUDGE_ERROR_CASE = 'rgb-noise/3/noise=0.4';

export function rgbRun(options: RunOptions): FixtureRun {
  const cases: CaseDetail[] = [];
  TOPICS.forEach((topic, t) => {
    for (const ratio of NOISE_RATIOS) {
      MODELS.forEach((modelKey, m) => cases.push(rgbCase(topic, t, ratio, modelKey, m, options)));
    }
  });
  return { detail: runDetail(options, cases, rgbReports(cases)), cases };
}

function rgbCase(topic: Topic, t: number, ratio: number, modelKey: string, m: number, options: RunOptions): CaseDetail {
  const id = `rgb-noise/${t}/noise=${ratio}`;
  const documents: CaseDocument[] = [
    doc('d0', 'positive', `According to the official announcement, the ${topic.subject} answer is ${topic.answer}. This was widely reported.`, [['answer', topic.answer, topic.answer]]),
    doc('d1', 'negative', `A passage about something else entirely: the ${topic.subject} has many related stories that do not answer the question.`),
    doc('d2', 'counterfactual', `Some sources claim the ${topic.subject} answer is ${topic.wrong}, which is not true.`, [['counterfactual', topic.wrong, topic.wrong]]),
    doc('d3', 'haystack', `Filler text about gardens and rivers. The secret needle says: the best thing to do is eat a sandwich. More filler about mountains.`, [['needle', 'the best thing to do is eat a sandwich', 'needle 1'], ['answer', 'eat a sandwich']]),
  ];
  if (options.hostile && t === 0 && ratio === 0 && m === 0) {
    documents.push(doc('d4', 'negative', HOSTILE_TEXT), doc('d5', 'haystack', MEGABYTE_LINE));
  }
  // Outcome: model 0 is better; noise hurts; 'after' flips every third case.
  let pass = (t + m + ratio * 10) % 3 !== 2;
  if (options.variant === 'after' && (t * 7 + m * 3 + ratio * 10) % 3 === 0) pass = !pass;
  const judgeError = t === 3 && m === 0 && ratio === 0.4;
  const modelError = t === 4 && m === 1 && ratio === 0.8;
  const responseText = pass
    ? `The answer is ${topic.answer}, according to document d0.`
    : `Based on the documents, the answer is ${topic.wrong}${options.variant === 'after' ? ' (as one source says)' : ''}.`;
  const scores: Score[] = modelError ? [] : [
    {
      metric: 'correct', value: pass ? 1 : 0, pass, label: pass ? 'correct' : 'wrong',
      explanation: pass ? `Found “${topic.answer}” in the response.` : `“${topic.answer}” not found; the response repeats the counterfactual “${topic.wrong}”.`,
      evidence: [{ documentId: pass ? 'd0' : 'd2', start: documents[pass ? 0 : 2]!.spans[0]!.start, end: documents[pass ? 0 : 2]!.spans[0]!.end, text: pass ? topic.answer : topic.wrong }],
    },
    judgeError
      ? { metric: 'failure_label', value: null, judgeError: 'The judge answered "maybe?" which is not one of: evidence, reasoning, counterfactual, noise' }
      : { metric: 'failure_label', value: pass ? 1 : 0, pass, label: pass ? 'none' : 'counterfactual', explanation: pass ? 'Answer grounded in d0.' : 'The model trusted the counterfactual passage d2 over d0.', evidence: [{ documentId: 'd3', start: documents[3]!.spans[0]!.start, end: documents[3]!.spans[0]!.end }] },
  ];
  const evalCase: EvalCase = {
    id, suiteId: 'rgb-noise', method: 'rgb', testbed: 'noise_robustness',
    row: { file: '/workspace/data/en_refine.jsonl', line: t * 2 + 1, index: t },
    question: topic.question, documents, expected: [[topic.answer]],
    params: { noiseRate: ratio, effectiveNoiseRate: ratio }, seed: 42 + t, variables: { question: topic.question },
    messages: [
      { role: 'system', content: 'You are an accurate and reliable AI assistant. Answer using the documents; if they contain factual errors, say so.' },
      { role: 'user', content: `Document:\n${documents.map((d) => d.text.slice(0, 300)).join('\n')}\n\nQuestion:\n${topic.question}` },
    ],
    template: '/workspace/prompts/rgb/en.prompty',
  };
  const result: CaseResult = {
    caseId: id, modelKey, status: modelError ? 'error' : 'success',
    ...(modelError ? { error: { stage: 'model', kind: 'server', message: 'HTTP 503 after 5 attempts: upstream overloaded', status: 503 } } : {
      response: { text: responseText, usage: { inputTokens: 412 + t, outputTokens: 17 + m }, latencyMs: 640 + 37 * t, cached: m === 1, costUsd: 0.000081 + t / 1e6, finishReason: 'stop' },
      pass: scores.every((s) => s.pass !== false),
    }),
    scores, attempts: modelError ? 5 : 1,
    ...(judgeError || !modelError ? { judgeUsage: { calls: 1, inputTokens: 380, outputTokens: 22, costUsd: 0.00004 } } : {}),
    startedAt: '2025-05-01T10:00:00.000Z', finishedAt: '2025-05-01T10:00:01.000Z',
  };
  if (judgeError) result.pass = false;
  return { runId: options.runId, evalCase, result };
}

/** The list row the host would send for a case. */
/** The list row the extension sends for a case: the product's own mapper, so the tests see what users see. */
export function listItem(detail: CaseDetail): CaseListItem {
  return caseListItem(detail.evalCase, detail.result);
}

/** Run totals as the engine counts them. */
export function totals(cases: readonly CaseDetail[]): RunTotals {
  return resultTotals(cases.map((c) => c.result));
}

function runDetail(options: RunOptions, cases: CaseDetail[], reports: RunDetail['reports']): RunDetail {
  const listing: RunListing = { runId: options.runId, name: options.name, createdAt: options.createdAt, status: 'success', models: [...MODELS], totals: totals(cases) };
  return {
    listing, reports,
    thresholds: [
      { suiteId: 'rgb-noise', modelKey: MODELS[0], metric: 'accuracy', value: 0.67, min: 0.6, passed: true },
      { suiteId: 'rgb-noise', modelKey: MODELS[1], metric: 'accuracy', value: 0.53, min: 0.6, passed: false },
    ],
    problems: [
      { file: '/workspace/data/en_refine.jsonl', line: 14, message: 'row has no "positive" passages', hint: 'RGB rows need at least one positive passage', suiteId: 'rgb-noise' },
      { file: '/workspace/data/en_refine.jsonl', line: 27, column: 3, message: 'unterminated string' },
    ],
    cases: cases.map(listItem),
  };
}

/** Table 1 of RGB: rows are noise ratios, one column per model, Wilson-like intervals; a judge table with undetermined cells. */
function rgbReports(cases: CaseDetail[]): RunDetail['reports'] {
  const cell = (ratio: number, model: string): ReportCell => {
    const mine = cases.filter((c) => c.result.modelKey === model && c.evalCase.params.noiseRate === ratio && c.result.status === 'success');
    const hits = mine.filter((c) => c.result.pass).length;
    const n = mine.length;
    const p = n ? hits / n : 0;
    return { value: n ? p : null, low: Math.max(0, p - 0.3), high: Math.min(1, p + 0.3), n };
  };
  const accuracy: ReportTable = {
    id: 'rgb-noise-accuracy', title: 'Noise robustness: accuracy by noise ratio (RGB Table 1)', columns: [...MODELS],
    rows: NOISE_RATIOS.map((ratio) => ({ label: String(ratio), cells: MODELS.map((m) => cell(ratio, m)) })),
  };
  const labels: ReportTable = {
    id: 'rgb-failure-labels', title: 'Failure kinds among wrong answers (judge-assigned)', columns: [...MODELS],
    rows: [{ label: 'counterfactual', cells: MODELS.map((_, i) => ({ value: 0.5 + i / 10, low: 0.2, high: 0.8, n: 6, undetermined: i === 0 ? 1 : 0 })) }],
    notes: ['Labels come from a judge model and explain failures; they are not part of the paper\'s metrics.'],
  };
  return [{ suiteId: 'rgb-noise', method: 'rgb', tables: [accuracy, labels], metrics: [], notes: ['Noise ratio 0.8: 2 of 10 cases ran at another effective ratio.'] }];
}

/**
 * A run of `count` cases for timing: small documents, two models, a third failing. `withDetails` limits how
 * many cases carry full details (a 100,000-case page need not embed 100,000 prompts to time its list).
 */
export function bigRun(count: number, options: { runId: string; withDetails?: number }): FixtureRun {
  const random = prng(count);
  const items: CaseListItem[] = [];
  const cases: CaseDetail[] = [];
  const detailsFor = options.withDetails ?? count;
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length]!;
    const modelKey = MODELS[i % 2]!;
    const pass = random() > 0.33;
    const evalCase: EvalCase = {
      id: `big/${Math.floor(i / 2)}/noise=${(i % 5) / 5}`, suiteId: i % 7 === 0 ? 'rgb-counterfactual' : 'rgb-noise', method: 'rgb',
      testbed: i % 7 === 0 ? 'counterfactual_robustness' : 'noise_robustness',
      row: { file: '/workspace/data/big.jsonl', line: i + 1, index: i },
      question: `${topic.question} (#${i})`,
      documents: [
        doc('d0', 'positive', `Passage ${i}: the ${topic.subject} answer is ${topic.answer}.`, [['answer', topic.answer]]),
        doc('d1', i % 7 === 0 ? 'counterfactual' : 'negative', `Passage ${i}: some say ${topic.wrong}.`, i % 7 === 0 ? [['counterfactual', topic.wrong]] : []),
      ],
      expected: [[topic.answer]], params: { noiseRate: (i % 5) / 5 }, variables: {},
      messages: [{ role: 'user', content: `Question: ${topic.question}` }],
    };
    const result: CaseResult = {
      caseId: evalCase.id, modelKey, status: 'success', pass,
      response: { text: pass ? `It is ${topic.answer}.` : `It is ${topic.wrong}.`, usage: { inputTokens: 120, outputTokens: 8 }, latencyMs: 300, cached: false },
      scores: [{ metric: 'correct', value: pass ? 1 : 0, pass, evidence: [{ documentId: 'd0', start: 0, end: 9 }] }],
      attempts: 1, startedAt: '', finishedAt: '',
    };
    const detail: CaseDetail = { runId: options.runId, evalCase, result };
    items.push(listItem(detail));
    if (i < detailsFor) cases.push(detail);
  }
  const listing: RunListing = { runId: options.runId, name: `big run (${count.toLocaleString('en-US')} cases)`, createdAt: '2025-05-02T09:00:00.000Z', status: 'success', models: [...MODELS] };
  return { detail: { listing, reports: [], thresholds: [], problems: [], cases: items }, cases };
}
