// `rag-inspector generate-questions` over an eval file's index: folder and the fixture server: the cost plan alone
// with --plan; cancelled mid-way, then run again: every question generated once (counted at the server), none twice.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import type { FixtureServer } from '../../../fixtures/llmServer.js';
import { useFixtureServer } from '../../../fixtures/useFixtureServer.js';
import { runGenerateQuestions } from '../../../../src/cli/generateQuestions.js';
import { questionSetupProblem } from '../../../../src/core/engine/questionRun.js';
import { loadEvalSpec } from '../../../../src/core/spec/load.js';
import { acceptingDefaults, DOCS, onPrompt, promptKind, scriptSingleHop, SINGLE_HOP_QUESTIONS, verdict } from './fixtureCorpus.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const workspaces: string[] = [];
after(() => {
  for (const ws of workspaces) rmSync(ws, { recursive: true, force: true });
});

/** The eval file: index: the docs folder, a generator, a judge and an embedding model, all on the fixture server. */
function workspace(): string {
  const ws = mkdtempSync(path.join(tmpdir(), 'questions-cli-'));
  workspaces.push(ws);
  mkdirSync(path.join(ws, 'docs'));
  for (const [file, text] of Object.entries(DOCS)) writeFileSync(path.join(ws, 'docs', file), text);
  writeFileSync(path.join(ws, 'seed.jsonl'), '{"question": "q", "answer": "a"}\n');
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
  writeFileSync(path.join(ws, 'q.eval.yaml'), [
    'version: 1',
    'name: questions',
    `models:\n  - ${model('fixture-generator')}`,
    `judge: ${model('fixture-judge')}`,
    `embeddings: ${model('fixture-embed')}`,
    'maxRetries: 0',
    'index:\n  folder: docs',
    'suites:\n  - { id: rag, method: rag, dataset: seed.jsonl }',
    '',
  ].join('\n'));
  return ws;
}

function io(signal?: AbortSignal) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  return { io: { stdout: stdout as unknown as NodeJS.WriteStream, stderr: stderr as unknown as NodeJS.WriteStream, env: {}, ...(signal ? { signal } : {}) }, out: () => out, err: () => err };
}

const lines = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);

