// The registry: provider names, where keys and base URLs come from, and messages that say how to fix a missing one.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AnthropicProvider } from '../../../src/core/providers/anthropic.js';
import { ProviderConfigError } from '../../../src/core/providers/contract.js';
import { OpenAIEmbeddingProvider } from '../../../src/core/providers/embeddings.js';
import { EXTRACTIVE_LABEL, ExtractiveProvider } from '../../../src/core/providers/extractive.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { createBatchClient, createEmbeddingProvider, createProvider, envCredentials } from '../../../src/core/providers/registry.js';
import { AnthropicBatchClient } from '../../../src/core/providers/anthropicBatch.js';
import { OpenAIBatchClient } from '../../../src/core/providers/openaiBatch.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import type { ModelSpec } from '../../../src/core/providers/contract.js';

function spec(fields: Partial<ModelSpec> & Pick<ModelSpec, 'provider'>): ModelSpec {
  return { model: 'some-model', parameters: {}, ...fields };
}

const noEnv = { env: {} };

describe('createProvider', () => {
  it('builds each known provider, with vendor default base URLs', async () => {
    const credentials = envCredentials({ OPENAI_API_KEY: 'sk-o-1234567', ANTHROPIC_API_KEY: 'sk-a-1234567' });
    const openai = await createProvider(spec({ provider: 'openai' }), credentials, noEnv);
    assert.ok(openai instanceof OpenAIProvider);
    assert.equal(openai.endpoint, 'https://api.openai.com/v1');
    const anthropic = await createProvider(spec({ provider: 'anthropic' }), credentials, noEnv);
    assert.ok(anthropic instanceof AnthropicProvider);
    assert.equal(anthropic.endpoint, 'https://api.anthropic.com');
    const extractive = await createProvider(spec({ provider: 'extractive', model: 'bm25' }), credentials, noEnv);
    assert.ok(extractive instanceof ExtractiveProvider);
    assert.equal(extractive.label, EXTRACTIVE_LABEL);
  });

  it('takes the base URL from the spec, else OPENAI_BASE_URL / ANTHROPIC_BASE_URL', async () => {
    const credentials = envCredentials({ OPENAI_API_KEY: 'sk-o-1234567', ANTHROPIC_API_KEY: 'sk-a-1234567' });
    const env = { env: { OPENAI_BASE_URL: 'http://proxy.local/v1', ANTHROPIC_BASE_URL: 'http://claude.local' } };
    assert.equal((await createProvider(spec({ provider: 'openai' }), credentials, env)).endpoint, 'http://proxy.local/v1');
    assert.equal((await createProvider(spec({ provider: 'anthropic' }), credentials, env)).endpoint, 'http://claude.local');
    assert.equal((await createProvider(spec({ provider: 'openai', baseUrl: 'http://spec.local/v1' }), credentials, env)).endpoint, 'http://spec.local/v1');
  });

  it('says exactly which variable to set when a key is missing', async () => {
    const none = envCredentials({});
    await assert.rejects(createProvider(spec({ provider: 'openai' }), none, noEnv), (error: unknown) => {
      assert.ok(error instanceof ProviderConfigError);
      assert.equal(error.message, "No OpenAI API key: set OPENAI_API_KEY (CLI) or run 'RAG Inspector: Set API Key' (VS Code).");
      return true;
    });
    await assert.rejects(createProvider(spec({ provider: 'anthropic' }), none, noEnv), /No Anthropic API key: set ANTHROPIC_API_KEY \(CLI\)/);
    await assert.rejects(createProvider(spec({ provider: 'anthropic', apiKeyEnv: 'TEAM_CLAUDE_KEY' }), none, noEnv), /set TEAM_CLAUDE_KEY \(CLI\)/);
    await assert.rejects(createProvider(spec({ provider: 'openai' }), envCredentials({ OPENAI_API_KEY: '  ' }), noEnv), ProviderConfigError);
  });

  it('lists the known providers for an unknown name', async () => {
    await assert.rejects(createProvider(spec({ provider: 'gemini' }), envCredentials({}), noEnv), (error: unknown) => {
      assert.ok(error instanceof ProviderConfigError);
      assert.match(error.message, /Unknown provider "gemini".*openai, openai-compatible, anthropic, extractive/);
      return true;
    });
  });

  it('requires a base URL for openai-compatible, and rejects one that is not http(s)', async () => {
    await assert.rejects(createProvider(spec({ provider: 'openai-compatible' }), envCredentials({}), noEnv), /needs a base URL: set baseUrl in the eval file/);
    await assert.rejects(createProvider(spec({ provider: 'openai-compatible', baseUrl: 'file:///etc/passwd' }), envCredentials({}), noEnv), /not an http\(s\) URL/);
  });
});

