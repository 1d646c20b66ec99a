// An answer cut at the token limit, in each vendor's words through its SDK: OpenAI-compatible finish_reason "length",
// Anthropic stop_reason "max_tokens"; isTruncated is the one test every surface uses to mark it.
import * as assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isTruncated } from '../../../src/core/model.js';
import { AnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

const reply = 'The crossing on the Brisk ferry lasts forty minutes.';
let server: FixtureServer;
before(async () => {
  server = await startFixtureServer({ rules: [{ reply }] });
});
after(() => server.close());
const call = { model: 'm', messages: [{ role: 'user' as const, content: 'How long is the crossing?' }] };
const signal = new AbortController().signal;

test('OpenAI-compatible: finish_reason "length" is truncated, "stop" is not (plain and streaming)', async () => {
  const provider = new OpenAIProvider({ baseURL: server.openaiBaseUrl, id: 'openai-compatible' });
  for (const stream of [false, true]) {
    const cut = await provider.complete({ ...call, maxTokens: 3, stream }, { signal });
    assert.equal(cut.finishReason, 'length');
    assert.ok(isTruncated(cut), `stream=${stream}`);
    assert.ok(!isTruncated(await provider.complete({ ...call, stream }, { signal })));
  }
});

test('Anthropic: stop_reason "max_tokens" is truncated, "end_turn" is not', async () => {
  const provider = new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: server.anthropicBaseUrl });
  const cut = await provider.complete({ ...call, maxTokens: 3 }, { signal });
  assert.equal(cut.finishReason, 'max_tokens');
  assert.ok(isTruncated(cut));
  assert.ok(!isTruncated(await provider.complete({ ...call, maxTokens: 200 }, { signal })));
});
