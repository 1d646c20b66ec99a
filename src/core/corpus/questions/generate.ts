// Generates the planned test questions: each job asks the generating model, checks what it wrote (evidence located in
// the chunk, answer not in the question, answerable from its chunks, not without them, or — unanswerable — not from
// the corpus), and then, one at a time so two near-duplicates cannot both pass, the duplicate check. Every job ends as
// a kept row or a rejected one with its reason; cancellation writes nothing for the jobs in flight.
import { describeError } from '../../errors.js';
import type { ModelClient } from '../../model.js';
import { forEachConcurrent } from '../../pool.js';
import { fnv1a } from '../../random.js';
import type { EmbeddingClient } from '../../suites/contract.js';
import { generateCounterfactuals, renderPromptFile } from '../../suites/ifrag/counterfactual.js';
import { judgeJson } from '../../suites/judging.js';
import type { Chunk } from '../contract.js';
import { answerableCheck, closedBookCheck, corpusLacksCheck, DuplicateIndex, leakCheck, needsBothCheck, QUESTION_PROMPTS } from './checks.js';
import type { CheckOutcome, Passage } from './checks.js';
import { spanOfQuote } from './evidence.js';
import { NOT_IN_DOCUMENTS } from './model.js';
import type { QuestionChecks, QuestionJob, QuestionKind, QuestionRow, RejectedQuestion, RelevantSpan } from './model.js';

/** Searches the corpus for a question (the unanswerable check): the best `k` chunks. */
export type CorpusSearch = (question: string, k: number, signal: AbortSignal) => Promise<Passage[]>;

export interface QuestionGenerationOptions {
  jobs: readonly QuestionJob[];
  generator: ModelClient;
  judge: ModelClient;
  embeddings: EmbeddingClient;
  search: CorpusSearch;
  signal: AbortSignal;
  /** Cosine at or above which a question is a near-duplicate of a kept one of its kind. */
  duplicateThreshold: number;
  /** Jobs in flight at once; the clients' schedulers still bound the calls. */
  concurrency: number;
  /** Keys of jobs an earlier run finished (kept, or rejected by a check): skipped. */
  done: ReadonlySet<string>;
  /** Questions kept by an earlier run: new ones must not duplicate them. */
  keptBefore: readonly Pick<QuestionRow, 'id' | 'kind' | 'question'>[];
  /** How many search hits the unanswerable check judges. */
  searchK?: number;
  /** Called for each finished job, in finishing order: the CLI appends the line to its file. */
  onKept: (row: QuestionRow) => Promise<void>;
  onRejected: (rejected: RejectedQuestion) => Promise<void>;
  onProgress?: (progress: GenerationProgress) => void;
}

export interface GenerationProgress {
  done: number;
  total: number;
  kept: number;
  rejected: number;
}

export interface GenerationSummary {
  planned: number;
  skipped: number;
  kept: number;
  rejected: number;
  /** Rejections by check ("leak" → 2). */
  byCheck: Record<string, number>;
  /** Rejected by a failure (a call, an unreadable answer), not a verdict: asked again by a rerun. */
  undecided: number;
}

/** What a job wrote before the duplicate check. */
interface Draft {
  question: string;
  answer: string;
  relevance: Record<string, number>;
  spans: RelevantSpan[];
  contexts: string[];
  answerable: boolean;
  checks: Omit<QuestionChecks, 'duplicate'>;
  counterfactual?: QuestionRow['counterfactual'];
}

class Rejection {
  constructor(readonly check: string, readonly reason: string, readonly retry: boolean, readonly draft?: { question: string; answer?: string }) {}
}

const GENERATED_SCHEMAS: Record<'single' | 'multi' | 'unanswerable', Record<string, unknown>> = {
  single: { type: 'object', properties: { question: { type: 'string' }, answer: { type: 'string' }, evidence: { type: 'string' } }, required: ['question', 'answer', 'evidence'], additionalProperties: false },
  multi: {
    type: 'object',
    properties: { question: { type: 'string' }, answer: { type: 'string' }, answer_passage: { type: 'integer', enum: [1, 2] }, evidence_first: { type: 'string' }, evidence_second: { type: 'string' } },
    required: ['question', 'answer', 'answer_passage', 'evidence_first', 'evidence_second'],
    additionalProperties: false,
  },
  unanswerable: { type: 'object', properties: { question: { type: 'string' }, missing: { type: 'string' } }, required: ['question', 'missing'], additionalProperties: false },
};

