// The per-call command retriever against a real script: one process per question, the whole stdout the answer,
// a non-zero exit a crash with stderr, a hang killed at the timeout, cancel, and non-JSON output.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { createCommandRetriever } from '../../../src/core/retrieval/command.js';
import type { Retriever } from '../../../src/core/retrieval/contract.js';
import { never, rejectsWith } from './retrievalAsserts.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/retrievers');

function perCall(timeoutMs = 20_000, command: string[] = [process.execPath, 'perCall.mjs']): Retriever {
  return createCommandRetriever({ type: 'command', command, cwd: FIXTURES, mode: 'per-call', timeoutMs, params: { index: 'docs' } }, { env: process.env });
}

describe('per-call command retriever', () => {
  it('reads { items } or a bare list from the whole stdout, the request and params on stdin', async () => {
    const retriever = perCall();
    assert.equal(retriever.identity, `command: ${process.execPath} perCall.mjs (per-call)`);
    const wrapped = await retriever.retrieve({ question: 'capital', k: 3 }, never);
    assert.deepEqual(wrapped.items, [{ id: 'doc-1', text: 'about capital', metadata: { params: { index: 'docs' } } }]);
    const bare = await retriever.retrieve({ question: 'list', k: 3 }, never);
    assert.equal(bare.items[0]!.text, 'about list');
    assert.equal(bare.cached, false);
    assert.equal((await retriever.retrieve({ question: 'bom', k: 3 }, never)).items[0]!.text, 'about bom');
  });

  it('a non-zero exit is a crash naming the code and quoting stderr', async () => {
    await rejectsWith(perCall().retrieve({ question: 'fail', k: 1 }, never), 'crashed', 'exited with code 2', 'cannot open index.db');
  });

  it('a script still running at the timeout is killed and the request times out', async () => {
    await rejectsWith(perCall(500).retrieve({ question: 'hang', k: 1 }, never), 'timeout', 'within 500 ms', 'stopped');
  });

  it('the timeout answers at once, even when a program the script started keeps its stdout open', { timeout: 10_000 }, async () => {
    await rejectsWith(perCall(500).retrieve({ question: 'orphan', k: 1 }, never), 'timeout', 'within 500 ms');
  });

  it('output that is not JSON is not-json, quoting it', async () => {
    await rejectsWith(perCall().retrieve({ question: 'garbage', k: 1 }, never), 'not-json', 'here are your results: doc-1, doc-2');
  });

  it('cancel kills the process and rejects with the signal\'s reason', async () => {
    const controller = new AbortController();
    const waiting = perCall().retrieve({ question: 'hang', k: 1 }, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(waiting, { name: 'AbortError' });
  });

  it('a program that cannot start is a start error', async () => {
    await rejectsWith(perCall(5000, ['no-such-retriever-program']).retrieve({ question: 'q', k: 1 }, never), 'start', '"no-such-retriever-program"', 'not found');
  });
});
