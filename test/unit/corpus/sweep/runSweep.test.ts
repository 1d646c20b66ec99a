// The sweep's retrieval part through real retriever processes: each question asked once per query-time setting (at its
// largest k, every smaller k a prefix), span labels across chunkings, the best cell and its paired test.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { paramsPerCell } from '../../../../src/core/corpus/sweep/cellRetriever.js';
import { expandGrid } from '../../../../src/core/corpus/sweep/grid.js';
import { readSweepQuestions } from '../../../../src/core/corpus/sweep/questions.js';
import type { SweepQuestion } from '../../../../src/core/corpus/sweep/questions.js';
import { bestCell, runSweep } from '../../../../src/core/corpus/sweep/runSweep.js';
import type { SweepCellResult } from '../../../../src/core/corpus/sweep/runSweep.js';
import { createCommandRetriever } from '../../../../src/core/retrieval/command.js';
import type { Retriever } from '../../../../src/core/retrieval/contract.js';
import { qrelsOf, questionMetrics, rankedIds } from '../../../../src/core/retrieval/metrics.js';
import { labelledRetrieval } from '../../../../src/core/retrieval/qrels.js';
import { createRetrievalMetricsAggregator } from '../../../../src/core/retrieval/metricsAggregator.js';
import { mcnemarExact } from '../../../../src/core/pairedStats.js';
import { loadEvalSpec } from '../../../../src/core/spec/load.js';

const EXAMPLE = path.resolve(__dirname, '../../../../examples/sweep');
const FIXTURES = path.resolve(__dirname, '../../../fixtures/retrievers');
const never = new AbortController().signal;

/** A retriever whose calls are counted per (question, params) as they reach it. */
function counting(inner: Retriever): { retriever: Retriever; calls: { question: string; k: number; params: unknown }[] } {
  const calls: { question: string; k: number; params: unknown }[] = [];
  return {
    calls,
    retriever: { ...inner, retrieve: (request, signal) => (calls.push({ question: request.question, k: request.k, params: request.params }), inner.retrieve(request, signal)) },
  };
}

