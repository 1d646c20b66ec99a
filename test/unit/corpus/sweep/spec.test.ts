// `sweep:` in the eval file: loaded into a SweepSpec, and each problem the schema cannot see named at its line.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { loadEvalSpec } from '../../../../src/core/spec/load.js';
import { loadProblems } from '../../spec/loadProblems.js';

const dir = mkdtempSync(path.join(tmpdir(), 'sweep-spec-'));
writeFileSync(path.join(dir, 'q.jsonl'), '{"question": "q", "relevant_ids": ["a"]}\n');

/** Each problem of the file as "line: message" (the hint after " — " left out). */
async function problems(yaml: string): Promise<string[]> {
  const file = path.join(dir, `e${Math.random().toString(36).slice(2)}.eval.yaml`);
  writeFileSync(file, yaml);
  return (await loadProblems(file)).map((problem) => {
    const [, line, message] = /:(\d+):\d+: (.*?)(?: — .*)?$/s.exec(problem) ?? [];
    return `${line}: ${message}`;
  });
}

const head = (source: string) => `version: 1
models: [extractive:bm25]
${source}
suites:
  - { id: rag, method: rag, dataset: q.jsonl }
`;

describe('sweep: in the eval file', () => {
  it('loads the bundled example\'s block', async () => {
    const spec = await loadEvalSpec(path.resolve(__dirname, '../../../../examples/sweep/sweep.eval.yaml'));
    assert.deepEqual(spec.sweep, { chunkSize: [8, 16, 32, 64], overlap: [0, 4], k: [1, 3, 5], metric: 'ndcg' });
  });

  it('reads embedding models in both forms', async () => {
    const file = path.join(dir, 'models.eval.yaml');
    writeFileSync(file, head('retriever: { type: command, command: [node, r.mjs] }\nsweep:\n  embeddings: [openai-compatible:nomic, { provider: openai, model: small, label: small }]\n  endToEnd: [{ embeddings: small }]'));
    const spec = await loadEvalSpec(file);
    assert.deepEqual(spec.sweep?.embeddings?.map((m) => [m.provider, m.model, m.label]), [['openai-compatible', 'nomic', undefined], ['openai', 'small', 'small']]);
  });

  it('names each problem at its line', async () => {
    assert.deepEqual(await problems(head('sweep:\n  k: [1, 3]')), ['3: a sweep needs something to search: an index: block, or a retriever: of type command or http that takes the cell\'s settings as params']);
    assert.deepEqual(await problems(head('retriever: { type: command, command: [node, r.mjs] }\nsweep:\n  chunkSize: [16]\n  overlap: [16, 32]')), ['6: every overlap is at least every chunk size: the grid has no cell']);
    assert.deepEqual(await problems(head('retriever: { type: command, command: [node, r.mjs] }\nsweep:\n  k: [1, 3]\n  endToEnd:\n    - { k: 5 }')), ['7: sweep.endToEnd[0].k: 5 is not one of the sweep\'s k values']);
    assert.deepEqual(await problems(head('retriever: { type: command, command: [node, r.mjs] }\nsweep:\n  k: [1]\n  suite: other')), ['6: sweep.suite: no suite "other" in this file']);
    assert.deepEqual(await problems(head('index: { folder: docs, search: bm25 }\nsweep:\n  rerank: [false, true]\n  hybridWeight: [0.5]')), [
      '5: sweep.rerank tries the reranker on, but index: has no rerank:',
      '6: sweep.hybridWeight applies to hybrid search, and the index searches by bm25',
    ]);
    assert.match((await problems(head('retriever: { type: command, command: [node, r.mjs] }\nsweep:\n  k: [1]\n  metric: accuracy')))[0]!, /^6: .*metric.*(recall|one of)/);
    assert.deepEqual(await problems(head('retriever: { type: command, command: [node, r.mjs] }\nsweep: {}')), ['4: the sweep lists no setting to try']);
  });
});

describe('the suite a sweep measures', () => {
  it('is named by the methods that read retrieval questions (from the registry), with the suites there are', async () => {
    const { sweepSuite } = await import('../../../../src/core/corpus/sweep/questions.js');
    const { retrievalQuestionMethods } = await import('../../../../src/core/suites/registry.js');
    assert.deepEqual(retrievalQuestionMethods(), ['rag']);
    const file = path.join(dir, 'nosuite.eval.yaml');
    const spec = { file, suites: [{ id: 'facts', method: 'rgb' }, { id: 'lab', method: 'rag' }] } as Parameters<typeof sweepSuite>[0];
    assert.equal(sweepSuite(spec).id, 'lab');
    assert.throws(() => sweepSuite({ file, suites: [spec.suites[0]!] }), (error: Error & { format(): string }) =>
      error.format() === `${file}: a sweep measures the questions of a suite with method: rag, and this file has none — add a suite with method: rag and a dataset of questions with relevant_spans or relevant_ids`);
    assert.throws(() => sweepSuite(spec, 'facts'), (error: Error & { format(): string }) => error.format() === `${file}: no suite "facts" with method: rag — the suites a sweep can measure are lab`);
  });
});