describe('keys reach only the endpoints meant for them', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(async () => {
    await server.close();
  });

  it('never sends OPENAI_API_KEY to an openai-compatible server; sends the apiKeyEnv key when named', async () => {
    const env = { OPENAI_API_KEY: 'sk-real-openai-key-123', LOCAL_KEY: 'local-key-456' };
    const signal = new AbortController().signal;
    const keyless = await createProvider(spec({ provider: 'openai-compatible', model: 'llama3', baseUrl: server.openaiBaseUrl }), envCredentials(env), noEnv);
    await keyless.complete({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }] }, { signal });
    assert.equal(server.requests.at(-1)?.headers.authorization, undefined);
    assert.ok(!JSON.stringify(server.requests.at(-1)?.headers).includes(env.OPENAI_API_KEY));

    const keyed = await createProvider(spec({ provider: 'openai-compatible', model: 'llama3', baseUrl: server.openaiBaseUrl, apiKeyEnv: 'LOCAL_KEY' }), envCredentials(env), noEnv);
    await keyed.complete({ model: 'llama3', messages: [{ role: 'user', content: 'hi' }] }, { signal });
    assert.equal(server.requests.at(-1)?.headers.authorization, 'Bearer local-key-456');
  });

  it('passes the spec to the credentials source, so the extension can withhold keys from workspace-chosen URLs', async () => {
    const asked: { provider: string; baseUrl?: string }[] = [];
    const withholding = {
      apiKey: async (provider: string, model: ModelSpec) => {
        asked.push({ provider, baseUrl: model.baseUrl });
        return model.baseUrl ? undefined : 'sk-stored-key-000';
      },
    };
    await assert.rejects(createProvider(spec({ provider: 'openai', baseUrl: 'http://evil.example/v1' }), withholding, noEnv), /No OpenAI API key/);
    assert.deepEqual(asked, [{ provider: 'openai', baseUrl: 'http://evil.example/v1' }]);
  });
});

describe('createEmbeddingProvider', () => {
  it('builds OpenAI-compatible embedding providers and refuses the others by name', async () => {
    const embedder = await createEmbeddingProvider(spec({ provider: 'openai', model: 'text-embedding-3-small' }), envCredentials({ OPENAI_API_KEY: 'sk-o-1234567' }), noEnv);
    assert.ok(embedder instanceof OpenAIEmbeddingProvider);
    const local = await createEmbeddingProvider(spec({ provider: 'openai-compatible', model: 'nomic-embed-text', baseUrl: 'http://localhost:11434/v1' }), envCredentials({}), noEnv);
    assert.equal(local.endpoint, 'http://localhost:11434/v1');
    await assert.rejects(createEmbeddingProvider(spec({ provider: 'anthropic' }), envCredentials({ ANTHROPIC_API_KEY: 'k' }), noEnv), /cannot make embeddings.*use one of openai, openai-compatible/);
  });
});

describe('createBatchClient', () => {
  it("builds each vendor's batch client, needs Anthropic's key, and refuses a provider without a batch API by name", async () => {
    assert.ok(await createBatchClient(spec({ provider: 'openai' }), envCredentials({ OPENAI_API_KEY: 'sk-o-1234567' }), noEnv) instanceof OpenAIBatchClient);
    assert.ok(await createBatchClient(spec({ provider: 'anthropic' }), envCredentials({ ANTHROPIC_API_KEY: 'sk-ant-1234567' }), noEnv) instanceof AnthropicBatchClient);
    await assert.rejects(createBatchClient(spec({ provider: 'anthropic' }), envCredentials({}), noEnv), /set ANTHROPIC_API_KEY/);
    await assert.rejects(createBatchClient(spec({ provider: 'extractive' }), envCredentials({}), noEnv), (error: Error) => error instanceof ProviderConfigError && /openai, openai-compatible, anthropic providers only; "extractive:some-model"/.test(error.message));
  });
});
