// Building an index incrementally against the fixture server's deterministic embeddings and the real embedded store:
// a changed file re-chunks and re-embeds only itself (embedding requests counted at the server), a removed file leaves
// the store, a build cancelled at any stage is finished by the next one without duplicates or paid work, the cost
// plan counts what a build would embed, and dense search returns the brute-force cosine ranking.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, unlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { buildIndex, planBuild } from '../../../src/core/corpus/build.js';
import type { BuildOptions } from '../../../src/core/corpus/build.js';
import type { IndexProgress } from '../../../src/core/corpus/contract.js';
import { searchIndex } from '../../../src/core/corpus/search.js';
import { openStore } from '../../../src/core/corpus/stores/open.js';
import { createEmbeddingProvider } from '../../../src/core/providers/registry.js';
import type { IndexSpec } from '../../../src/core/retrieval/indexSpec.js';
import { createEmbeddingClient } from '../../../src/core/run/embeddingClient.js';
import type { CountingEmbeddingClient } from '../../../src/core/run/embeddingClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { caseRequests, hashEmbedding, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

let server: FixtureServer;
let root: string;
let folder: string;
let stateDir: string;

before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());

const roots: string[] = [];
beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'corpus-build-'));
  roots.push(root);
  folder = path.join(root, 'docs');
  stateDir = path.join(root, '.rag-inspector');
  mkdirSync(folder);
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(folder, name), text);
});

after(() => {
  for (const made of roots) rmSync(made, { recursive: true, force: true });
});

/** Three pages, each cut into several chunks at size 16. */
const FILES: Record<string, string> = {
  'alpha.md': '# Alpha\n\nThe alpha page talks about kettles and how quickly they boil water on a stove.\n\n## More\n\nA kettle whistles when the water boils; some kettles switch themselves off.\n',
  'beta.md': '# Beta\n\nThe beta page is about teapots, which keep tea warm for an hour or more.\n\n## Care\n\nRinse a teapot with hot water and never use soap on a clay teapot.\n',
  'gamma.md': '# Gamma\n\nThe gamma page lists mugs: tall mugs, short mugs, and mugs with lids for travel.\n',
};

function spec(overrides: Partial<IndexSpec> = {}): IndexSpec {
  return {
    folder,
    include: [],
    exclude: [],
    chunking: { by: 'heading', size: 16, overlap: 4 },
    search: 'dense',
    embeddings: { provider: 'openai-compatible', model: 'fixture-embedding', baseUrl: server.openaiBaseUrl, parameters: {} },
    hybrid: { weight: 0.5, rrfK: 60 },
    store: { type: 'embedded' },
    ...overrides,
  };
}

async function embeddingClient(index: IndexSpec): Promise<CountingEmbeddingClient> {
  const provider = await createEmbeddingProvider(index.embeddings!, { apiKey: () => Promise.resolve(undefined) });
  return createEmbeddingClient({ key: 'openai-compatible:fixture-embedding', provider, model: 'fixture-embedding', scheduler: new Scheduler({ concurrency: 2, maxRetries: 0, timeoutMs: 10_000 }), cacheDir: path.join(stateDir, 'cache', 'embeddings') });
}

async function build(index: IndexSpec, extra: Partial<BuildOptions> = {}) {
  const built = await buildIndex({ spec: index, stateDir, embeddings: await embeddingClient(index), openStore: (dir) => openStore(index.store, dir, {}), signal: new AbortController().signal, ...extra });
  const stored = await built.store!.count(new AbortController().signal);
  await built.store!.close();
  return { ...built, stored };
}

/** Every text the server was asked to embed since request number `from`. */
function embeddedSince(from: number): string[] {
  return caseRequests(server.requests.slice(from)).filter((r) => r.api === 'openai-embeddings').flatMap((r) => (r.body as { input: string[] }).input);
}

