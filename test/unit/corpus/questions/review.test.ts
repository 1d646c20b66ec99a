// The review of generated questions: its file beside the questions (append-only, newest line wins, a torn line
// skipped, stale once the question's text is edited), and a real CLI run of the rag method on a questions file with a
// review: the dropped questions are left out and the output says how many and why.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import type { FixtureServer } from '../../../fixtures/llmServer.js';
import { useFixtureServer } from '../../../fixtures/useFixtureServer.js';
import { QuestionReviewStore, reviewFileFor, reviewLines } from '../../../../src/core/corpus/questions/review.js';
import { readQuestionReview } from '../../../../src/core/corpus/questions/reviewData.js';
import { reviewCounts } from '../../../../src/core/corpus/questions/reviewView.js';
import { runEvaluation } from '../../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../../src/core/providers/registry.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const folders: string[] = [];
after(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function tempFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'question-review-'));
  folders.push(folder);
  return folder;
}

describe('question review file', () => {
  it('sits beside the questions file; the newest line wins, a comment keeps the decision, a torn line is skipped', async () => {
    const questions = path.join(tempFolder(), 'questions.jsonl');
    assert.equal(reviewFileFor(questions), path.join(path.dirname(questions), 'questions.review.jsonl'));
    const store = new QuestionReviewStore(questions);
    const q = { id: 'q1', question: 'How long are films lent for?' };
    await store.append(reviewLines([q], { decision: 'drop' }));
    await store.append(reviewLines([q], { decision: 'keep' }));
    await store.append(reviewLines([q], { decision: null, comment: 'reads well' }));
    appendFileSync(store.file, '{"type":"question-review","id":"q1","question":"ab');
    const review = (await store.latest()).lookup('q1', q.question);
    assert.deepEqual({ decision: review?.decision, comment: review?.comment, stale: review?.stale }, { decision: 'keep', comment: 'reads well', stale: false });
    // The next line after a torn one is read (the torn line is ended first); a later decision alone keeps the comment.
    await new QuestionReviewStore(questions).append(reviewLines([q], { decision: 'drop' }));
    const after = (await store.latest()).lookup('q1', q.question);
    assert.deepEqual({ decision: after?.decision, comment: after?.comment }, { decision: 'drop', comment: 'reads well' });
  });

  it('an edited question shows its review as stale; a question never reviewed has none', async () => {
    const questions = path.join(tempFolder(), 'questions.jsonl');
    const store = new QuestionReviewStore(questions);
    await store.append(reviewLines([{ id: 'q1', question: 'How long are films lent for?' }], { decision: 'drop' }));
    const index = await store.latest();
    assert.equal(index.lookup('q1', 'How long are films lent for?')?.stale, false);
    assert.equal(index.lookup('q1', 'For how long are films lent?')?.stale, true);
    assert.equal(index.lookup('q2', 'anything'), undefined);
  });

  it('a review file that is a named pipe refuses the keep/drop, naming it, instead of blocking on the write', async () => {
    const questions = path.join(tempFolder(), 'questions.jsonl');
    const store = new QuestionReviewStore(questions);
    execFileSync('mkfifo', [store.file]);
    await assert.rejects(store.append(reviewLines([{ id: 'q1', question: 'How long are films lent for?' }], { decision: 'keep' })),
      (error: Error) => error.message === `${store.file} is a named pipe, not a file`);
  });

  it('the review view reads every good line, names a bad one at file:line, lists the rejected ones and counts the states', async (t) => {
    const folder = tempFolder();
    const questions = path.join(folder, 'questions.jsonl');
    writeFileSync(path.join(folder, 'doc.md'), 'line one\nline two\nthe answer is here\nline four\n');
    writeFileSync(questions, [
      JSON.stringify({ id: 'a', kind: 'single-hop', question: 'A?', reference: 'a', relevant_spans: [{ file: 'doc.md', start: 18, end: 36 }], checks: { answerable: 'yes', duplicate: 'none close' } }),
      '{"id": "broken", ',
      JSON.stringify({ id: 'b', kind: 'unanswerable', question: 'B?', reference: 'not in the documents', relevant_spans: [{ file: 'missing.md', start: 0, end: 4 }], checks: { answerable: 'no' } }),
      JSON.stringify({ id: 'c', kind: 'multi-hop', question: 'C?', reference: 'c', checks: {}, relevant_spans: [{ file: `../${path.basename(folder)}-outside.md`, start: 0, end: 4 }] }),
    ].join('\n') + '\n');
    writeFileSync(path.join(folder, 'questions.rejected.jsonl'), `${JSON.stringify({ status: 'rejected', key: 'k', kind: 'single-hop', chunk_ids: [], seed: 1, reason: 'the question gives its answer away', check: 'leak', retry: false, question: 'Is it 12 euros?' })}\n`);
    await new QuestionReviewStore(questions).append([...reviewLines([{ id: 'a', question: 'A?' }], { decision: 'keep' }), ...reviewLines([{ id: 'b', question: 'B (old)?' }], { decision: 'drop' })]);
    const view = await readQuestionReview(questions);
    assert.deepEqual(view.questions.map((q) => q.id), ['a', 'b', 'c']);
    assert.deepEqual(view.problems.map((p) => [path.basename(p.file), p.line]), [['questions.jsonl', 2]]);
    assert.deepEqual(view.questions[0]!.sources, [{ label: 'doc.md:3', open: { file: path.join(folder, 'doc.md'), line: 3 } }]);
    assert.match(view.questions[1]!.sources[0]!.label, /missing\.md .*not found/);
    // A span naming a file outside the folder is not read, even when that file exists.
    const outside = path.join(folder, '..', `${path.basename(folder)}-outside.md`);
    writeFileSync(outside, 'outside\n');
    t.after(() => rmSync(outside, { force: true }));
    assert.equal((await readQuestionReview(questions)).questions[2]!.sources[0]!.open, undefined);
    assert.deepEqual(view.questions[0]!.checks, [{ name: 'answerable', outcome: 'yes' }, { name: 'duplicate', outcome: 'none close' }]);
    assert.deepEqual(view.rejected.map((r) => [r.check, r.reason, r.question]), [['leak', 'the question gives its answer away', 'Is it 12 euros?']]);
    assert.deepEqual(reviewCounts(view.questions), { kept: 1, dropped: 0, unreviewed: 1, stale: 1 });
  });
});

