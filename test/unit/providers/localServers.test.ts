// llama.cpp, vLLM and Ollama through the real OpenAI SDK (and Anthropic's wording through its SDK): a prompt too long
// for the context is one non-retried "prompt too long" error with the counts (a full shared context is retried), 501
// is not retried, 503 is.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { AnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { ProviderError } from '../../../src/core/providers/contract.js';
import type { Provider } from '../../../src/core/providers/contract.js';
import { OpenAIEmbeddingProvider } from '../../../src/core/providers/embeddings.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureOptions, FixtureServer } from '../../fixtures/llmServer.js';

const longQuestion: ChatMessage[] = [{ role: 'user', content: Array.from({ length: 60 }, (_, i) => `word${i}`).join(' ') }];
const shortQuestion: ChatMessage[] = [{ role: 'user', content: 'Capital of France?' }];
const servers: FixtureServer[] = [];

async function server(options: FixtureOptions): Promise<FixtureServer> {
  const started = await startFixtureServer(options);
  servers.push(started);
  return started;
}
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** Three retries, as a run allows by default, with no real waiting between them. */
function scheduler(): Scheduler {
  return new Scheduler({ concurrency: 1, maxRetries: 3, timeoutMs: 10_000, random: () => 0, baseDelayMs: 1 });
}

async function scheduledFailure(provider: Provider, messages: ChatMessage[], options: { stream?: boolean; maxTokens?: number } = {}): Promise<ProviderError> {
  try {
    await scheduler().schedule((signal) => provider.complete({ model: 'local', messages, ...options }, { signal }), { signal: new AbortController().signal });
  } catch (error) {
    assert.ok(error instanceof ProviderError, `expected a ProviderError, got ${String(error)}`);
    return error;
  }
  assert.fail('the call was expected to fail');
}

describe('prompt too long, in each server’s words', () => {
  it('llama.cpp 400 exceed_context_size_error: not retried, the counts in the message', async () => {
    const llama = await server({ flavour: 'llama.cpp', contextTokens: 20 });
    const error = await scheduledFailure(new OpenAIProvider({ baseURL: llama.openaiBaseUrl, id: 'openai-compatible' }), longQuestion);
    assert.equal(error.kind, 'context_overflow');
    assert.equal(error.status, 400);
    assert.match(error.message, /prompt too long: 60 tokens, one slot of the server's context holds 20/);
    assert.equal(llama.requests.length, 1, 'one request: retrying the same prompt cannot help');
  });

  it('llama.cpp 500 "Context size has been exceeded." (shared slots): its own kind, retried (fewer in flight may fit), plain and streaming', async () => {
    for (const stream of [false, true]) {
      const llama = await server({ flavour: 'llama.cpp', rules: [{ fault: { kind: 'shared_context' } }] });
      const error = await scheduledFailure(new OpenAIProvider({ baseURL: llama.openaiBaseUrl, id: 'openai-compatible' }), shortQuestion, { stream });
      assert.equal(error.kind, 'shared_context', `stream=${stream}`);
      assert.match(error.message, /prompts in flight together exceed the server's shared context/);
      assert.equal(llama.requests.length, 4, `stream=${stream}: the first request and maxRetries more (one in flight: nothing to lower)`);
    }
  });

  it('vLLM 400 BadRequestError counts the requested output too; the counts are read from its sentence', async () => {
    const vllm = await server({ flavour: 'vllm', contextTokens: 64 });
    const error = await scheduledFailure(new OpenAIProvider({ baseURL: vllm.openaiBaseUrl, id: 'openai-compatible' }), longQuestion, { maxTokens: 10 });
    assert.equal(error.kind, 'context_overflow');
    assert.match(error.message, /prompt too long: 60 tokens, the model's context holds 64/);
    assert.equal(vllm.requests.length, 1);
  });

  it('Ollama and OpenAI wordings are prompt too long as well', async () => {
    const ollama = await server({ flavour: 'ollama', contextTokens: 20 });
    assert.equal((await scheduledFailure(new OpenAIProvider({ baseURL: ollama.openaiBaseUrl, id: 'openai-compatible' }), longQuestion)).kind, 'context_overflow');
    const openai = await server({ contextTokens: 20 });
    const error = await scheduledFailure(new OpenAIProvider({ apiKey: 'sk-test', baseURL: openai.openaiBaseUrl }), longQuestion);
    assert.equal(error.kind, 'context_overflow');
    assert.match(error.message, /60 tokens, the model's context holds 20/);
  });

  it('Anthropic "prompt is too long: N tokens > M maximum" through its SDK', async () => {
    const anthropic = await server({ rules: [{ fault: { kind: 'status', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 215000 tokens > 200000 maximum' } } } }] });
    const error = await scheduledFailure(new AnthropicProvider({ apiKey: 'sk-ant-test', baseURL: anthropic.anthropicBaseUrl }), shortQuestion);
    assert.equal(error.kind, 'context_overflow');
    assert.match(error.message, /215000 tokens, the model's context holds 200000/);
    assert.equal(anthropic.requests.length, 1);
  });
});

describe('what is retried', () => {
  it('501 (llama.cpp without --embeddings) is not retried, and says how to start it', async () => {
    const llama = await server({ flavour: 'llama.cpp', noEmbeddings: true });
    const provider = new OpenAIEmbeddingProvider({ baseURL: llama.openaiBaseUrl, id: 'openai-compatible' });
    await assert.rejects(
      scheduler().schedule((signal) => provider.embed({ model: 'local', input: ['a'] }, { signal }), { signal: new AbortController().signal }),
      (error: unknown) => error instanceof ProviderError && error.kind === 'not_supported' && /--embeddings/.test(error.message),
    );
    assert.equal(llama.requests.length, 1);
  });

  it('503 "Loading model" is retried until the model is up', async () => {
    const llama = await server({ flavour: 'llama.cpp', rules: [{ fault: { kind: 'loading' }, times: 2 }, { reply: 'Paris.' }] });
    const provider = new OpenAIProvider({ baseURL: llama.openaiBaseUrl, id: 'openai-compatible' });
    const { value, attempts } = await scheduler().schedule((signal) => provider.complete({ model: 'local', messages: shortQuestion }, { signal }), { signal: new AbortController().signal });
    assert.equal(value.text, 'Paris.');
    assert.equal(attempts, 3);
    assert.deepEqual(llama.requests.map((r) => r.reply?.status), [503, 503, 200]);
  });
});

describe('llama.cpp streaming', () => {
  let llama: FixtureServer;
  before(async () => {
    llama = await server({ flavour: 'llama.cpp', rules: [{ reply: 'Paris is the capital.' }] });
  });

  it('usage rides in the chunk with finish_reason, and is what the server counted', async () => {
    const provider = new OpenAIProvider({ baseURL: llama.openaiBaseUrl, id: 'openai-compatible' });
    const streamed = await provider.complete({ model: 'local', messages: shortQuestion, stream: true }, { signal: new AbortController().signal });
    const plain = await provider.complete({ model: 'local', messages: shortQuestion }, { signal: new AbortController().signal });
    assert.equal(streamed.text, 'Paris is the capital.');
    assert.deepEqual(streamed.usage, plain.usage);
    assert.ok(streamed.usage.inputTokens > 0 && streamed.usage.outputTokens > 0);
  });
});
