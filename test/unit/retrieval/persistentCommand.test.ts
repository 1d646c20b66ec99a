// The persistent command retriever against real scripts (test/fixtures/retrievers): answers matched by id out of
// order, restarts after a crash, hung scripts stopped, stdout noise failing one request without mis-assigning any,
// cancellation of one request, start failures, close, and back-pressure on stdin.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { createCommandRetriever } from '../../../src/core/retrieval/command.js';
import type { CommandRetrieverSpec, Retriever } from '../../../src/core/retrieval/contract.js';
import { never, rejectsWith } from './retrievalAsserts.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/retrievers');
const opened: Retriever[] = [];
after(async () => {
  await Promise.all(opened.map((retriever) => retriever.close?.()));
});

function retriever(script: string, overrides: Partial<CommandRetrieverSpec> = {}, env: NodeJS.ProcessEnv = process.env): Retriever {
  const spec: CommandRetrieverSpec = { type: 'command', command: [process.execPath, script, ...(overrides.command ?? [])], cwd: FIXTURES, mode: 'persistent', timeoutMs: 20_000, ...overrides };
  if (overrides.command) spec.command = [process.execPath, script, ...overrides.command];
  const created = createCommandRetriever(spec, { env });
  opened.push(created);
  return created;
}

const pidOf = (response: { items: { metadata?: Record<string, unknown> }[] }) => response.items[0]!.metadata!.pid as number;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('persistent command retriever', () => {
  it('matches answers to requests by id when they come out of order, in one process', async () => {
    const good = retriever('good.mjs');
    const [slow, fast, middle] = await Promise.all([
      good.retrieve({ question: 'slow', k: 2, params: { delayMs: 400 } }, never),
      good.retrieve({ question: 'fast', k: 1, params: { delayMs: 0 } }, never),
      good.retrieve({ question: 'middle', k: 3, params: { delayMs: 150 } }, never),
    ]);
    assert.deepEqual(slow.items.map((item) => item.id), ['slow-1', 'slow-2']);
    assert.deepEqual(fast.items.map((item) => item.id), ['fast-1']);
    assert.deepEqual(middle.items.map((item) => item.id), ['middle-1', 'middle-2', 'middle-3']);
    assert.deepEqual(slow.items[1], { id: 'slow-2', text: 'passage 2 about slow', score: 0.5, metadata: slow.items[1]!.metadata });
    assert.equal(new Set([slow, fast, middle].map(pidOf)).size, 1, 'one process serves every request');
    assert.deepEqual(slow.items[0]!.metadata!.params, { delayMs: 400 });
    assert.equal(slow.cached, false);
    assert.ok(slow.latencyMs > 0);
    assert.equal(good.identity, `command: ${process.execPath} good.mjs`);
  });

  it('matches 300 overlapping requests answered in a shuffled order, each to its own question', async () => {
    const good = retriever('good.mjs');
    const questions = Array.from({ length: 300 }, (_, n) => ({ question: `q${n}`, k: 1 + (n % 3), params: { delayMs: (n * 7919) % 40 } }));
    const answers = await Promise.all(questions.map((request) => good.retrieve(request, never)));
    answers.forEach((answer, n) => assert.deepEqual(answer.items.map((item) => item.id), Array.from({ length: 1 + (n % 3) }, (_, i) => `q${n}-${i + 1}`)));
  });

  it('sends the eval file\'s params under the request\'s own', async () => {
    const good = retriever('good.mjs', { params: { index: 'docs', delayMs: 0 } });
    const answer = await good.retrieve({ question: 'q', k: 1, params: { delayMs: 1 } }, never);
    assert.deepEqual(answer.items[0]!.metadata!.params, { index: 'docs', delayMs: 1 });
  });

  it('gives the script the base environment and the variables env: names, nothing else; identity holds no value', async () => {
    const env = { ...process.env, RETRIEVER_TOKEN: 'tok-4711', SECRET_OF_THE_RUN: 'do-not-pass' };
    const good = retriever('good.mjs', { env: ['RETRIEVER_TOKEN'] }, env);
    const answer = await good.retrieve({ question: 'q', k: 1 }, never);
    assert.deepEqual(answer.items[0]!.metadata!.env, { RETRIEVER_TOKEN: 'tok-4711', SECRET_OF_THE_RUN: null });
    assert.ok(!good.identity.includes('tok-4711'));
  });

  it('identity redacts a key written in the command line', () => {
    const identity = createCommandRetriever({ type: 'command', command: ['python3', 'r.py', '--api-key=abcdef123456789'], cwd: FIXTURES, mode: 'per-call', timeoutMs: 5000 }, { env: process.env }).identity;
    assert.equal(identity, 'command: python3 r.py --api-key=[redacted] (per-call)');
  });

  it('a variable env: names that is not set fails before the script starts, naming it', async () => {
    const env = { ...process.env };
    delete env.RETRIEVER_TOKEN;
    const good = retriever('good.mjs', { env: ['RETRIEVER_TOKEN'] }, env);
    await rejectsWith(good.retrieve({ question: 'q', k: 1 }, never), 'start', 'RETRIEVER_TOKEN', 'not set');
  });

  it('a crash fails the waiting request with the exit code and stderr; the next question restarts the script', async () => {
    const crashing = retriever('crashing.mjs', { command: ['2'] });
    const first = await crashing.retrieve({ question: 'a', k: 1 }, never);
    await crashing.retrieve({ question: 'b', k: 1 }, never);
    await rejectsWith(crashing.retrieve({ question: 'c', k: 1 }, never), 'crashed', 'exited with code 3', 'IndexError: the index file is corrupt', 'The next question starts it again');
    const restarted = await crashing.retrieve({ question: 'd', k: 1 }, never);
    assert.deepEqual(restarted.items.map((item) => item.id), ['doc-1']);
    assert.notEqual(pidOf(restarted), pidOf(first));
  });

  it('a crash is reported at once even when a program the script started keeps its stdout open', { timeout: 10_000 }, async () => {
    const crashing = retriever('crashing.mjs', { command: ['0', 'orphan'] });
    await rejectsWith(crashing.retrieve({ question: 'a', k: 1 }, never), 'crashed', 'exited with code 3', 'IndexError');
  });

  it('after 3 crashes in a row without an answer it is not started again, and says so', async () => {
    const crashing = retriever('crashing.mjs', { command: ['0'] });
    await rejectsWith(crashing.retrieve({ question: 'a', k: 1 }, never), 'crashed', 'The next question starts it again');
    await rejectsWith(crashing.retrieve({ question: 'b', k: 1 }, never), 'crashed', 'exited with code 3');
    await rejectsWith(crashing.retrieve({ question: 'c', k: 1 }, never), 'crashed', 'crashed 3 times in a row', 'not started again');
    await rejectsWith(crashing.retrieve({ question: 'd', k: 1 }, never), 'crashed', 'crashed 3 times in a row', 'not started again', 'IndexError');
  });

  it('a request with no answer times out; a script that printed nothing since is stopped and restarted on the next question', async () => {
    const hanging = retriever('hanging.mjs', { timeoutMs: 400 });
    const before = await hanging.retrieve({ question: 'ok', k: 1 }, never);
    await rejectsWith(hanging.retrieve({ question: 'hang', k: 1 }, never), 'timeout', 'within 400 ms', 'hung', 'flush=True', 'raise timeoutMs');
    const after = await hanging.retrieve({ question: 'ok', k: 1 }, never);
    assert.notEqual(pidOf(after), pidOf(before), 'the hung process was replaced');
    assert.equal(alive(pidOf(before)), false, 'the hung process was stopped');
  });

  it('a timeout while the script goes on answering others fails that request only; the process is kept', async () => {
    const hanging = retriever('hanging.mjs', { timeoutMs: 2000 });
    // Started first, so the answer below comes well within the time limit even on a busy machine.
    await hanging.retrieve({ question: 'ok', k: 1 }, never);
    const hung = hanging.retrieve({ question: 'hang', k: 1 }, never);
    const answered = await hanging.retrieve({ question: 'ok', k: 1 }, never);
    await rejectsWith(hung, 'timeout', 'within 2000 ms', 'keeps running');
    const later = await hanging.retrieve({ question: 'ok', k: 1 }, never);
    assert.equal(pidOf(later), pidOf(answered));
  });

  it('a stdout line that is not an answer fails the oldest waiting request, quoting it; no answer is mis-assigned', async () => {
    const garbage = retriever('garbage.mjs');
    await rejectsWith(garbage.retrieve({ question: 'first', k: 1 }, never), 'not-json', 'Loading index from ./data', 'stderr');
    const fine = await garbage.retrieve({ question: 'fine', k: 1 }, never);
    assert.equal(fine.items[0]!.text, 'about fine', 'the late answer to "first" was dropped, not given to "fine"');
    await rejectsWith(garbage.retrieve({ question: 'noise', k: 1 }, never), 'not-json', 'DEBUG: scoring 1234 documents');
    assert.equal((await garbage.retrieve({ question: 'after', k: 1 }, never)).items[0]!.text, 'about after');
    await rejectsWith(garbage.retrieve({ question: 'unknown', k: 1 }, never), 'bad-shape', '"abc"', 'no request has');
    assert.equal((await garbage.retrieve({ question: 'last', k: 1 }, never)).items[0]!.text, 'about last');
  });

  it('checks every answer: duplicate ids, empty text, wrong shape, the script\'s own error; number ids are taken', async () => {
    const malformed = retriever('malformed.mjs');
    await rejectsWith(malformed.retrieve({ question: 'duplicate', k: 2 }, never), 'duplicate-id', 'item 2', '"doc-7"', 'request');
    await rejectsWith(malformed.retrieve({ question: 'empty', k: 2 }, never), 'empty-text', 'item 2', '"doc-2"');
    await rejectsWith(malformed.retrieve({ question: 'object', k: 2 }, never), 'bad-shape', 'must be a list');
    await rejectsWith(malformed.retrieve({ question: 'score', k: 2 }, never), 'bad-shape', '"score"', '"high"');
    await rejectsWith(malformed.retrieve({ question: 'notext', k: 2 }, never), 'bad-shape', 'no "text" field');
    await rejectsWith(malformed.retrieve({ question: 'error', k: 2 }, never), 'reported', 'index not loaded: run make index');
    const numbers = await malformed.retrieve({ question: 'numbers', k: 2 }, never);
    assert.deepEqual(numbers.items.map((item) => item.id), ['17', '4']);
    assert.deepEqual((await malformed.retrieve({ question: 'crlf', k: 2 }, never)).items.map((item) => item.id), ['17', '4']);
  });

  it('cancelling one request stops waiting for it only: the others are answered by the same process', async () => {
    const good = retriever('good.mjs');
    const controller = new AbortController();
    const cancelled = good.retrieve({ question: 'slow', k: 1, params: { delayMs: 3000 } }, controller.signal);
    const others = [good.retrieve({ question: 'b', k: 1, params: { delayMs: 200 } }, never), good.retrieve({ question: 'c', k: 1, params: { delayMs: 200 } }, never)] as const;
    controller.abort();
    await assert.rejects(cancelled, (error: unknown) => error instanceof Error && error.name === 'AbortError');
    const [b, c] = await Promise.all(others);
    assert.equal(b.items[0]!.id, 'b-1');
    assert.equal(c.items[0]!.id, 'c-1');
    assert.equal(pidOf(b), pidOf(c));
    await assert.rejects(good.retrieve({ question: 'x', k: 1 }, AbortSignal.abort()), { name: 'AbortError' });
  });

  it('a program that cannot start is a start error naming it and the folder', async () => {
    const missing = createCommandRetriever({ type: 'command', command: ['no-such-retriever-program'], cwd: FIXTURES, mode: 'persistent', timeoutMs: 5000 }, { env: process.env });
    await rejectsWith(missing.retrieve({ question: 'q', k: 1 }, never), 'start', '"no-such-retriever-program"', FIXTURES, 'not found');
    const folder = path.join(FIXTURES, 'no-such-folder');
    const noFolder = createCommandRetriever({ type: 'command', command: [process.execPath, 'good.mjs'], cwd: folder, mode: 'persistent', timeoutMs: 5000 }, { env: process.env });
    await rejectsWith(noFolder.retrieve({ question: 'q', k: 1 }, never), 'start', `the folder ${folder} does not exist`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'retriever-'));
    const script = path.join(dir, 'retrieve.py');
    fs.writeFileSync(script, 'print("never runs")\n', { mode: 0o644 });
    const notExecutable = createCommandRetriever({ type: 'command', command: [script], cwd: dir, mode: 'persistent', timeoutMs: 5000 }, { env: process.env });
    await rejectsWith(notExecutable.retrieve({ question: 'q', k: 1 }, never), 'start', 'not executable', '[python3, retrieve.py]');
    fs.rmSync(dir, { recursive: true });
  });

  it('close ends the process, may be called twice, and later questions are refused', async () => {
    const good = createCommandRetriever({ type: 'command', command: [process.execPath, 'good.mjs'], cwd: FIXTURES, mode: 'persistent', timeoutMs: 5000 }, { env: process.env });
    const pid = pidOf(await good.retrieve({ question: 'q', k: 1 }, never));
    await good.close!();
    await good.close!();
    assert.equal(alive(pid), false);
    await rejectsWith(good.retrieve({ question: 'q', k: 1 }, never), 'crashed', 'closed');
    await createCommandRetriever({ type: 'command', command: ['never-started'], cwd: FIXTURES, mode: 'persistent', timeoutMs: 5000 }, { env: process.env }).close!();
  });

  it('close stops a script that keeps running after its stdin ends', async () => {
    const stubborn = createCommandRetriever({ type: 'command', command: [process.execPath, 'stubborn.mjs'], cwd: FIXTURES, mode: 'persistent', timeoutMs: 5000 }, { env: process.env });
    const pid = pidOf(await stubborn.retrieve({ question: 'q', k: 1 }, never));
    await stubborn.close!();
    assert.equal(alive(pid), false);
  });

  it('keeps every request when stdin\'s buffer fills (large questions, many at once on one signal)', async () => {
    const good = retriever('good.mjs');
    const question = (n: number) => `${n}:${'w'.repeat(512 * 1024)}`;
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, n) => good.retrieve({ question: question(n), k: 1 }, never)));
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    assert.deepEqual(answers.map((answer) => answer.items[0]!.id.split(':')[0]), Array.from({ length: 12 }, (_, n) => String(n)));
    assert.deepEqual(warnings.map((warning) => warning.message), [], 'one abort listener on the shared signal, not one per request');
  });
});