/** The row id: stable for the job, so a question keeps its id across reruns. */
export function questionId(job: QuestionJob): string {
  return `q-${job.kind}-${fnv1a(job.key).toString(16).padStart(8, '0')}`;
}

/** A check that did not pass, as the rejection it is. */
function passed(outcome: CheckOutcome, check: string, draft: { question: string; answer?: string }): string {
  if (outcome.verdict === 'pass') return outcome.note;
  throw new Rejection(check, outcome.reason, outcome.verdict === 'undecided', draft);
}

async function ask<T>(job: QuestionJob, options: QuestionGenerationOptions, prompt: string, variables: Record<string, unknown>, schema: Record<string, unknown>): Promise<T> {
  const rendered = await renderPromptFile(prompt, variables);
  const outcome = await judgeJson<T>(options.generator, { name: 'generated_question', messages: rendered.messages, schema, ...(rendered.temperature !== undefined ? { temperature: rendered.temperature } : {}), seed: job.seed }, options.signal);
  if (!outcome.ok) {
    const error = outcome.error.replace(/^judge call failed/, 'model call failed').replace(/^judge output/, 'model output');
    throw new Rejection(error.startsWith('model call failed') ? 'error' : 'shape', error, error.startsWith('model call failed'));
  }
  return outcome.value;
}

function nonEmpty(value: string, what: string, draft?: { question: string }): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new Rejection('shape', `the generated ${what} is empty`, false, draft);
  return trimmed;
}

function passagesOf(chunks: readonly Chunk[]): Passage[] {
  return chunks.map((chunk) => ({ id: chunk.id, text: chunk.text }));
}

/** The span of a quote, or the rejection saying the quote is not in the chunk. */
function span(chunk: Chunk, quote: string, grade: number, draft: { question: string; answer: string }): RelevantSpan {
  const found = spanOfQuote(chunk, quote, grade);
  if (!found) throw new Rejection('evidence', `its evidence quote is not in ${chunk.id}: ${JSON.stringify(quote.slice(0, 120))}`, false, draft);
  return found;
}

/** Answerable from its chunks (all of them, for multi-hop), not without them. */
async function answeredOnlyWithChunks(options: QuestionGenerationOptions, draft: { question: string; answer: string }, chunks: readonly Chunk[]): Promise<Pick<QuestionChecks, 'answerable' | 'needsBoth' | 'closedBook'>> {
  passed(leakCheck(draft.question, draft.answer), 'leak', draft);
  const answerable = passed(await answerableCheck(options.judge, draft.question, draft.answer, passagesOf(chunks), options.signal), 'answerable', draft);
  const needsBoth = chunks.length > 1 ? passed(await needsBothCheck(options.judge, draft.question, draft.answer, passagesOf(chunks), options.signal), 'needs-both', draft) : undefined;
  const closedBook = passed(await closedBookCheck(options.generator, options.judge, draft.question, draft.answer, options.signal), 'closed-book', draft);
  return { answerable, ...(needsBoth ? { needsBoth } : {}), closedBook };
}

async function singleHop(job: QuestionJob, options: QuestionGenerationOptions): Promise<Draft> {
  const chunk = job.chunks[0] as Chunk;
  const made = await ask<{ question: string; answer: string; evidence: string }>(job, options, QUESTION_PROMPTS.singleHop, { chunk: chunk.text, file: chunk.file }, GENERATED_SCHEMAS.single);
  const draft = { question: nonEmpty(made.question, 'question'), answer: '' };
  draft.answer = nonEmpty(made.answer, 'answer', draft);
  const spans = [span(chunk, made.evidence, 2, draft)];
  const checks = await answeredOnlyWithChunks(options, draft, job.chunks);
  return { ...draft, relevance: { [chunk.id]: 2 }, spans, contexts: [chunk.text], answerable: true, checks };
}

