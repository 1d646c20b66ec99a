// A request is written on a later tick than it is made (http.request assigns the socket with process.nextTick), and
// Node runs ticks only once the promise jobs before them are done (engine/executeCase.ts): cases started together make
// their calls a turn of the event loop apart, each request written before the next is made, and a case is scored (and
// then logged) only after the loop went round once its answer came, so the next call given its slot is written first.
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

test('cases started together make their calls a turn apart: each request is written before the next is made', async () => {
  const order: string[] = [];
  const client: ModelClient = {
    key: 'test:model',
    async complete(request) {
      const question = String(request.messages[0]!.content);
      order.push(`made ${question}`);
      process.nextTick(() => order.push(`written ${question}`));
      return { text: 'an answer', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, cached: false, attempts: 1 };
    },
  };
  const suite = { score: async () => [] } as unknown as Suite<unknown>;
  const run = (question: string) => executeCase({
    evalCase: { id: question, suiteId: 'suite', messages: [{ role: 'user', content: question }] } as unknown as EvalCase,
    suite, params: {}, modelKey: 'test:model', client, templateParameters: {}, signal: new AbortController().signal,
  });

  await Promise.all([run('first'), run('second'), run('third')]);

  assert.deepEqual(order, ['made first', 'written first', 'made second', 'written second', 'made third', 'written third']);
});
