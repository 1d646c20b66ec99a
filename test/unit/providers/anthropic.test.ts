// The Anthropic provider through the real @anthropic-ai/sdk over HTTP to the fixture server: system, pre-fill, tools, streams.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { AnthropicProvider, DEFAULT_MAX_TOKENS } from '../../../src/core/providers/anthropic.js';
import { fixtureTokenCount } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

const KEY = 'sk-ant-test-0123456789';
let server: FixtureServer;
let provider: AnthropicProvider;

useFixtureServer((started) => {
  server = started;
  provider = new AnthropicProvider({ apiKey: KEY, baseURL: server.anthropicBaseUrl });
});

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You answer from documents.' },
  { role: 'system', content: 'Be brief.' },
  { role: 'user', content: 'Document: The Eiffel Tower is in Paris.\n\nQuestion: Where is the Eiffel Tower?' },
];

const judgeSchema = { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'] };

function lastBody(): Record<string, unknown> {
  const request: RecordedRequest | undefined = server.requests.at(-1);
  assert.ok(request, 'the fixture saw a request');
  return request.body as Record<string, unknown>;
}

function signal(): AbortSignal {
  return new AbortController().signal;
}

describe('AnthropicProvider', () => {
  it('sends system messages as `system`, the default max_tokens, and reads a plain answer', async () => {
    server.addRule({ match: { contains: 'Eiffel' }, reply: 'In Paris.' });
    const response = await provider.complete({ model: 'claude-test-small', messages: conversation }, { signal: signal() });
    assert.equal(response.text, 'In Paris.');
    assert.equal(response.finishReason, 'end_turn');
    assert.equal(response.cached, false);
    const expectedInput = fixtureTokenCount(['You answer from documents.\n\nBe brief.', conversation[2]?.content].join('\n'));
    assert.deepEqual(response.usage, { inputTokens: expectedInput, outputTokens: fixtureTokenCount('In Paris.') });
    const body = lastBody();
    assert.equal(body.system, 'You answer from documents.\n\nBe brief.');
    assert.deepEqual(body.messages, [{ role: 'user', content: conversation[2]?.content }]);
    assert.equal(body.max_tokens, DEFAULT_MAX_TOKENS);
    assert.equal(body.stream, undefined);
  });

  it('streams text deltas into the same answer and usage', async () => {
    server.addRule({ reply: 'The Eiffel Tower stands in Paris.' });
    const streamed = await provider.complete({ model: 'claude-test-small', messages: conversation, stream: true, maxTokens: 200 }, { signal: signal() });
    const whole = await provider.complete({ model: 'claude-test-small', messages: conversation, maxTokens: 200 }, { signal: signal() });
    assert.equal(streamed.text, 'The Eiffel Tower stands in Paris.');
    assert.deepEqual(streamed.usage, whole.usage);
    assert.equal(streamed.finishReason, 'end_turn');
    assert.equal(server.requests.at(-2)?.stream, true);
  });

  it('sends a trailing assistant message as a pre-fill and returns only the continuation', async () => {
    server.addRule({ reply: '"Paris"}' });
    const messages: ChatMessage[] = [...conversation, { role: 'assistant', content: '{"answer": ' }];
    const response = await provider.complete({ model: 'claude-test-large', messages }, { signal: signal() });
    assert.equal(response.text, '"Paris"}');
    const sent = lastBody().messages as { role: string; content: string }[];
    // The API rejects a final assistant turn ending in whitespace, so the pre-fill goes out trimmed.
    assert.deepEqual(sent.at(-1), { role: 'assistant', content: '{"answer":' });
    assert.equal(messages.at(-1)?.content, '{"answer": ', 'the caller\'s messages are left as they were');
  });

  it('forces a tool for structured output and returns its input as JSON text, streamed or not', async () => {
    server.addRule({ reply: '{"verdict":"supported"}' });
    for (const stream of [false, true]) {
      const response = await provider.complete({ model: 'claude-test-large', messages: conversation, stream, structuredOutput: { name: 'judge_verdict', schema: judgeSchema } }, { signal: signal() });
      assert.deepEqual(JSON.parse(response.text), { verdict: 'supported' });
      assert.equal(response.finishReason, 'tool_use');
      const body = lastBody();
      assert.deepEqual(body.tool_choice, { type: 'tool', name: 'judge_verdict' });
      assert.deepEqual((body.tools as { name: string; input_schema: unknown }[]).map((tool) => [tool.name, tool.input_schema]), [['judge_verdict', judgeSchema]]);
    }
  });

  it('passes a judge that answered in prose through as text, so the scorer can report a judge error', async () => {
    server.addRule({ reply: 'I think it is supported.' });
    const response = await provider.complete({ model: 'claude-test-large', messages: conversation, structuredOutput: { name: 'judge_verdict', schema: judgeSchema } }, { signal: signal() });
    assert.equal(response.text, 'I think it is supported.');
    assert.throws(() => JSON.parse(response.text));
  });

  it('maps temperature, top_p, stop and extras, and reports a stop-sequence finish', async () => {
    server.addRule({ reply: 'Paris. Also more text' });
    const response = await provider.complete({ model: 'claude-test-small', messages: conversation, temperature: 0.2, topP: 0.9, stop: ['. Also'], seed: 7, extra: { metadata: { user_id: 'u1' } } }, { signal: signal() });
    assert.equal(response.text, 'Paris');
    assert.equal(response.finishReason, 'stop_sequence');
    const body = lastBody();
    assert.equal(body.temperature, 0.2);
    assert.equal(body.top_p, 0.9);
    assert.deepEqual(body.stop_sequences, ['. Also']);
    assert.deepEqual(body.metadata, { user_id: 'u1' });
    assert.ok(!('seed' in body), 'Anthropic has no seed parameter');
  });

  it('sends its key only in the auth header of its own requests', async () => {
    await provider.complete({ model: 'claude-test-small', messages: conversation }, { signal: signal() });
    const request = server.requests.at(-1);
    const headers = request?.headers ?? {};
    const carried = headers.authorization === `Bearer ${KEY}` || headers['x-api-key'] === KEY;
    assert.ok(carried, 'the key is sent as Bearer or x-api-key');
    assert.ok(!JSON.stringify(request?.body).includes(KEY), 'the key is not in the body');
    assert.equal(provider.endpoint, server.anthropicBaseUrl);
  });
});