async function multiHop(job: QuestionJob, options: QuestionGenerationOptions): Promise<Draft> {
  const [first, second] = job.chunks as [Chunk, Chunk];
  const made = await ask<{ question: string; answer: string; answer_passage: 1 | 2; evidence_first: string; evidence_second: string }>(job, options, QUESTION_PROMPTS.multiHop, { first: first.text, second: second.text, first_file: first.file, second_file: second.file }, GENERATED_SCHEMAS.multi);
  const draft = { question: nonEmpty(made.question, 'question'), answer: '' };
  draft.answer = nonEmpty(made.answer, 'answer', draft);
  const [firstGrade, secondGrade] = made.answer_passage === 1 ? [2, 1] : [1, 2];
  const spans = [span(first, made.evidence_first, firstGrade, draft), span(second, made.evidence_second, secondGrade, draft)];
  const checks = await answeredOnlyWithChunks(options, draft, job.chunks);
  return { ...draft, relevance: { [first.id]: firstGrade, [second.id]: secondGrade }, spans, contexts: [first.text, second.text], answerable: true, checks };
}

async function unanswerable(job: QuestionJob, options: QuestionGenerationOptions): Promise<Draft> {
  const chunk = job.chunks[0] as Chunk;
  const made = await ask<{ question: string; missing: string }>(job, options, QUESTION_PROMPTS.unanswerable, { chunk: chunk.text, file: chunk.file }, GENERATED_SCHEMAS.unanswerable);
  const draft = { question: nonEmpty(made.question, 'question') };
  const found = await options.search(draft.question, options.searchK ?? 5, options.signal);
  const answerable = passed(await corpusLacksCheck(options.judge, draft.question, found, options.signal), 'corpus-answers', draft);
  return { question: draft.question, answer: NOT_IN_DOCUMENTS, relevance: {}, spans: [], contexts: found.map((p) => p.text), answerable: false, checks: { answerable } };
}

/** A single-hop question whose chunk the counterfactual generator rewrites to state another answer (stress, IF-RAG). */
async function conflicting(job: QuestionJob, options: QuestionGenerationOptions): Promise<Draft> {
  const draft = await singleHop(job, options);
  const chunk = job.chunks[0] as Chunk;
  const summary = await generateCounterfactuals({
    rows: [{ ref: { file: chunk.file, line: chunk.startLine, index: 0 }, data: { question: draft.question, answer: [draft.answer], passages: [chunk.text] } }],
    client: options.generator,
    signal: options.signal,
    seed: job.seed,
    concurrency: 1,
  });
  const outcome = summary.outcomes[0];
  if (!outcome || outcome.status !== 'generated') {
    const reason = outcome?.status === 'failed' ? outcome.reason : 'the counterfactual generator returned nothing';
    throw new Rejection('counterfactual', `the counterfactual generator failed: ${reason}`, reason.startsWith('model call failed'), draft);
  }
  const counterfactual = outcome.data.counterfactual as { answer: string; passages: string[]; generatedBy?: unknown };
  return { ...draft, counterfactual, checks: { ...draft.checks, counterfactual: `substitute answer "${counterfactual.answer}" in the rewritten chunk, no trace of "${draft.answer}"` } };
}

const GENERATORS: Record<QuestionKind, (job: QuestionJob, options: QuestionGenerationOptions) => Promise<Draft>> = {
  'single-hop': singleHop,
  'multi-hop': multiHop,
  unanswerable,
  conflicting,
};

function rejected(job: QuestionJob, rejection: Rejection): RejectedQuestion {
  return {
    status: 'rejected',
    key: job.key,
    kind: job.kind,
    chunk_ids: job.chunks.map((c) => c.id),
    seed: job.seed,
    reason: rejection.reason,
    check: rejection.check,
    retry: rejection.retry,
    ...(rejection.draft ? { question: rejection.draft.question } : {}),
    ...(rejection.draft?.answer ? { answer: rejection.draft.answer } : {}),
  };
}