describe('rag-inspector generate-questions', () => {
  it('--plan prints the cost plan and makes no model call', async () => {
    const ws = workspace();
    const run = io();
    const code = await runGenerateQuestions([path.join(ws, 'q.eval.yaml'), '--out', path.join(ws, 'questions.jsonl'), '--count', '4', '--kinds', 'single-hop,unanswerable', '--plan', '--quiet'], run.io);
    assert.equal(code, 0);
    assert.match(run.err(), /Questions to generate: 4 \(2 single-hop, 2 unanswerable\)/);
    assert.match(run.err(), /Calls, at most: 6 to openai-compatible:fixture-generator, 6 to the judge openai-compatible:fixture-judge, 4 embedding\(s\)/);
    assert.equal(server.requests.filter((r) => r.api === 'openai-chat').length, 0);
  });

  it('without a model to write the questions: core says what to add to the eval file, in words with no CLI flag', async () => {
    const ws = workspace();
    const file = path.join(ws, 'q.eval.yaml');
    // A loaded file always has a model; a host that hands over a spec with none (and no model of its own) is told this.
    const problem = questionSetupProblem({ ...await loadEvalSpec(file), models: [] }, undefined);
    assert.equal(problem?.missing, 'model');
    assert.match(problem.message, /^no model writes the questions: add a model to .*q\.eval\.yaml's models$/);
    assert.doesNotMatch(problem.message, /--/, 'no flag in words VS Code shows too');
    assert.equal(questionSetupProblem({ ...await loadEvalSpec(file), models: [] }, { provider: 'openai-compatible', model: 'm', parameters: {} }), undefined);
  });

  it('cancelled after the first question, then run again: the rest are made, none generated twice', async () => {
    const ws = workspace();
    const out = path.join(ws, 'questions.jsonl');
    const args = [path.join(ws, 'q.eval.yaml'), '--out', out, '--count', '3', '--kinds', 'single-hop', '--concurrency', '1', '--quiet'];
    const controller = new AbortController();
    let judged = 0;
    // Cancel while the second question's last judge call is in flight.
    server.addRule({
      match: (req) => promptKind(req) === 'correctness' && ++judged === 2,
      reply: () => {
        controller.abort();
        return JSON.stringify({ reason: 'scripted', verdict: 'incorrect' });
      },
    });
    scriptSingleHop(server);
    acceptingDefaults(server);
    const first = io(controller.signal);
    assert.equal(await runGenerateQuestions(args, first.io), 130);
    assert.match(first.err(), /cancelled: the finished questions are in/);
    assert.equal(lines(out).length, 1, 'the first question kept; the one in flight not written');

    const second = io();
    assert.equal(await runGenerateQuestions(args, second.io), 0, second.err());
    assert.match(second.out(), /Kept 2 question\(s\), rejected 0; 1 done by an earlier run/);
    assert.ok(second.out().includes(`go to ${path.join(ws, 'questions.review.jsonl')}, and rag and stress runs of this file leave the dropped ones out`), second.out());
    const rows = lines(out);
    assert.deepEqual(rows.map((r) => r.question).sort(), Object.values(SINGLE_HOP_QUESTIONS).map(([q]) => q).sort());
    assert.equal(new Set(rows.map((r) => r.id)).size, 3);
    // Each question was generated once at the server: the cancelled one's generation came back from the response cache.
    const generations = server.requests.filter((r) => promptKind(r) === 'singleHop');
    assert.equal(generations.length, 3);

    // A third run has nothing left to do and asks nothing.
    const before = server.requests.length;
    const third = io();
    assert.equal(await runGenerateQuestions(args, third.io), 0);
    assert.match(third.out(), /Kept 0 question\(s\), rejected 0; 3 done by an earlier run/);
    assert.equal(server.requests.filter((r) => r.api === 'openai-chat').length, server.requests.slice(0, before).filter((r) => r.api === 'openai-chat').length);
  });

  it('a real process stopped by Ctrl-C (SIGINT) keeps the finished question and exits 130; run again, it finishes the rest', async () => {
    const ws = workspace();
    const out = path.join(ws, 'questions.jsonl');
    const args = [path.resolve('src/cli/main.ts'), 'generate-questions', path.join(ws, 'q.eval.yaml'), '--out', out, '--count', '3', '--kinds', 'single-hop', '--concurrency', '1', '--quiet'];
    const start = () => {
      const child = spawn(process.execPath, ['--import', 'tsx', ...args], { env: { ...process.env, CI: 'true' } });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
      return { child, done };
    };
    let judged = 0;
    const first = start();
    server.addRule({
      match: (req) => promptKind(req) === 'correctness' && ++judged === 2,
      reply: () => {
        first.child.kill('SIGINT');
        return JSON.stringify({ reason: 'scripted', verdict: 'incorrect' });
      },
    });
    scriptSingleHop(server);
    acceptingDefaults(server);
    const stopped = await first.done;
    assert.equal(stopped.code, 130, stopped.stderr);
    // The signal and the judge's reply race to the process: the question in flight may or may not have been written.
    const kept = lines(out).length;
    assert.ok(kept === 1 || kept === 2, `the finished question kept (${kept} written)`);
    const again = await start().done;
    assert.equal(again.code, 0, again.stderr);
    assert.equal(lines(out).length, 3);
    assert.equal(server.requests.filter((r) => promptKind(r) === 'singleHop').length, 3);
  });

  it('verifies an unanswerable question by searching the eval file\'s index: the judge sees what the index returns', async () => {
    const ws = workspace();
    const out = path.join(ws, 'questions.jsonl');
    const absent = 'Who designed the ferry terminal on the north pier?';
    onPrompt(server, 'unanswerable', () => JSON.stringify({ question: absent, missing: 'the architect' }));
    onPrompt(server, 'answerable', () => verdict('not-answerable', 'no passage names the architect'));
    const run = io();
    assert.equal(await runGenerateQuestions([path.join(ws, 'q.eval.yaml'), '--out', out, '--count', '1', '--kinds', 'unanswerable', '--quiet'], run.io), 0, run.err());
    const [row] = lines(out);
    assert.equal(row?.question, absent);
    assert.deepEqual(row?.relevant_ids, []);
    const judged = server.requests.find((r) => promptKind(r) === 'answerable');
    assert.ok(judged?.text.includes(DOCS['ferry.md']!.split('\n')[2]!), 'the ferry chunk, found by the index, was judged');
    assert.match(String((row?.checks as Record<string, unknown>).answerable), /searched the corpus \(top \d: .*ferry\.md#/);
  });
});
