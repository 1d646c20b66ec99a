// A case is scored (and then logged) only after the event loop went round once its answer came: the next call, which
// the scheduler gave the answer's slot, writes its request on a later tick (http.request assigns a kept-alive socket
// with process.nextTick), and that write must not wait for this case's own work (engine/executeCase.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { executeCase } from '../../../src/core/engine/executeCase.js';
import type { EvalCase, ModelClient } from '../../../src/core/model.js';
import type { Suite } from '../../../src/core/suites/contract.js';

test('a case is scored after the ticks its answer queued, such as the next request being written', async () => {
  let nextRequestWritten = false;
  let writtenWhenScored: boolean | undefined;
  const client: ModelClient = {
    key: 'test:model',
    async complete() {
      // What the next call does when it is given this slot: its request reaches the socket on a later tick.
      process.nextTick(() => { nextRequestWritten = true; });
      return { text: 'an answer', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, cached: false, attempts: 1 };
    },
  };
  const suite = {
    async score() {
      writtenWhenScored = nextRequestWritten;
      return [{ metric: 'accuracy', value: 1, pass: true }];
    },
  } as unknown as Suite<unknown>;
  const evalCase = { id: 'case-1', suiteId: 'suite', messages: [{ role: 'user', content: 'a question' }] } as unknown as EvalCase;

  const result = await executeCase({ evalCase, suite, params: {}, modelKey: 'test:model', client, templateParameters: {}, signal: new AbortController().signal });

  assert.equal(result.status, 'success');
  assert.equal(writtenWhenScored, true, 'the tick queued with the answer ran before the case was scored');
});