function rowOf(job: QuestionJob, draft: Draft, duplicate: string, options: QuestionGenerationOptions): QuestionRow {
  return {
    id: questionId(job),
    kind: job.kind,
    question: draft.question,
    answer: draft.answer,
    reference: draft.answer,
    relevant_ids: Object.keys(draft.relevance),
    relevance: draft.relevance,
    relevant_spans: draft.spans,
    retrieved_contexts: draft.contexts,
    answerable: draft.answerable,
    ...(draft.counterfactual ? { counterfactual: draft.counterfactual } : {}),
    checks: { ...draft.checks, duplicate },
    source: { key: job.key, seed: job.seed, model: options.generator.key, judge: options.judge.key },
  };
}

/** Kept questions are compared within their kind: a conflicting question may ask what a single-hop one asks. */
function duplicateIndexes(options: QuestionGenerationOptions): Map<QuestionKind, DuplicateIndex> {
  return new Map<QuestionKind, DuplicateIndex>(['single-hop', 'multi-hop', 'unanswerable', 'conflicting'].map((kind) => [kind as QuestionKind, new DuplicateIndex(options.duplicateThreshold)]));
}

/** Runs every job not done before; cancellation rejects (what finished is already handed to onKept/onRejected). */
export async function generateQuestions(options: QuestionGenerationOptions): Promise<GenerationSummary> {
  const pending = options.jobs.filter((job) => !options.done.has(job.key));
  const summary: GenerationSummary = { planned: options.jobs.length, skipped: options.jobs.length - pending.length, kept: 0, rejected: 0, byCheck: {}, undecided: 0 };
  const indexes = duplicateIndexes(options);
  if (options.keptBefore.length > 0) {
    const vectors = await options.embeddings.embed(options.keptBefore.map((q) => q.question), options.signal);
    options.keptBefore.forEach((q, i) => indexes.get(q.kind)?.add(q.id, vectors[i] as number[]));
  }
  // The duplicate check and the write, one job at a time: otherwise two near-duplicates in flight would both pass.
  let accepting: Promise<void> = Promise.resolve();
  const accept = (step: () => Promise<void>): Promise<void> => {
    const next = accepting.then(step);
    accepting = next.catch(() => undefined);
    return next;
  };
  let done = 0;
  const finish = async (job: QuestionJob, outcome: { row: QuestionRow } | { rejected: RejectedQuestion }) => {
    if ('row' in outcome) {
      await options.onKept(outcome.row);
      summary.kept++;
    } else {
      await options.onRejected(outcome.rejected);
      summary.rejected++;
      if (outcome.rejected.retry) summary.undecided++;
      summary.byCheck[outcome.rejected.check] = (summary.byCheck[outcome.rejected.check] ?? 0) + 1;
    }
    done++;
    options.onProgress?.({ done, total: pending.length, kept: summary.kept, rejected: summary.rejected });
  };
  options.onProgress?.({ done: 0, total: pending.length, kept: 0, rejected: 0 });
  await forEachConcurrent(pending, options.concurrency, options.signal, async (job) => {
    let draft: Draft;
    try {
      draft = await GENERATORS[job.kind](job, options);
    } catch (error) {
      if (options.signal.aborted) throw error;
      const rejection = error instanceof Rejection ? error : new Rejection('error', describeError(error), true);
      await accept(() => finish(job, { rejected: rejected(job, rejection) }));
      return;
    }
    await accept(async () => {
      options.signal.throwIfAborted();
      let vector: number[];
      try {
        [vector] = (await options.embeddings.embed([draft.question], options.signal)) as [number[]];
      } catch (error) {
        if (options.signal.aborted) throw error;
        await finish(job, { rejected: rejected(job, new Rejection('duplicate', `the duplicate check is undetermined: embedding failed: ${describeError(error)}`, true, draft)) });
        return;
      }
      const index = indexes.get(job.kind) as DuplicateIndex;
      const outcome = index.check(vector);
      if (outcome.verdict !== 'pass') {
        await finish(job, { rejected: rejected(job, new Rejection('duplicate', outcome.reason, false, draft)) });
        return;
      }
      const row = rowOf(job, draft, outcome.note, options);
      index.add(row.id, vector);
      await finish(job, { row });
    });
  });
  options.signal.throwIfAborted();
  return summary;
}
