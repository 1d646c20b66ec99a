// The rag method's pieces without a process: params checked by name, relevance labels from each source, a case built
// from a retrieval (or from the rows' own passages), a failed retrieval carried on the case, nothing asked while counting.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DatasetRow } from '../../../src/core/model.js';
import { RetrieverError } from '../../../src/core/retrieval/contract.js';
import type { Retriever } from '../../../src/core/retrieval/contract.js';
import { qrelsOfRow } from '../../../src/core/retrieval/qrels.js';
import { expandRagRow, prepareRagRow, ragCaseParams } from '../../../src/core/suites/rag/cases.js';
import { parseRagParams } from '../../../src/core/suites/rag/params.js';

const row = (data: Record<string, unknown>): DatasetRow => ({ data, ref: { file: '/d/q.jsonl', line: 3, index: 2 } });
const context = { suiteId: 'rag', seed: 7, models: ['m'] };
const items = [{ id: 'a', text: 'Paris is the capital of France.' }, { id: 'b', text: 'Lyon is a city.' }, { id: 'c', text: 'Paris again.' }];
const fixed = (answer: typeof items | Error): Retriever => ({ identity: 'fixed', kind: 'command', retrieve: () => (answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ items: answer, latencyMs: 4, cached: false })) });

test('params: defaults, and a bad key or value named with its fix', () => {
  assert.deepEqual(parseRagParams(undefined, { file: 'e.yaml' }), { candidates: 20, k: 5, score: 'match', questionColumn: 'question', answerColumn: 'answer', relevantIdsColumn: 'relevant_ids', gradedColumn: 'relevance', spansColumn: 'relevant_spans', ks: [1, 3, 5, 10] });
  assert.throws(() => parseRagParams({ kk: 3 }, { file: 'e.yaml' }), /rag params\.kk: unknown parameter/);
  assert.throws(() => parseRagParams({ k: 5, candidates: 3 }, { file: 'e.yaml' }), /3 candidates cannot fill a cut-off of k = 5/);
  assert.throws(() => parseRagParams({ score: 'judge' }, { file: 'e.yaml', judge: false }), /score: judge needs a judge model/);
});

test('labels: a list of ids, graded relevance, or a message for a bad cell', () => {
  assert.deepEqual(qrelsOfRow({ relevant_ids: ['a', 7] }, { relevantIds: 'relevant_ids', graded: 'relevance' }), { qrels: new Map([['a', 1], ['7', 1]]), source: 'relevant_ids' });
  assert.deepEqual(qrelsOfRow({ relevance: { a: 2, b: 0 } }, { relevantIds: 'relevant_ids', graded: 'relevance' }), { qrels: new Map([['a', 2], ['b', 0]]), source: 'graded' });
  assert.match(qrelsOfRow({ relevance: { a: -1 } }, { relevantIds: 'relevant_ids', graded: 'relevance' }) as string, /relevance\.a: expected a grade ≥ 0/);
  assert.equal(qrelsOfRow({}, { relevantIds: 'relevant_ids', graded: 'relevance' }), undefined);
});

test('a case from a retrieval: the first k sent, graded labels as roles, every candidate ranked', async () => {
  const params = parseRagParams({ k: 2, candidates: 3 }, { file: 'e.yaml' });
  const data = { id: 'x', question: 'Capital of France?', answer: 'Paris', relevance: { a: 2, c: 1 } };
  const prepared = await prepareRagRow(row(data), params, { ...context, retriever: fixed(items), signal: new AbortController().signal });
  const [evalCase] = expandRagRow(row(data), params, context, prepared);
  assert.equal(evalCase!.id, 'rag/x');
  assert.deepEqual(evalCase!.documents.map((d) => [d.id, d.role, d.retrieved?.id]), [['d0', 'positive', 'a'], ['d1', 'negative', 'b']]);
  const record = ragCaseParams(evalCase!).retrieval!;
  assert.deepEqual(record.candidates.map((c) => [c.rank, c.id, c.sent, c.documentId, c.relevance, c.labelSource]), [[1, 'a', true, 'd0', 2, 'graded'], [2, 'b', true, 'd1', 0, 'graded'], [3, 'c', false, undefined, 1, 'graded']]);
  assert.deepEqual(record.relevant, [{ id: 'a', grade: 2 }, { id: 'c', grade: 1 }]);
});

