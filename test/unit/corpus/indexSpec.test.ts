// `index:` in the eval file: loaded with its folder absolute and the defaults filled in, each mistake reported at its
// line with the fix (index: beside retriever:, dense search without a model, an overlap not below the size, store
// keys of another type), its folder kept inside under --contain, and what Restricted Mode asks about it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { indexHash } from '../../../src/core/corpus/indexDir.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { untrustedRetriever } from '../../../src/core/spec/retrieverSpec.js';
import { tempDir } from '../data/tempFiles.js';
import { loadProblems } from '../spec/loadProblems.js';

function evalFile(block: string): string {
  const dir = path.join(tempDir(), `index-spec-${Math.random().toString(36).slice(2)}`);
  mkdirSync(path.join(dir, 'ws', 'docs'), { recursive: true });
  writeFileSync(path.join(dir, 'ws', 'q.jsonl'), '{"question": "q", "answer": "a"}\n');
  const file = path.join(dir, 'ws', 'corpus.eval.yaml');
  writeFileSync(file, `version: 1\nmodels: [extractive:bm25]\n${block}\nsuites:\n  - id: rag\n    method: rag\n    dataset: q.jsonl\n`);
  return file;
}

test('index: loads with its folder resolved against the eval file and every default filled in', async () => {
  const file = evalFile('index:\n  folder: docs');
  const spec = await loadEvalSpec(file);
  assert.deepEqual(spec.index, {
    folder: path.join(path.dirname(file), 'docs'),
    include: [],
    exclude: [],
    chunking: { by: 'tokens', size: 256, overlap: 32 },
    search: 'bm25',
    hybrid: { weight: 0.5, rrfK: 60 },
    store: { type: 'embedded' },
  });
});

test('a hybrid index with a reranker and a pgvector store keeps variable names, never values', async () => {
  const spec = await loadEvalSpec(evalFile(`index:
  folder: docs
  include: ['**/*.md']
  chunking: { by: heading, size: 128, overlap: 16 }
  search: hybrid
  embeddings: { provider: openai-compatible, model: nomic-embed-text, baseUrl: http://localhost:11434/v1 }
  hybrid: { weight: 0.7 }
  rerank: { url: http://localhost:8080/rerank, headers: { Authorization: { env: RERANK_KEY, prefix: "Bearer " } } }
  store: { type: pgvector, urlEnv: DATABASE_URL }`));
  const index = spec.index!;
  assert.equal(index.search, 'hybrid');
  assert.deepEqual(index.hybrid, { weight: 0.7, rrfK: 60 });
  assert.deepEqual(index.embeddings, { provider: 'openai-compatible', model: 'nomic-embed-text', baseUrl: 'http://localhost:11434/v1', parameters: {} });
  assert.deepEqual(index.rerank, { url: 'http://localhost:8080/rerank', candidates: 50, headers: { Authorization: { env: 'RERANK_KEY', prefix: 'Bearer ' } }, timeoutMs: 30000 });
  assert.deepEqual(index.store, { type: 'pgvector', urlEnv: 'DATABASE_URL', table: 'rag_chunks', existing: false, columns: { id: 'id', text: 'text', vector: 'embedding' } });
  // The index folder's name depends on what its contents depend on, not on how it is searched.
  assert.equal(indexHash(index), indexHash({ ...index, hybrid: { weight: 0.2, rrfK: 10 }, rerank: undefined }));
  assert.notEqual(indexHash(index), indexHash({ ...index, chunking: { by: 'heading', size: 64, overlap: 16 } }));
  assert.notEqual(indexHash(index), indexHash({ ...index, embeddings: { ...index.embeddings!, model: 'other' } }));
});

test('index: beside retriever: is refused at index:, saying which to keep', async () => {
  const [message, ...rest] = await loadProblems(evalFile('retriever: { type: command, command: [node, r.mjs] }\nindex: { folder: docs }'));
  assert.deepEqual(rest, []);
  assert.match(message!, /corpus\.eval\.yaml:4:1: index: and retriever: both say where the rag method's passages come from/);
  assert.match(message!, /keep index: to search this folder .*, or retriever: to call your own retriever; remove the other/);
});

test('dense search without a model, a model BM25 does not use, hybrid settings without hybrid search and an overlap not below the size are named at their lines', async () => {
  const dense = await loadProblems(evalFile('index:\n  folder: docs\n  search: dense'));
  assert.match(dense.join('\n'), /:5:\d+: search: dense needs an embedding model in index\.embeddings/);
  const unused = await loadProblems(evalFile('index:\n  folder: docs\n  embeddings: openai:text-embedding-3-small\n  hybrid: { weight: 0.5 }'));
  assert.match(unused.join('\n'), /:5:\d+: index\.embeddings is not used by search: bm25/);
  assert.match(unused.join('\n'), /:6:\d+: index\.hybrid applies to search: hybrid, not bm25/);
  const overlap = await loadProblems(evalFile('index:\n  folder: docs\n  chunking: { size: 64, overlap: 64 }'));
  assert.match(overlap.join('\n'), /chunk overlap \(64 tokens\) must be less than the chunk size \(64\)/);
  const badProvider = await loadProblems(evalFile('index:\n  folder: docs\n  search: dense\n  embeddings: anthropic:claude'));
  assert.match(badProvider.join('\n'), /provider "anthropic" cannot make embeddings/);
});

test('store keys of another type and a missing connection variable or url are named', async () => {
  const found = await loadProblems(evalFile('index:\n  folder: docs\n  store: { type: qdrant, table: x }'));
  assert.ok(found.some((m) => /index\.store\.table does not apply to a qdrant store/.test(m)), found.join('\n'));
  assert.ok(found.some((m) => /a qdrant store needs url:/.test(m)), found.join('\n'));
  assert.ok((await loadProblems(evalFile('index:\n  folder: docs\n  store: { type: pgvector }'))).some((m) => /a pgvector store needs urlEnv/.test(m)));
  const existing = await loadProblems(evalFile('index:\n  folder: docs\n  store: { type: pgvector, urlEnv: DATABASE_URL, existing: true }'));
  assert.match(existing.join('\n'), /:5:\d+: search: bm25 needs this folder's chunks, but existing: true searches your own table as it is/);
  assert.doesNotMatch(existing.join('\n'), /rag-inspector index/, 'a hint every surface can show: no CLI command');
});

test('--contain keeps the index folder inside the workspace', async () => {
  const file = evalFile('index:\n  folder: ../outside');
  const found = await loadProblems(file, { contain: { roots: [path.dirname(file)], reason: 'contained', hint: 'move it inside' } });
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /:4:\d+: contained: index folder .*outside.* is outside/);
  await loadEvalSpec(evalFile('index:\n  folder: docs'), { contain: { roots: [tempDir()], reason: 'contained', hint: 'h' } });
});

test('Restricted Mode: the index runs nothing the workspace chose; its reranker is an endpoint to ask about', async () => {
  const plain = await loadEvalSpec(evalFile('index:\n  folder: docs'));
  assert.equal(untrustedRetriever(plain), undefined);
  const reranked = await loadEvalSpec(evalFile('index:\n  folder: docs\n  rerank: { url: http://rerank.example/rerank }'));
  assert.deepEqual(untrustedRetriever(reranked), { endpoint: 'http://rerank.example/rerank' });
});
