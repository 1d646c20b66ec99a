// The judge step and structured judging: text and JSON answers, the one repair retry, judge errors, fences, provider
// failures, prompts that do not render, cancellation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createJudge, judgeJson } from '../../../src/core/suites/judging.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { ClientResponse, ModelClient } from '../../../src/core/model.js';

const schema = { type: 'object', required: ['verdict'], properties: { verdict: { type: 'integer', enum: [0, 1] } }, additionalProperties: false };
const request = { name: 'verdict', messages: [{ role: 'user' as const, content: 'judge this' }], schema };

/** A judge that answers from a script, one reply per call; an Error in the script is thrown. */
function scriptedJudge(replies: (string | Error)[]): ModelClient & { calls: Parameters<ModelClient['complete']>[0][] } {
  const calls: Parameters<ModelClient['complete']>[0][] = [];
  return {
    key: 'fixture:judge',
    calls,
    async complete(req) {
      calls.push(req);
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

const REJECTION_PROMPT = 'rgb/judge-rejection.prompt';
const aborted = () => {
  const controller = new AbortController();
  controller.abort();
  return controller.signal;
};

test('the judge step without a schema: the prompt file rendered, one call at temperature 0, the text as the answer', async () => {
  const judge = scriptedJudge(['No, the question is not addressed by the documents.']);
  const outcome = await createJudge(judge, new AbortController().signal).ask(REJECTION_PROMPT, { question: 'Who won?', answer: 'Nobody knows.' });
  assert.deepEqual(outcome, { ok: true, value: 'No, the question is not addressed by the documents.', raw: 'No, the question is not addressed by the documents.', attempts: 1 });
  assert.equal(judge.calls.length, 1);
  assert.equal(judge.calls[0]!.temperature, 0);
  assert.equal(judge.calls[0]!.structuredOutput, undefined);
  assert.ok(judge.calls[0]!.messages.at(-1)!.content.endsWith('Question: Who won?\nAnswer: Nobody knows.'));
});

test('the judge step with a schema: structured output, validated, repaired once', async () => {
  const judge = scriptedJudge(['{"verdict": "yes"}', '{"verdict": 1}']);
  const outcome = await createJudge(judge, new AbortController().signal).ask<{ verdict: number }>(REJECTION_PROMPT, { question: 'q', answer: 'a' }, { schema: { name: 'verdict', schema }, temperature: 0.7 });
  assert.deepEqual(outcome, { ok: true, value: { verdict: 1 }, raw: '{"verdict": 1}', attempts: 2 });
  assert.deepEqual(judge.calls[0]!.structuredOutput, { name: 'verdict', schema });
  assert.deepEqual(judge.calls.map((c) => c.temperature), [0.7, 0.7]);
});

test('a prompt file that cannot be rendered is a judge error, and the judge is not called', async () => {
  const judge = scriptedJudge(['unused']);
  const outcome = await createJudge(judge, new AbortController().signal).ask('rgb/no-such-judge.prompt', {});
  assert.equal(outcome.ok, false);
  if (!outcome.ok) assert.match(outcome.error, /^prompt rgb\/no-such-judge\.prompt could not be rendered: \S*prompts\/rgb\/no-such-judge\.prompt: template file not found/);
  assert.equal(judge.calls.length, 0);
});

test('the judge step: a failed call is a judge error; a cancelled one is rethrown, with or without a schema', async () => {
  const failed = await createJudge(scriptedJudge([new ProviderError('auth', '401 bad key')]), new AbortController().signal).ask(REJECTION_PROMPT, { question: 'q', answer: 'a' });
  assert.deepEqual(failed, { ok: false, error: 'judge call failed: 401 bad key', raw: '', attempts: 1 });

  const signal = aborted();
  const cancelled = () => createJudge(scriptedJudge([new ProviderError('cancelled', 'cancelled')]), signal);
  await assert.rejects(cancelled().ask(REJECTION_PROMPT, { question: 'q', answer: 'a' }), (error) => error instanceof ProviderError && error.kind === 'cancelled');
  await assert.rejects(cancelled().ask(REJECTION_PROMPT, { question: 'q', answer: 'a' }, { schema: { name: 'verdict', schema } }), (error) => error instanceof ProviderError && error.kind === 'cancelled');
});
