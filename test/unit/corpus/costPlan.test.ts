// The cost plan of a run with a dense index: what building it embeds is priced before anything is spent, and once the
// index is built (through the real CLI) the plan holds nothing for it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { describeIndexEstimate, estimateCost } from '../../../src/core/engine/costEstimate.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { caseRequests, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

let server: FixtureServer;
const folder = mkdtempSync(path.join(tmpdir(), 'corpus-cost-'));
before(async () => {
  server = await startFixtureServer();
});
after(async () => {
  await server.close();
  rmSync(folder, { recursive: true, force: true });
});

test('the embedding tokens of the index build are in the cost plan, priced, and gone once it is built', async () => {
  cpSync(path.resolve('examples/corpus'), folder, { recursive: true });
  const file = path.join(folder, 'priced.eval.yaml');
  writeFileSync(file, `version: 1
models: [extractive:bm25]
prices: { fixture-embedding: { input: 20, output: 0 } }
index:
  folder: docs
  chunking: { by: tokens, size: 48, overlap: 8 }
  search: dense
  embeddings: { provider: openai-compatible, model: fixture-embedding, baseUrl: ${server.openaiBaseUrl} }
suites: [{ id: corpus, method: rag, dataset: questions.jsonl }]
`);
  const spec = await loadEvalSpec(file);
  const before = server.requests.length;
  const plan = await estimateCost(spec, undefined, new AbortController().signal);
  assert.equal(server.requests.length, before, 'pricing sends nothing');
  assert.ok(plan.index, 'the plan has the index build');
  assert.equal(plan.index.model, 'openai-compatible:fixture-embedding');
  assert.ok(plan.index.texts > 5 && plan.index.inputTokens > plan.index.texts, JSON.stringify(plan.index));
  assert.equal(plan.index.usd, (plan.index.inputTokens * 20) / 1_000_000);
  assert.equal(plan.usd, plan.index.usd, 'the extractive model is free: the index is the whole cost');

  await promisify(execFile)(process.execPath, [path.resolve('dist/cli.js'), 'index', file, '--quiet']);
  const sent = caseRequests(server.requests.slice(before)).filter((r) => r.api === 'openai-embeddings').flatMap((r) => (r.body as { input: string[] }).input);
  assert.equal(sent.length, plan.index.texts, 'the plan counted exactly the texts the build sent');
  const after = await estimateCost(spec, undefined, new AbortController().signal);
  assert.deepEqual([after.index?.texts, after.index?.inputTokens, after.index?.usd], [0, 0, 0]);
  assert.equal(after.usd, 0);

  // The index gone but the embedding cache kept, and one new file: every old chunk is cached, only the new file's are sent.
  rmSync(path.join(folder, '.rag-inspector', 'index'), { recursive: true, force: true });
  writeFileSync(path.join(folder, 'docs', 'added.md'), '# Added\n\nThe lighthouse keeper logs the fog horn every night at nine, and the tide tables each Sunday.\n');
  const requested = server.requests.length;
  const rebuilt = await estimateCost(spec, undefined, new AbortController().signal);
  assert.equal(server.requests.length, requested, 'pricing sends nothing');
  assert.ok(rebuilt.index);
  assert.ok(rebuilt.index.texts >= 1 && rebuilt.index.texts < plan.index.texts, `only the new file's chunks are priced: ${JSON.stringify(rebuilt.index)}`);
  assert.ok(rebuilt.index.inputTokens < plan.index.inputTokens, 'only the new file is priced');
  assert.equal(rebuilt.index.cached, plan.index.texts, 'every chunk the build embedded is in the cache');
  assert.equal(rebuilt.index.chunks, rebuilt.index.cached + rebuilt.index.texts);
  assert.equal(rebuilt.index.usd, (rebuilt.index.inputTokens * 20) / 1_000_000);
  assert.match(describeIndexEstimate(rebuilt.index), new RegExp(`^Indexing first: ${rebuilt.index.texts} chunks? to embed with openai-compatible:fixture-embedding \\(${plan.index.texts} of ${rebuilt.index.chunks} chunks cached\\)`));
});