test('relevant_spans label the passages by where they sit in their file, when the row names no ids', async () => {
  const params = parseRagParams({ k: 2, candidates: 3 }, { file: 'e.yaml' });
  const placed = items.map((item, i) => ({ ...item, metadata: { file: 'guide.md', startChar: i * 100, endChar: i * 100 + 80 } }));
  const data = { question: 'Capital of France?', answer: 'Paris', relevant_spans: [{ file: 'guide.md', start: 210, end: 230, grade: 2 }, { file: 'other.md', start: 0, end: 5 }] };
  const prepared = await prepareRagRow(row(data), params, { ...context, retriever: fixed(placed), signal: new AbortController().signal });
  const evalCase = expandRagRow(row(data), params, context, prepared)[0]!;
  const record = ragCaseParams(evalCase).retrieval!;
  assert.deepEqual(record.candidates.map((c) => [c.id, c.relevance, c.labelSource]), [['a', 0, 'span'], ['b', 0, 'span'], ['c', 2, 'span']]);
  assert.deepEqual(record.relevant, [{ id: 'c', grade: 2 }, { id: 'span:other.md#0-5', grade: 1 }]);
  assert.deepEqual(evalCase.documents.map((d) => d.role), ['negative', 'negative']);
  // Ids, when the row has them too, label first (they name exactly the retriever's documents).
  const both = { ...data, relevant_ids: ['a'] };
  const byIds = ragCaseParams(expandRagRow(row(both), params, context, await prepareRagRow(row(both), params, { ...context, retriever: fixed(placed), signal: new AbortController().signal }))[0]!).retrieval!;
  assert.deepEqual(byIds.candidates.map((c) => c.labelSource), ['relevant_ids', 'relevant_ids', 'relevant_ids']);
  assert.throws(() => expandRagRow(row({ question: 'q', answer: 'a', relevant_spans: [{ file: 'x.md', start: 5, end: 5 }] }), params, context), (error: Error & { position?: { line?: number } }) => error.position?.line === 3 && /relevant_spans\[0\]: expected whole-number character offsets with start < end/.test(error.message));
});

test('without labels the answer labels the passages (the stress method\'s rule); the record then has no relevant list', async () => {
  const params = parseRagParams({ k: 1, candidates: 3 }, { file: 'e.yaml' });
  const data = { question: 'Capital of France?', answer: ['paris', 'Paree'] };
  const prepared = await prepareRagRow(row(data), params, { ...context, retriever: fixed(items), signal: new AbortController().signal });
  const record = ragCaseParams(expandRagRow(row(data), params, context, prepared)[0]!).retrieval!;
  assert.deepEqual(record.candidates.map((c) => [c.id, c.relevance, c.labelSource]), [['a', 1, 'answer-match'], ['b', 0, 'answer-match'], ['c', 1, 'answer-match']]);
  assert.equal(record.relevant, undefined);
});

test('a failed retrieval is carried on the case, not thrown as a row problem; counting asks nothing', async () => {
  const params = parseRagParams({}, { file: 'e.yaml' });
  const data = { question: 'q?', answer: 'a' };
  const failed = await prepareRagRow(row(data), params, { ...context, retriever: fixed(new RetrieverError('timeout', 'no answer within 30000 ms')), signal: new AbortController().signal });
  const [evalCase] = expandRagRow(row(data), params, context, failed);
  assert.deepEqual(evalCase!.retrievalError, { kind: 'timeout', message: 'no answer within 30000 ms' });
  assert.deepEqual(evalCase!.documents, []);
  assert.equal(await prepareRagRow(row(data), params, { ...context, signal: new AbortController().signal }), undefined);
  // Cancellation is rethrown, so --resume builds the row again.
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(prepareRagRow(row(data), params, { ...context, retriever: fixed(new RetrieverError('crashed', 'x')), signal: controller.signal }));
});

test('retriever: dataset reads the row\'s own passages with their ids from `passages`', async () => {
  const params = parseRagParams({ k: 1 }, { file: 'e.yaml' });
  const data = { question: 'q?', answer: 'two', retrieved_contexts: ['one', 'two'], passages: [{ id: 'p1', content: 'one' }, { id: 'p2', content: 'two', score: 0.5 }] };
  const rows: Retriever = { identity: 'dataset', kind: 'dataset', retrieve: () => Promise.reject(new Error('not called')) };
  const prepared = await prepareRagRow(row(data), params, { ...context, retriever: rows, signal: new AbortController().signal });
  const record = ragCaseParams(expandRagRow(row(data), params, context, prepared)[0]!).retrieval!;
  assert.deepEqual(record.candidates.map((c) => [c.rank, c.id, c.score, c.sent, c.relevance]), [[1, 'p1', undefined, true, 0], [2, 'p2', 0.5, false, 1]]);
});