describe('runSweep', () => {
  it('asks each question once per query-time setting at its largest k, and every smaller k reads that ranking', async () => {
    const spec = await loadEvalSpec(path.join(EXAMPLE, 'sweep.eval.yaml'));
    const { questions, problems } = await readSweepQuestions(spec, undefined, never);
    assert.deepEqual(problems, []);
    assert.equal(questions.length, 23);
    const script = createCommandRetriever({ type: 'command', command: [process.execPath, 'retrieve.mjs'], cwd: EXAMPLE, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
    const { retriever, calls } = counting(script);
    try {
      const grid = expandGrid({ chunkSize: [16, 32], overlap: [0, 4], k: [1, 3, 5] }, { chunkSize: 64, overlap: 0, k: 3 });
      assert.equal(grid.cells.length, 13); // 12 listed + the current setting (64 words, no overlap, k 3)
      const result = await runSweep({ grid, questions, retrieverForCell: paramsPerCell(retriever), seed: 7, signal: never, resamples: 200 });
      assert.equal(calls.length, 23 * 5);
      assert.equal(result.retrievals, 23 * 5);
      const perQuestionAndSetting = new Map<string, number>();
      for (const call of calls) {
        const key = `${call.question}\u0000${JSON.stringify(call.params)}`;
        perQuestionAndSetting.set(key, (perQuestionAndSetting.get(key) ?? 0) + 1);
      }
      assert.equal(perQuestionAndSetting.size, 23 * 5);
      assert.ok([...perQuestionAndSetting.values()].every((n) => n === 1));
      assert.deepEqual([...new Set(calls.map((c) => c.k))].sort(), [3, 5]);

      // A cell at k = 1 reads the first passage of the k = 5 ranking: the same numbers as asking for 1 directly.
      const cell = result.cells.find((c) => c.key === 'chunkSize=16 overlap=4 k=1')!;
      let hits = 0;
      for (const question of questions) {
        const direct = await script.retrieve({ question: question.question, k: 1, params: { chunkSize: 16, overlap: 4 } }, never);
        const record = { retriever: 'r', k: 1, ...labelledRetrieval(direct.items, 1, question.labels) };
        hits += questionMetrics(rankedIds(record), qrelsOf(record), [1])!.hitRate[0]!;
      }
      assert.equal(cell.metrics.hit_rate.value, hits / 23);
      assert.equal(cell.metrics.hit_rate.n, 23);
      assert.ok(typeof cell.metrics.ndcg.low === 'number' && typeof cell.metrics.ndcg.high === 'number');
      // Recall at a cell's k never falls as k grows over the same ranking.
      for (const size of [16, 32]) for (const overlap of [0, 4]) {
        const recall = [1, 3, 5].map((k) => result.cells.find((c) => c.key === `chunkSize=${size} overlap=${overlap} k=${k}`)!.metrics.recall.value as number);
        assert.ok(recall[0]! <= recall[1]! && recall[1]! <= recall[2]!, `${size}/${overlap}: ${recall.join(', ')}`);
      }
      assert.equal(result.cells.filter((c) => c.best).length, 1);
      assert.equal(result.current, 'current (chunkSize=64 overlap=0 k=3)');
    } finally {
      await script.close!();
    }
  });

  it('marks the planted best cell and tests it pair by pair against the current setting', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sweep-planted-'));
    const names = Array.from({ length: 20 }, (_, i) => `question ${i + 1}`);
    // Current (chunkSize 100): the relevant chunk third for every question; 200: first; 300: first for half, absent for the rest.
    const plan = {
      100: Object.fromEntries(names.map((q) => [q, 3])),
      200: Object.fromEntries(names.map((q) => [q, 1])),
      300: Object.fromEntries(names.map((q, i) => [q, i % 2 === 0 ? 1 : 0])),
    };
    writeFileSync(path.join(dir, 'plan.json'), JSON.stringify(plan));
    const callLog = path.join(dir, 'calls.txt');
    writeFileSync(callLog, '');
    const questions: SweepQuestion[] = names.map((question, i) => ({ id: `q${i + 1}`, question, labels: { source: 'span', spans: [{ file: 'doc.md', start: 1000, end: 1010, grade: 1 }] }, row: { file: 'questions.jsonl', line: i + 1, index: i } }));
    const script = createCommandRetriever({ type: 'command', command: [process.execPath, path.join(FIXTURES, 'plantedSweep.mjs'), path.join(dir, 'plan.json'), callLog], cwd: dir, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
    try {
      const grid = expandGrid({ chunkSize: [100, 200, 300], k: [1, 3] }, { chunkSize: 100, k: 3 });
      const byNdcg = await runSweep({ grid, questions, retrieverForCell: paramsPerCell(script), seed: 11, signal: never, resamples: 200 });
      assert.equal(readFileSync(callLog, 'utf8').trim().split('\n').length, 20 * 3);
      const value = (key: string) => byNdcg.cells.find((c) => c.key === key)!.metrics.ndcg.value;
      assert.equal(value('chunkSize=100 k=3'), 1 / Math.log2(4));
      assert.equal(value('chunkSize=100 k=1'), 0);
      assert.equal(value('chunkSize=200 k=1'), 1);
      assert.equal(value('chunkSize=300 k=3'), 0.5);
      // nDCG 1 at k 1 and at k 3 for chunkSize 200: the first in grid order is marked.
      assert.equal(byNdcg.best?.key, 'chunkSize=200 k=1');
      assert.deepEqual(byNdcg.cells.filter((c) => c.best).map((c) => c.key), ['chunkSize=200 k=1']);
      assert.equal(byNdcg.current, 'chunkSize=100 k=3');
      const verdict = byNdcg.best?.vsCurrent;
      assert.equal(verdict?.test, 'paired-bootstrap');
      assert.equal(verdict?.n, 20);
      assert.ok(Math.abs(verdict!.difference - (1 - 1 / Math.log2(4))) < 1e-12);
      assert.equal(verdict?.significant, true);
      assert.deepEqual(byNdcg.cells.find((c) => c.key === 'chunkSize=100 k=3')!.ranks, names.map(() => 3));

            const byHit = await runSweep({ grid, questions, retrieverForCell: paramsPerCell(script), metric: 'hit_rate', seed: 11, signal: never, resamples: 200 });
      // The current setting already hits every question at k 3 (the first such cell): it is the best, with nothing to test.
      assert.equal(byHit.best?.key, 'chunkSize=100 k=3');
      assert.equal(byHit.best?.vsCurrent, undefined);
      // By hit rate at k = 1: every question fixed, none broken, so McNemar's exact p.
      const atOne = expandGrid({ chunkSize: [100, 200], k: [1] }, { chunkSize: 100, k: 1 });
      const fixed = await runSweep({ grid: atOne, questions, retrieverForCell: paramsPerCell(script), metric: 'hit_rate', seed: 11, signal: never, resamples: 200 });
      assert.equal(fixed.best?.key, 'chunkSize=200 k=1');
      assert.equal(fixed.best?.vsCurrent?.p, mcnemarExact(0, 20));
      assert.equal(fixed.best?.vsCurrent?.difference, 1);
      assert.equal(fixed.best?.vsCurrent?.significant, true);
    } finally {
      await script.close!();
    }
  });

  it('measures a chunk holding two relevant spans as the rag method does: both spans found', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sweep-two-spans-'));
    writeFileSync(path.join(dir, 'plan.json'), JSON.stringify({ 100: { 'q?': 1 } }));
    writeFileSync(path.join(dir, 'calls.txt'), '');
    // Both spans lie in the relevant chunk (990-1020); the third is in a file nothing returns.
    const labels = { source: 'span' as const, spans: [{ file: 'doc.md', start: 1000, end: 1005, grade: 1 }, { file: 'doc.md', start: 1010, end: 1015, grade: 1 }, { file: 'c.md', start: 0, end: 9, grade: 1 }] };
    const questions: SweepQuestion[] = [{ id: 'q1', question: 'q?', labels, row: { file: 'questions.jsonl', line: 1, index: 0 } }];
    const script = createCommandRetriever({ type: 'command', command: [process.execPath, path.join(FIXTURES, 'plantedSweep.mjs'), path.join(dir, 'plan.json'), path.join(dir, 'calls.txt')], cwd: dir, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
    try {
      const result = await runSweep({ grid: expandGrid({ chunkSize: [100], k: [2] }, { chunkSize: 100, k: 2 }), questions, retrieverForCell: paramsPerCell(script), seed: 3, signal: never, resamples: 50 });
      const cell = result.cells[0]!;
      assert.equal(cell.metrics.recall.value, 2 / 3);
      // The rag method's report of the same ranking gives the same numbers.
      const items = (await script.retrieve({ question: 'q?', k: 2, params: { chunkSize: 100 } }, never)).items;
      const rag = createRetrievalMetricsAggregator({ suiteId: 'rag', ks: [2], seed: 3, resamples: 50 });
      rag.add({ retriever: script.identity, k: 2, ...labelledRetrieval(items, 2, labels) });
      const table = rag.finish().tables.find((t) => t.id === 'rag-retrieval')!;
      for (const [row, name] of (['recall', 'precision', 'hit_rate', 'ndcg', 'mrr', 'r_precision'] as const).entries()) {
        assert.equal(table.rows[row]!.cells[0]!.value, cell.metrics[name].value, name);
      }
    } finally {
      await script.close!();
    }
  });

  it('counts a failed retrieval on its cells and keeps measuring the others', async () => {
    const questions: SweepQuestion[] = [{ id: 'q1', question: 'Sun', labels: { source: 'span', spans: [{ file: 'sun.md', start: 11, end: 124, grade: 1 }] }, row: { file: 'q.jsonl', line: 1, index: 0 } }];
    const script = createCommandRetriever({ type: 'command', command: [process.execPath, 'retrieve.mjs'], cwd: EXAMPLE, mode: 'persistent', timeoutMs: 30_000 }, { env: process.env });
    try {
      // The example's script refuses an overlap at or above the chunk size: that setting's cells count an error.
      const grid = expandGrid({ overlap: [0, 16], k: [3] }, { k: 3 });
      const result = await runSweep({ grid, questions, retrieverForCell: (setting) => paramsPerCell(script)({ ...setting, settings: { ...setting.settings, chunkSize: 16 } }), seed: 1, signal: never, resamples: 50 });
      const broken = result.cells.find((c) => c.key === 'overlap=16 k=3')!;
      assert.equal(broken.errors, 1);
      assert.match(broken.firstError!, /q1: .*overlap must be below the chunk size/);
      assert.equal(broken.metrics.recall.value, null);
      assert.equal(result.cells.find((c) => c.key === 'overlap=0 k=3')!.metrics.recall.value, 1);
      assert.match(result.notes.join('\n'), /Retrieval failed for some questions in 1 cell/);

      // A setting whose retriever cannot even be made fails its cells; the other settings are still measured.
      const unmade = await runSweep({
        grid, questions, seed: 1, signal: never, resamples: 50,
        retrieverForCell: (setting) => {
          if (setting.settings.overlap === 16) throw new Error('the index could not be built: disk full');
          return paramsPerCell(script)({ ...setting, settings: { ...setting.settings, chunkSize: 16 } });
        },
      });
      assert.equal(unmade.cells.find((c) => c.key === 'overlap=16 k=3')!.errors, 1);
      assert.equal(unmade.cells.find((c) => c.key === 'overlap=16 k=3')!.firstError, 'the index could not be built: disk full');
      assert.equal(unmade.cells.find((c) => c.key === 'overlap=0 k=3')!.metrics.recall.value, 1);
      assert.doesNotMatch(unmade.notes.join('\n'), /labelled by document ids/);

      // Ids name one chunking's chunks: a sweep over chunkings says they do not hold across it.
      const byIds = await runSweep({
        grid: expandGrid({ chunkSize: [16, 32], k: [3] }, { k: 3 }), seed: 1, signal: never, resamples: 50, retrieverForCell: paramsPerCell(script),
        questions: [{ ...questions[0]!, labels: { source: 'relevant_ids', qrels: new Map([['sun.md#11-124', 1]]) } }],
      });
      assert.match(byIds.notes.join('\n'), /1 question is labelled by document ids, which name the chunks of one chunking/);
    } finally {
      await script.close!();
    }
  });
});

describe('bestCell', () => {
  const cell = (key: string, ndcg: number | null, current = false): SweepCellResult => ({
    key, settings: { k: 1 }, current, best: false, errors: 0, ranks: [], values: [],
    metrics: { recall: { value: null }, precision: { value: null }, hit_rate: { value: null }, ndcg: { value: ndcg, n: 3 }, mrr: { value: null }, r_precision: { value: null } },
  });
  it('takes the highest mean, the first among equals, the current setting when it ties, and nothing unmeasured', () => {
    assert.equal(bestCell([cell('a', 0.5), cell('b', 0.9), cell('c', 0.9)], 'ndcg')?.key, 'b');
    assert.equal(bestCell([cell('a', 0.5), cell('b', 0.9), cell('c', 0.9, true)], 'ndcg')?.key, 'c');
    assert.equal(bestCell([cell('a', null), cell('b', 0.1)], 'ndcg')?.key, 'b');
    assert.equal(bestCell([cell('a', null)], 'ndcg'), undefined);
  });
});
