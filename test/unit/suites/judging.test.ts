// Structured judging: valid answers, the one repair retry, judge errors, fences, provider failures, cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeJson } from '../../../src/core/suites/judging.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { ClientResponse, ModelClient } from '../../../src/core/model.js';

const schema = { type: 'object', required: ['verdict'], properties: { verdict: { type: 'integer', enum: [0, 1] } }, additionalProperties: false };
const request = { name: 'verdict', messages: [{ role: 'user' as const, content: 'judge this' }], schema };

/** A judge that answers from a script, one reply per call; an Error in the script is thrown. */
function scriptedJudge(replies: (string | Error)[]): ModelClient & { calls: { messages: unknown[] }[] } {
  const calls: { messages: unknown[] }[] = [];
  return {
    key: 'fixture:judge',
    calls,
    async complete(req) {
      calls.push({ messages: req.messages });
      const reply = replies.shift();
      if (reply instanceof Error) throw reply;
      if (reply === undefined) throw new Error('no more scripted replies');
      return { text: reply, usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 1, cached: false, attempts: 1 } satisfies ClientResponse;
    },
  };
}

test('a valid answer is returned on the first attempt, with a fence tolerated', async () => {
  const judge = scriptedJudge(['```json\n{"verdict": 1}\n```']);
  const outcome = await judgeJson<{ verdict: number }>(judge, request, new AbortController().signal);
  assert.deepEqual(outcome, { ok: true, value: { verdict: 1 }, raw: '```json\n{"verdict": 1}\n```', attempts: 1 });
});

test('an invalid answer gets one repair attempt that says what was wrong', async () => {
  const judge = scriptedJudge(['{"verdict": "yes"}', '{"verdict": 0}']);
  const outcome = await judgeJson<{ verdict: number }>(judge, request, new AbortController().signal);
  assert.equal(outcome.ok, true);
  assert.equal(outcome.attempts, 2);
  const repair = judge.calls[1]!.messages as { role: string; content: string }[];
  assert.equal(repair.at(-2)?.content, '{"verdict": "yes"}');
  assert.match(repair.at(-1)?.content ?? '', /\/verdict must be integer/);
});

test('still invalid after the repair: a judge error, never a default verdict', async () => {
  const judge = scriptedJudge(['I think it is fine.', 'Verdict: 1']);
  const outcome = await judgeJson(judge, request, new AbortController().signal);
  assert.equal(outcome.ok, false);
  if (outcome.ok) return;
  assert.match(outcome.error, /not JSON/);
  assert.equal(outcome.raw, 'Verdict: 1');
});

test('a judge call that fails is a judge error; a cancelled one rethrows', async () => {
  const failing = scriptedJudge([new ProviderError('server', 'failed after 5 attempts: 503')]);
  const outcome = await judgeJson(failing, request, new AbortController().signal);
  assert.equal(outcome.ok, false);
  if (!outcome.ok) assert.match(outcome.error, /judge call failed: failed after 5 attempts/);

  const controller = new AbortController();
  controller.abort();
  const cancelled = scriptedJudge([new ProviderError('cancelled', 'cancelled')]);
  await assert.rejects(judgeJson(cancelled, request, controller.signal), /cancelled/);
});