describe('buildIndex', () => {
  it('a changed file re-chunks and re-embeds only itself; an unchanged build asks nothing', async () => {
    const index = spec();
    let from = server.requests.length;
    const first = await build(index);
    const firstTexts = embeddedSince(from);
    assert.equal(first.summary.files.changed, 3);
    assert.equal(firstTexts.length, first.chunks.length, 'every chunk embedded once');
    assert.ok(first.chunks.length >= 6, `several chunks per file (${first.chunks.length})`);
    assert.equal(first.stored, first.chunks.length);
    for (const chunk of first.chunks) assert.equal(FILES[chunk.file]!.slice(chunk.startChar, chunk.endChar), chunk.text, chunk.id);

    from = server.requests.length;
    const again = await build(index);
    assert.deepEqual(embeddedSince(from), [], 'nothing changed: no embedding request');
    assert.deepEqual(again.summary.files, { changed: 0, unchanged: 3, removed: 0 });
    assert.deepEqual(again.chunks, first.chunks);

    const edited = FILES['beta.md']!.replace('an hour or more', 'two hours at most');
    writeFileSync(path.join(folder, 'beta.md'), edited);
    from = server.requests.length;
    const third = await build(index);
    const sent = embeddedSince(from);
    assert.deepEqual(third.summary.files, { changed: 1, unchanged: 2, removed: 0 });
    assert.ok(sent.length > 0 && sent.length < third.chunks.filter((c) => c.file === 'beta.md').length + 1, `only new text of beta.md is sent (${sent.length})`);
    assert.ok(sent.every((text) => edited.includes(text)), 'every text sent is from the changed file');
    assert.ok(sent.some((text) => text.includes('two hours')));
    assert.equal(third.stored, third.chunks.length, 'the file\'s old chunks were replaced, not added to');
    assert.deepEqual(third.chunks.filter((c) => c.file !== 'beta.md'), first.chunks.filter((c) => c.file !== 'beta.md'));
    assert.equal(third.summary.embedded.texts, sent.length);
  });

  it('a removed file leaves the index and the store', async () => {
    const index = spec();
    await build(index);
    unlinkSync(path.join(folder, 'gamma.md'));
    const after = await build(index);
    assert.deepEqual(after.summary.files, { changed: 0, unchanged: 2, removed: 1 });
    assert.ok(!after.chunks.some((c) => c.file === 'gamma.md'));
    assert.equal(after.stored, after.chunks.length);
  });

  for (const stage of ['read', 'chunk', 'embed', 'store', 'optimize'] as const) {
    it(`cancelled at ${stage}, the next build finishes it: same chunks, no duplicates, nothing embedded twice`, async () => {
      const index = spec();
      const controller = new AbortController();
      const onProgress = (progress: IndexProgress) => {
        if (progress.stage === stage) controller.abort(new Error('cancelled by the test'));
      };
      let from = server.requests.length;
      await assert.rejects(build(index, { signal: controller.signal, onProgress }));
      const sentBefore = embeddedSince(from);
      from = server.requests.length;
      const resumed = await build(index);
      const sentAfter = embeddedSince(from);
      assert.equal(resumed.summary.files.changed, 3, 'the manifest was not written: every file is done again');
      assert.equal(resumed.stored, resumed.chunks.length, 'no chunk stored twice');
      assert.ok(!sentAfter.some((text) => sentBefore.includes(text)), 'what was embedded before the cancel came from the cache');
      assert.equal(new Set([...sentBefore, ...sentAfter]).size, resumed.chunks.length, 'every chunk embedded exactly once over both builds');
    });
  }

  it('the plan counts the tokens of what the next build embeds: all, then none, then the changed file\'s', async () => {
    const index = spec();
    const first = await planBuild(index, stateDir, new AbortController().signal);
    const built = await build(index);
    assert.equal(first.texts, built.chunks.length);
    assert.equal(first.inputTokens, built.chunks.reduce((sum, c) => sum + c.tokens, 0));
    assert.deepEqual(await planBuild(index, stateDir, new AbortController().signal), { files: { changed: 0, unchanged: 3, removed: 0 }, chunks: 0, cached: 0, texts: 0, inputTokens: 0 });
    writeFileSync(path.join(folder, 'gamma.md'), `${FILES['gamma.md']!}\nA new line about cups.\n`);
    const plan = await planBuild(index, stateDir, new AbortController().signal);
    assert.equal(plan.files.changed, 1);
    assert.ok(plan.texts > 0 && plan.texts < built.chunks.length);
    assert.equal((await planBuild(spec({ search: 'bm25', embeddings: undefined }), stateDir, new AbortController().signal)).texts, 0, 'BM25 embeds nothing');
  });

  it('dense search returns the brute-force cosine ranking of the fixture\'s vectors', async () => {
    const index = spec();
    const client = await embeddingClient(index);
    const built = await buildIndex({ spec: index, stateDir, embeddings: client, openStore: (dir) => openStore(index.store, dir, {}), signal: new AbortController().signal });
    try {
      const question = 'how fast does a kettle boil';
      const hits = await searchIndex(index, { chunks: built.chunks, store: built.store!, embeddings: client }, question, 4, new AbortController().signal);
      const q = hashEmbedding(question);
      const cosine = (v: number[]) => v.reduce((sum, x, i) => sum + x * q[i]!, 0);
      const expected = [...built.chunks].sort((a, b) => cosine(hashEmbedding(b.text)) - cosine(hashEmbedding(a.text))).slice(0, 4).map((c) => c.id);
      assert.deepEqual(hits.map((h) => h.id), expected);
      assert.ok(hits.every((h) => h.chunk !== undefined), 'each dense hit is placed in its file');
    } finally {
      await built.store!.close();
    }
  });
});
