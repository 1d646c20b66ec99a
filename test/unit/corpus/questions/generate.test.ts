// Question generation against the fixture server through the real OpenAI SDK clients: a good question kept with its
// provenance (spans map to the exact source text), leaking ones rejected (answer in the question; answerable with no
// documents), a near-duplicate rejected, an unanswerable one verified by a search and the judge, multi-hop grades,
// conflicting rows with the counterfactual generator's rewrite, and the rows read by the rag and stress methods.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashEmbedding } from '../../../fixtures/llmServer.js';
import type { FixtureServer } from '../../../fixtures/llmServer.js';
import { useFixtureServer } from '../../../fixtures/useFixtureServer.js';
import { Bm25ChunkSearch } from '../../../../src/core/corpus/search.js';
import { generateQuestions } from '../../../../src/core/corpus/questions/generate.js';
import type { QuestionGenerationOptions } from '../../../../src/core/corpus/questions/generate.js';
import { jobKey } from '../../../../src/core/corpus/questions/model.js';
import type { QuestionJob, QuestionKind, QuestionRow, RejectedQuestion } from '../../../../src/core/corpus/questions/model.js';
import type { Chunk } from '../../../../src/core/corpus/contract.js';
import { OpenAIProvider } from '../../../../src/core/providers/openai.js';
import { OpenAIEmbeddingProvider } from '../../../../src/core/providers/embeddings.js';
import { createEmbeddingClient } from '../../../../src/core/run/embeddingClient.js';
import { createModelClient } from '../../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../../src/core/run/scheduler.js';
import { readRagRow } from '../../../../src/core/suites/rag/rows.js';
import { parseRagParams } from '../../../../src/core/suites/rag/params.js';
import { readStressRow } from '../../../../src/core/suites/stress/rows.js';
import { acceptingDefaults, askedQuestion, corpusChunks, DOCS, onPrompt, promptKind, verdict } from './fixtureCorpus.js';

const DUPLICATE = 'When was the Brightwater lighthouse built?';
const PARAPHRASE = 'In what year was the Brightwater lighthouse built?';
/** The paraphrase's vector: at cosine 0.96 from the first one's (0.96·v + 0.28·w, w ⟂ v), so "near" is tested, not "identical". */
function nudged(vector: number[]): number[] {
  const other = hashEmbedding('an unrelated text');
  const along = other.reduce((sum, x, i) => sum + x * vector[i]!, 0);
  const orthogonal = other.map((x, i) => x - along * vector[i]!);
  const norm = Math.hypot(...orthogonal);
  return vector.map((x, i) => 0.96 * x + 0.28 * (orthogonal[i]! / norm));
}

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
}, { embeddings: { [PARAPHRASE]: nudged(hashEmbedding(DUPLICATE)) } });

const chunks = corpusChunks();
const chunkOf = (file: string) => chunks.find((c) => c.file === file) as Chunk;
const job = (kind: QuestionKind, ...files: string[]): QuestionJob => {
  const source = files.map(chunkOf);
  return { key: jobKey(kind, source, 7), kind, chunks: source, seed: 7 };
};

function clients() {
  const provider = new OpenAIProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl });
  const model = (name: string) => createModelClient({ key: `openai-compatible:${name}`, provider, model: name, parameters: {}, scheduler: new Scheduler({ concurrency: 4, maxRetries: 0, timeoutMs: 5000 }) });
  const embeddings = createEmbeddingClient({ key: 'openai-compatible:fixture-embed', provider: new OpenAIEmbeddingProvider({ baseURL: server.openaiBaseUrl, apiKey: 'k' }), model: 'fixture-embed', scheduler: new Scheduler({ concurrency: 2, maxRetries: 0, timeoutMs: 5000 }) });
  return { generator: model('fixture-generator'), judge: model('fixture-judge'), embeddings };
}

