// The pre-run check reaches an index's own endpoints: a wrong embedding model, reranker path or key stops a run (or a
// sweep) before the index is built, with a message naming the index.… / sweep.… setting to fix. Real HTTP to the
// fixture server; the bundled corpus example's documents and questions.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { PreflightError } from '../../../src/core/engine/preflight.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { sweepRetrieval } from '../../../src/core/engine/sweepRetrieval.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureOptions, FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';

const servers: FixtureServer[] = [];
const folders: string[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

async function server(options: FixtureOptions = {}): Promise<FixtureServer> {
  const started = await startFixtureServer(options);
  servers.push(started);
  return started;
}

/** The corpus example's folder with an eval file whose index block is `index` (YAML lines under `index:`). */
function workspace(index: string[], extra: string[] = []): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'index-preflight-'));
  folders.push(folder);
  cpSync(path.resolve('examples/corpus'), folder, { recursive: true });
  const file = path.join(folder, 'checked.eval.yaml');
  writeFileSync(file, [
    'version: 1',
    'models:',
    '  - { provider: extractive, model: bm25 }',
    'index:',
    '  folder: docs',
    '  chunking: { by: tokens, size: 48, overlap: 8 }',
    ...index.map((line) => `  ${line}`),
    'suites:',
    '  - { id: corpus, method: rag, dataset: questions.jsonl, params: { k: 2, candidates: 5 } }',
    ...extra,
    '',
  ].join('\n'));
  return file;
}

const options = { signal: new AbortController().signal, credentials: envCredentials({}), preflight: true, retrieverEnv: { RERANK_KEY: 'wrong' } };

/** Chunks embedded or reranked: anything but the one-word probe the check sends. */
const spent = (requests: readonly RecordedRequest[]) => requests.filter((r) => (r.api === 'openai-embeddings' || r.api === 'rerank') && r.text !== 'Hi' && r.text !== 'Hi\nHi');

test('an embedding model the server does not serve stops the run before the index is built, naming index.embeddings', async () => {
  const embed = await server({ listedModels: ['nomic-embed-text'] });
  const file = workspace(['search: dense', `embeddings: { provider: openai-compatible, model: nomic-embd, baseUrl: "${embed.openaiBaseUrl}" }`]);
  await assert.rejects(runEvaluation(file, options), (error: unknown) => {
    assert.ok(error instanceof PreflightError, String(error));
    assert.match(error.message, /does not serve model 'nomic-embd' \(it lists 'nomic-embed-text'\) — correct index\.embeddings\.model in the eval file/);
    return true;
  });
  assert.deepEqual(spent(embed.requests), [], 'no chunk was embedded');
  assert.ok(!existsSync(path.join(path.dirname(file), '.rag-inspector', 'runs')), 'no run log');
  assert.ok(!existsSync(path.join(path.dirname(file), '.rag-inspector', 'index')), 'no index built');
});

test('a reranker at a wrong path stops the run, naming index.rerank.url', async () => {
  const rerank = await server();
  const file = workspace(['search: bm25', `rerank: { url: "${rerank.url}/v1/rerank-typo" }`]);
  await assert.rejects(runEvaluation(file, options), (error: unknown) => {
    assert.ok(error instanceof PreflightError, String(error));
    assert.match(error.message, /^index\.rerank: .* answered HTTP 404 — check index\.rerank\.url \(TEI serves \/rerank/);
    return true;
  });
  assert.equal(rerank.requests.length, 1, 'one cheap call');
  assert.ok(!existsSync(path.join(path.dirname(file), '.rag-inspector', 'runs')), 'no run log');
});

test('a reranker that refuses the key stops the run, naming the header variable to fix; a right one lets it run', async () => {
  const rerank = await server({ requireApiKey: 'right' });
  const file = workspace(['search: bm25', `rerank: { url: "${rerank.url}/rerank", headers: { Authorization: { env: RERANK_KEY, prefix: "Bearer " } } }`]);
  await assert.rejects(runEvaluation(file, options), (error: unknown) => {
    assert.ok(error instanceof PreflightError, String(error));
    assert.match(error.message, /^index\.rerank: .* refused the key \(HTTP 401\) — check the variable index\.rerank\.headers names in the eval file/);
    assert.doesNotMatch(error.message, /wrong/, 'the key itself is never shown');
    return true;
  });
  const outcome = await runEvaluation(file, { ...options, retrieverEnv: { RERANK_KEY: 'right' } });
  assert.equal(outcome.status, 'success', 'no case errored');
  assert.ok(spent(rerank.requests).length > 0, 'the run reranked its questions once the check passed');
});

test('a sweep checks every embedding model it lists before building any index, naming sweep.embeddings', async () => {
  const embed = await server({ listedModels: ['nomic-embed-text'] });
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: "${embed.openaiBaseUrl}" }`;
  const file = workspace(['search: dense', `embeddings: ${model('nomic-embed-text')}`], ['sweep:', `  embeddings: [${model('nomic-embed-text')}, ${model('bge-smal')}]`, '  k: [1, 2]']);
  const spec = await loadEvalSpec(file);
  await assert.rejects(sweepRetrieval(spec, { concurrency: 2, noCache: false, env: {}, credentials: envCredentials({}), signal: new AbortController().signal }), (error: unknown) => {
    assert.ok(error instanceof PreflightError, String(error));
    assert.match(error.message, /does not serve model 'bge-smal'.* — correct sweep\.embeddings\.model in the eval file/);
    return true;
  });
  assert.deepEqual(spent(embed.requests), [], 'no chunk was embedded');
  assert.ok(!existsSync(path.join(path.dirname(file), '.rag-inspector', 'index')), 'no index built');
});