describe('a rag run on reviewed questions', () => {
  it('leaves out the questions dropped in review, runs the unreviewed and the stale ones, and says so in the output', async () => {
    const folder = tempFolder();
    cpSync(path.resolve('examples/corpus/docs'), path.join(folder, 'docs'), { recursive: true });
    const all = readFileSync(path.resolve('examples/corpus/questions.jsonl'), 'utf8').split('\n').filter(Boolean).slice(0, 5);
    const questions = path.join(folder, 'questions.jsonl');
    writeFileSync(questions, `${all.join('\n')}\n`);
    const rows = all.map((line) => JSON.parse(line) as { id: string; question: string });
    // q01 and q02 dropped, q03 kept, q04 dropped before its question was edited (stale: it runs), q05 unreviewed.
    await new QuestionReviewStore(questions).append([
      ...reviewLines([rows[0]!, rows[1]!], { decision: 'drop', comment: 'too easy' }),
      ...reviewLines([rows[2]!], { decision: 'keep' }),
      ...reviewLines([{ id: rows[3]!.id, question: 'an earlier wording' }], { decision: 'drop' }),
    ]);
    writeFileSync(path.join(folder, 'review.eval.yaml'), [
      'version: 1',
      'name: reviewed questions',
      `models:\n  - { provider: openai-compatible, model: fixture-reader, baseUrl: ${server.openaiBaseUrl} }`,
      'maxRetries: 0',
      'index:\n  folder: docs\n  chunking: { by: heading, size: 96, overlap: 16 }\n  search: bm25',
      'suites:\n  - { id: reviewed, method: rag, dataset: questions.jsonl, params: { k: 2, candidates: 3 } }',
      '',
    ].join('\n'));
    const { stdout } = await promisify(execFile)(process.execPath, [path.resolve('dist/cli.js'), 'run', path.join(folder, 'review.eval.yaml'), '--no-cache'], { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout: string; stderr: string }) => error);
    assert.match(stdout, /Cases: 3 \(/, stdout);
    assert.match(stdout, /note: 2 question\(s\) dropped in review \(\S*questions\.review\.jsonl\) left out of this run; 1 drop\(s\) not applied because the question was edited since it was reviewed/);
    const questionsAsked = rows.map((r) => r.question);
    const asked = server.requests.filter((r) => r.api === 'openai-chat').map((r) => JSON.stringify(r.body)).filter((body) => questionsAsked.some((q) => body.includes(q)));
    assert.equal(asked.length, 3);
    for (const dropped of [rows[0]!.question, rows[1]!.question]) assert.ok(!asked.some((body) => body.includes(dropped)), `${dropped} was not sent`);
    for (const ran of [rows[2]!.question, rows[3]!.question, rows[4]!.question]) assert.ok(asked.some((body) => body.includes(ran)), `${ran} was sent`);
  });
});

describe('a stress run on reviewed questions', () => {
  it('builds no case from a dropped question and says so in the suite\'s notes', async () => {
    const folder = tempFolder();
    const questions = path.join(folder, 'questions.jsonl');
    const capitals = [['France', 'Paris'], ['Japan', 'Tokyo'], ['Kenya', 'Nairobi']] as const;
    const rows = capitals.map(([country, city]) => ({ id: country.toLowerCase(), kind: 'single-hop', question: `What is the capital of ${country}?`, reference: city, retrieved_contexts: [`${city} is the capital of ${country}.`, `${country} has many cities.`] }));
    writeFileSync(questions, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    await new QuestionReviewStore(questions).append(reviewLines([rows[1]!], { decision: 'drop' }));
    const evalFile = path.join(folder, 'stress.eval.yaml');
    writeFileSync(evalFile, `version: 1\nname: stress\nmodels:\n  - { provider: openai-compatible, model: reader, baseUrl: ${server.openaiBaseUrl} }\nsuites:\n  - { id: s, method: stress, dataset: questions.jsonl, params: { testbed: noise_robustness } }\n`);
    const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
    const asked = server.requests.filter((r) => r.api === 'openai-chat').map((r) => JSON.stringify(r.body));
    assert.ok(asked.some((body) => body.includes('capital of France')));
    assert.ok(asked.some((body) => body.includes('capital of Kenya')));
    assert.ok(!asked.some((body) => body.includes('capital of Japan')), 'the dropped question was not asked');
    assert.ok(outcome.reports[0]!.notes.some((note) => /^1 question\(s\) dropped in review \(\S*questions\.review\.jsonl\) left out of this run\.$/.test(note)), outcome.reports[0]!.notes.join('\n'));
  });
});