async function generate(jobs: QuestionJob[], extra: Partial<QuestionGenerationOptions> = {}) {
  const kept: QuestionRow[] = [];
  const rejected: RejectedQuestion[] = [];
  const bm25 = new Bm25ChunkSearch(chunks);
  const summary = await generateQuestions({
    jobs,
    ...clients(),
    search: async (question, k) => bm25.search(question, k).map((hit) => ({ id: hit.id, text: hit.text })),
    signal: new AbortController().signal,
    duplicateThreshold: 0.92,
    concurrency: 2,
    done: new Set(),
    keptBefore: [],
    onKept: async (row) => void kept.push(row),
    onRejected: async (row) => void rejected.push(row),
    ...extra,
  });
  return { summary, kept, rejected };
}

const single = (question: string, answer: string, evidence: string) => JSON.stringify({ question, answer, evidence });
const chat = () => server.requests.filter((r) => r.api === 'openai-chat');

describe('generateQuestions', () => {
  it('keeps a good single-hop question with its chunk id graded 2 and a span that is the exact source sentence', async () => {
    const evidence = 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.';
    onPrompt(server, 'singleHop', () => single('Who was the engineer who built the Brightwater lighthouse?', 'Mara Quill', evidence));
    acceptingDefaults(server);
    const { kept, rejected } = await generate([job('single-hop', 'lighthouse.md')]);
    assert.deepEqual(rejected, []);
    const [row] = kept;
    assert.ok(row);
    const chunk = chunkOf('lighthouse.md');
    assert.deepEqual(row.relevant_ids, [chunk.id]);
    assert.deepEqual(row.relevance, { [chunk.id]: 2 });
    assert.equal(row.relevant_spans.length, 1);
    const span = row.relevant_spans[0]!;
    assert.equal(span.file, 'lighthouse.md');
    assert.equal(span.grade, 2);
    assert.equal(DOCS['lighthouse.md']!.slice(span.start, span.end), evidence);
    assert.equal(row.answer, 'Mara Quill');
    assert.equal(row.answerable, true);
    assert.match(row.checks.answerable, /fixture-judge found the answer/);
    assert.match(row.checks.closedBook ?? '', /without documents answered "I don't know\."/);
    assert.match(row.checks.duplicate, /first question of its kind/);
    // Every check was asked: generation, answerable judge, closed-book answer and its correctness judge.
    assert.deepEqual(chat().map(promptKind).sort(), ['answerable', 'closedBook', 'correctness', 'singleHop']);
    // The rows feed the rag and stress methods as they are.
    const data = JSON.parse(JSON.stringify(row)) as Record<string, unknown>;
    const ragRow = readRagRow({ ref: { file: 'q.jsonl', line: 1, index: 0 }, data }, parseRagParams({}, { file: 'q.eval.yaml' }));
    assert.deepEqual([...ragRow.labels!.qrels], [[chunk.id, 1]]);
    assert.equal(ragRow.question, row.question);
    const stressRow = readStressRow({ ref: { file: 'q.jsonl', line: 1, index: 0 }, data });
    assert.deepEqual(stressRow.contexts, [chunk.text]);
  });

  it('rejects a question that contains its answer without asking the judge, and one the model answers with no documents', async () => {
    onPrompt(server, 'singleHop', () => single('Was the Brightwater lighthouse built in 1887?', '1887', 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.'), (req) => req.text.includes('1887'));
    onPrompt(server, 'singleHop', () => single('How often does the harbour ferry leave the north pier?', 'every 40 minutes', 'The harbour ferry leaves the north pier every 40 minutes.'));
    onPrompt(server, 'closedBook', () => 'Every 40 minutes.');
    onPrompt(server, 'correctness', () => verdict('correct', 'states every 40 minutes'));
    onPrompt(server, 'answerable', () => verdict('answerable'));
    const { kept, rejected } = await generate([job('single-hop', 'lighthouse.md'), job('single-hop', 'ferry.md')]);
    assert.deepEqual(kept, []);
    const byCheck = Object.fromEntries(rejected.map((r) => [r.check, r]));
    assert.match(byCheck.leak?.reason ?? '', /the question contains its answer "1887"/);
    assert.equal(byCheck.leak?.retry, false);
    assert.match(byCheck['closed-book']?.reason ?? '', /answerable without the documents: openai-compatible:fixture-generator answered "Every 40 minutes\."/);
    // The leaking question never reached a judge; the ferry one was judged twice (answerable, closed-book correctness).
    const judged = chat().filter((r) => promptKind(r) === 'answerable' || promptKind(r) === 'correctness').map(askedQuestion);
    assert.ok(!judged.includes('Was the Brightwater lighthouse built in 1887?'));
    assert.equal(judged.length, 2);
  });

  it('rejects a near-duplicate of a kept question (embedding cosine over the threshold), naming it', async () => {
    onPrompt(server, 'singleHop', () => single(DUPLICATE, '1887', 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.'), (req) => req.text.includes('lighthouse was built'));
    onPrompt(server, 'singleHop', () => single(PARAPHRASE, '1887', 'Mara Quill also trained the first keeper, Tobias Wren, who lit the lamp for thirty years.'));
    acceptingDefaults(server);
    const { kept, rejected, summary } = await generate([job('single-hop', 'lighthouse.md'), job('single-hop', 'keeper.md')], { concurrency: 1 });
    assert.equal(kept.length, 1);
    assert.equal(kept[0]?.question, DUPLICATE);
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0]?.check, 'duplicate');
    assert.equal(rejected[0]?.question, PARAPHRASE);
    assert.match(rejected[0]?.reason ?? '', new RegExp(`near-duplicate of ${kept[0]!.id} \\(cosine 0\\.960\\)`));
    assert.deepEqual(summary.byCheck, { duplicate: 1 });
  });

  it('keeps an unanswerable question only when a search of the corpus finds no answer; one the corpus answers is rejected', async () => {
    const absent = 'Who designed the ferry terminal on the north pier?';
    const present = 'Who trained the first keeper of the lighthouse?';
    onPrompt(server, 'unanswerable', () => JSON.stringify({ question: absent, missing: 'the terminal architect' }), (req) => req.text.includes('harbour ferry'));
    onPrompt(server, 'unanswerable', () => JSON.stringify({ question: present, missing: 'who trained the keeper' }));
    onPrompt(server, 'answerable', () => verdict('answerable', 'Mara Quill trained Tobias Wren'), (req) => askedQuestion(req) === present);
    onPrompt(server, 'answerable', () => verdict('not-answerable', 'no passage names the architect'));
    const { kept, rejected } = await generate([job('unanswerable', 'ferry.md'), job('unanswerable', 'lighthouse.md')]);
    assert.equal(kept.length, 1);
    const row = kept[0]!;
    assert.equal(row.question, absent);
    assert.equal(row.answerable, false);
    assert.deepEqual(row.relevant_ids, []);
    assert.deepEqual(row.relevant_spans, []);
    assert.match(row.checks.answerable, /searched the corpus \(top \d: .*ferry\.md#/);
    assert.equal(row.checks.closedBook, undefined);
    assert.equal(rejected[0]?.check, 'corpus-answers');
    assert.match(rejected[0]?.reason ?? '', /the corpus answers it: .*keeper\.md#/);
    // The judge saw what the search returned: the ferry chunk for the absent question.
    const judged = chat().find((r) => promptKind(r) === 'answerable' && askedQuestion(r) === absent);
    assert.ok(judged?.text.includes('The harbour ferry leaves the north pier every 40 minutes.'));
    assert.equal(chat().filter((r) => promptKind(r) === 'closedBook').length, 0);
  });

  it('grades a multi-hop question 2 on the chunk stating the answer and 1 on the supporting one, with a span in each', async () => {
    const first = 'Mara Quill also trained the first keeper, Tobias Wren, who lit the lamp for thirty years.';
    const second = 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.';
    onPrompt(server, 'multiHop', () => JSON.stringify({ question: 'In which year was the lighthouse built by the engineer who trained Tobias Wren?', answer: '1887', answer_passage: 2, evidence_first: first, evidence_second: `"${second}"` }));
    // Answerable with both chunks shown, not with either alone.
    onPrompt(server, 'answerable', () => verdict('not-answerable', 'one hop is missing'), (req) => !(req.text.includes('lit the lamp for thirty years') && req.text.includes('built in 1887')));
    acceptingDefaults(server);
    const { kept, rejected } = await generate([job('multi-hop', 'keeper.md', 'lighthouse.md')]);
    assert.deepEqual(rejected, []);
    assert.match(kept[0]?.checks.needsBoth ?? '', /neither chunk alone answers it/);
    assert.equal(chat().filter((r) => promptKind(r) === 'answerable').length, 3, 'both chunks, then each alone');
    const row = kept[0]!;
    assert.deepEqual(row.relevance, { [chunkOf('keeper.md').id]: 1, [chunkOf('lighthouse.md').id]: 2 });
    assert.deepEqual(row.relevant_spans.map((s) => [s.file, DOCS[s.file]!.slice(s.start, s.end), s.grade]), [['keeper.md', first, 1], ['lighthouse.md', second, 2]]);
  });

  it('rejects a multi-hop question one of its chunks answers alone', async () => {
    onPrompt(server, 'multiHop', () => JSON.stringify({ question: 'Who built the Brightwater lighthouse?', answer: 'Mara Quill', answer_passage: 2, evidence_first: 'The keepers lived in a cottage beside the tower.', evidence_second: 'The Brightwater lighthouse was built in 1887 by the engineer Mara Quill.' }));
    acceptingDefaults(server);
    const { kept, rejected } = await generate([job('multi-hop', 'keeper.md', 'lighthouse.md')]);
    assert.deepEqual(kept, []);
    assert.equal(rejected[0]?.check, 'needs-both');
    assert.match(rejected[0]?.reason ?? '', /^not multi-hop: keeper\.md#\S+ alone answers it/);
  });

  it('rejects a generation whose evidence is not in its chunk, and writes a conflicting row with the counterfactual rewrite', async () => {
    onPrompt(server, 'singleHop', () => single('How far away can the lamp be seen?', '22 nautical miles', 'The lamp is visible from twenty-two miles.'), (req) => req.text.includes('lighthouse was built'));
    onPrompt(server, 'singleHop', () => single('How much does an adult ferry ticket cost?', '6 euros', 'An adult ticket costs 6 euros and children travel free.'));
    onPrompt(server, 'counterfactual', () => JSON.stringify({ answer: '9 euros', passages: ['The harbour ferry leaves the north pier every 40 minutes.\nAn adult ticket costs 9 euros and children travel free.'] }));
    acceptingDefaults(server);
    const { kept, rejected } = await generate([job('conflicting', 'lighthouse.md'), job('conflicting', 'ferry.md')]);
    assert.equal(rejected.length, 1);
    assert.equal(rejected[0]?.check, 'evidence');
    assert.match(rejected[0]?.reason ?? '', /evidence quote is not in lighthouse\.md#/);
    const row = kept[0]!;
    assert.equal(row.kind, 'conflicting');
    assert.equal(row.counterfactual?.answer, '9 euros');
    const stressRow = readStressRow({ ref: { file: 'q.jsonl', line: 1, index: 0 }, data: JSON.parse(JSON.stringify(row)) as Record<string, unknown> });
    assert.deepEqual(stressRow.counterfactual?.answer, ['9 euros']);
  });

  it('records a failed call as rejected with retry: true, never as a kept or silently dropped question', async () => {
    server.addRule({ match: (req) => promptKind(req) === 'singleHop', fault: { kind: 'status', status: 400, body: { error: { message: 'bad request' } } } });
    const { kept, rejected, summary } = await generate([job('single-hop', 'ferry.md')]);
    assert.deepEqual(kept, []);
    assert.equal(rejected[0]?.check, 'error');
    assert.equal(rejected[0]?.retry, true);
    assert.match(rejected[0]?.reason ?? '', /^model call failed/);
    assert.equal(summary.undecided, 1);
  });
});
