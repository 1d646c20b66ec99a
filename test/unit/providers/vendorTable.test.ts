// Every entry of the vendor table answers every question the hosts ask of a provider name, so a new vendor is one entry.
import * as assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { BUILTIN_PRICES, batchCostOf, costOf, priceOf } from '../../../src/core/providers/prices.js';
import { BATCH_PROVIDER_NAMES, EMBEDDING_PROVIDER_NAMES, PROVIDER_NAMES } from '../../../src/core/providers/names.js';
import { VENDORS, createBatchClient, createEmbeddingProvider, createProvider, envCredentials, usesBaseUrl } from '../../../src/core/providers/registry.js';
import type { VendorEntry } from '../../../src/core/providers/registry.js';
import { ProviderConfigError } from '../../../src/core/providers/contract.js';
import type { ModelSpec, Provider } from '../../../src/core/providers/contract.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

const entries = Object.entries(VENDORS) as [string, VendorEntry][];
const KEY = 'sk-table-1234567';

function spec(provider: string, fields: Partial<ModelSpec> = {}): ModelSpec {
  return { provider, model: 'table-model', parameters: {}, ...fields };
}

/** A key under every variable the table names, and one the model entry names itself. */
function keyedEnv(): Record<string, string> {
  return { TABLE_KEY: KEY, ...Object.fromEntries(entries.flatMap(([, entry]) => (entry.keyEnv ? [[entry.keyEnv, KEY]] : []))) };
}

describe('the vendor table', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer();
    server.addRule({ reply: 'table answer' });
  });
  after(() => server.close());

  for (const [name, entry] of entries) {
    describe(name, () => {
      it('is a name the eval file may use, listed for embeddings and batch mode exactly when the entry has them', () => {
        assert.ok(PROVIDER_NAMES.includes(name as never));
        assert.equal((EMBEDDING_PROVIDER_NAMES as readonly string[]).includes(name), entry.embeddings !== undefined);
        assert.equal(BATCH_PROVIDER_NAMES.includes(name), entry.batch !== undefined);
      });

      it('makes a provider recorded under its name that answers a real call', async () => {
        const credentials = envCredentials(keyedEnv());
        const answers: string[] = [];
        // The table does not say which wire API a vendor speaks: one of the fixture's two must answer it.
        for (const baseUrl of entry.baseUrlEnv ? [server.openaiBaseUrl, server.anthropicBaseUrl] : [undefined]) {
          const provider: Provider = await createProvider(spec(name, { baseUrl, apiKeyEnv: entry.keyEnv ? undefined : 'TABLE_KEY' }), credentials, { env: {} });
          assert.equal(provider.id, name);
          if (baseUrl) assert.equal(provider.endpoint, baseUrl);
          const request = { model: 'table-model', messages: [{ role: 'user' as const, content: 'Which table?\n\nDocument: the vendor table.' }] };
          const response = await provider.complete(request, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
          if (response) answers.push(response.text);
        }
        assert.equal(answers.length, 1, `${name} answered through exactly one wire API`);
        if (entry.baseUrlEnv) assert.deepEqual(answers, ['table answer']);
      });

      it('says how to fix a missing key or base URL, and reads the base URL from its variable', async () => {
        const none = envCredentials({});
        const made = createProvider(spec(name), none, { env: {} });
        if (entry.keyRequired) {
          await assert.rejects(made, (error: unknown) => error instanceof ProviderConfigError && error.message === `No ${entry.title} API key: set ${entry.keyEnv} (CLI) or run 'RAG Inspector: Set API Key' (VS Code).`);
        } else if (entry.baseUrlEnv && !entry.defaultBaseUrl) {
          await assert.rejects(made, new RegExp(`needs a base URL: .* or ${entry.baseUrlEnv}\\.`));
        } else {
          await made;
        }
        assert.equal(usesBaseUrl(name), entry.baseUrlEnv !== undefined);
        if (entry.baseUrlEnv) {
          const provider = await createProvider(spec(name, { apiKeyEnv: entry.keyEnv ? undefined : 'TABLE_KEY' }), envCredentials(keyedEnv()), { env: { [entry.baseUrlEnv]: 'http://from-variable.local/v1' } });
          assert.equal(provider.endpoint, 'http://from-variable.local/v1');
          if (entry.defaultBaseUrl) assert.equal((await createProvider(spec(name), envCredentials(keyedEnv()), { env: {} })).endpoint, entry.defaultBaseUrl);
        }
      });

      it('is priced as the entry says, interactively and in batch mode', () => {
        const million = { inputTokens: 1_000_000, outputTokens: 1_000_000 };
        const expected = { list: BUILTIN_PRICES['gpt-4o-mini'], free: { input: 0, output: 0 }, unknown: undefined }[entry.prices];
        assert.deepEqual(priceOf(`${name}:gpt-4o-mini`), expected);
        const overrides = { [name]: { input: 1, output: 2 } };
        assert.equal(batchCostOf(`${name}:m`, million, overrides), entry.batchDiscount ? 1.5 : costOf(`${name}:m`, million, overrides));
      });

      it('makes embeddings and batch clients exactly when the entry has them', async () => {
        const credentials = envCredentials(keyedEnv());
        const options = { env: {} };
        const withServer = spec(name, { baseUrl: server.openaiBaseUrl, apiKeyEnv: entry.keyEnv ? undefined : 'TABLE_KEY' });
        if (entry.embeddings) {
          const embedder = await createEmbeddingProvider(withServer, credentials, options);
          assert.equal(embedder.id, name);
          const result = await embedder.embed({ model: 'table-embed', input: ['one', 'two'] }, { signal: AbortSignal.timeout(10_000) });
          assert.equal(result.vectors.length, 2);
        } else {
          await assert.rejects(createEmbeddingProvider(withServer, credentials, options), /cannot make embeddings/);
        }
        if (entry.batch) assert.equal(typeof (await createBatchClient(withServer, credentials, options)).submit, 'function');
        else await assert.rejects(createBatchClient(withServer, credentials, options), /batch mode is available for the .* providers only/);
      });
    });
  }
});
