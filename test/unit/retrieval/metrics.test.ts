// Retrieval metrics against values worked out by hand (each test's comment shows the arithmetic), with trec_eval's
// edge cases: no relevant document, nothing retrieved, k beyond the list, graded labels, ties, repeated ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RankedPassage, RetrievalRecord } from '../../../src/core/retrieval/contract.js';
import {
  firstRelevantRank, hitRateAt, isLabelled, ndcgAt, precisionAt, qrelsOf, questionMetrics, rankedIds, recallAt, reciprocalRank, rPrecision,
} from '../../../src/core/retrieval/metrics.js';

const close = (actual: number | undefined, expected: number) => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${actual} ≉ ${expected}`);
};

// Binary labels, R = 3, one relevant document (z) never retrieved.
//   rank:  1  2  3  4  5
//   id:    a  b  c  d  e        relevant: b, d, z (z not retrieved); a judged not relevant
const ranked = ['a', 'b', 'c', 'd', 'e'];
const binary = new Map([['a', 0], ['b', 1], ['d', 1], ['z', 1]]);

test('recall@k: relevant in the top k over R, R counting the relevant never retrieved', () => {
  assert.equal(recallAt(ranked, binary, 1), 0); // a: 0/3
  close(recallAt(ranked, binary, 3), 1 / 3); // b: 1/3
  close(recallAt(ranked, binary, 5), 2 / 3); // b, d: 2/3
  close(recallAt(ranked, binary, 10), 2 / 3); // k beyond the list: still 2/3
});

test('precision@k divides by k even when fewer than k were retrieved (trec_eval P_k)', () => {
  assert.equal(precisionAt(ranked, binary, 1), 0);
  close(precisionAt(ranked, binary, 3), 1 / 3);
  close(precisionAt(ranked, binary, 5), 2 / 5);
  close(precisionAt(ranked, binary, 10), 2 / 10); // 5 retrieved, 2 relevant, divided by 10
});

test('hit rate@k, first relevant rank, reciprocal rank, R-precision', () => {
  assert.equal(hitRateAt(ranked, binary, 1), 0);
  assert.equal(hitRateAt(ranked, binary, 2), 1);
  assert.equal(firstRelevantRank(ranked, binary), 2);
  close(reciprocalRank(ranked, binary), 1 / 2);
  close(rPrecision(ranked, binary), 1 / 3); // R = 3: the top 3 (a, b, c) hold one relevant
});

test('nDCG@k: gain = grade, discount log2(rank + 1), the ideal from every relevant document incl. unretrieved', () => {
  // DCG@3 = 1/log2(3) (b at rank 2) = 0.6309297535714575
  // IDCG@3 = 1/log2(2) + 1/log2(3) + 1/log2(4) = 1 + 0.6309297535714575 + 0.5 (three relevant: b, d, z)
  close(ndcgAt(ranked, binary, 3), 0.2960819109658652);
  // DCG@5 adds d at rank 4: 1/log2(5) = 0.43067655807339306; IDCG@5 = IDCG@3 (only three relevant)
  close(ndcgAt(ranked, binary, 5), 0.49818925746641285);
  assert.equal(ndcgAt(ranked, binary, 1), 0);
});

test('graded labels: nDCG uses the grades; relevanceLevel moves what counts as relevant, not the gains', () => {
  // rank 1 a (grade 1), rank 2 b (0), rank 3 c (3); x (grade 2) not retrieved
  const graded = new Map([['a', 1], ['b', 0], ['c', 3], ['x', 2]]);
  const list = ['a', 'b', 'c'];
  // DCG@3 = 1/log2(2) + 3/log2(4) = 1 + 1.5 = 2.5; IDCG@3 = 3/1 + 2/log2(3) + 1/log2(4) = 4.761859507142915
  close(ndcgAt(list, graded, 3), 0.5250049893849101);
  close(ndcgAt(list, graded, 1), 1 / 3); // DCG@1 = 1, IDCG@1 = 3
  // Relevant = grade > 0: a, c, x (R = 3)
  close(recallAt(list, graded, 3), 2 / 3);
  assert.equal(reciprocalRank(list, graded), 1);
  close(rPrecision(list, graded), 2 / 3);
  // trec_eval -l 2: relevant = c, x (R = 2)
  const level = { relevanceLevel: 2 };
  close(recallAt(list, graded, 3, level), 1 / 2);
  close(precisionAt(list, graded, 3, level), 1 / 3);
  close(reciprocalRank(list, graded, level), 1 / 3);
  assert.equal(rPrecision(list, graded, level), 0); // top 2: a, b
  const metrics = questionMetrics(list, graded, [3], level);
  close(metrics?.ndcg[0], 0.5250049893849101); // the gains do not change with the level
});

test('a question with no relevant document is left out (undefined), every measure 0 if asked directly', () => {
  const none = new Map([['a', 0], ['b', 0]]);
  assert.equal(questionMetrics(['a', 'b'], none, [1, 5]), undefined);
  assert.equal(questionMetrics(['a'], new Map(), [1]), undefined);
  assert.equal(recallAt(['a'], none, 5), 0);
  assert.equal(ndcgAt(['a'], none, 5), 0);
  assert.equal(rPrecision(['a'], none), 0);
});

test('nothing retrieved: every measure 0, the first relevant rank null, and the question still counts', () => {
  const metrics = questionMetrics([], new Map([['x', 1]]), [1, 5]);
  assert.deepEqual(metrics, {
    relevant: 1, firstRelevantRank: null, recall: [0, 0], precision: [0, 0], hitRate: [0, 0], ndcg: [0, 0], reciprocalRank: 0, rPrecision: 0,
  });
});

test('an id repeated down the list counts once, at its first rank', () => {
  const repeated = ['a', 'b', 'a'];
  const qrels = new Map([['a', 1]]);
  assert.equal(recallAt(repeated, qrels, 3), 1); // not 2
  close(precisionAt(repeated, qrels, 3), 1 / 3);
  assert.equal(ndcgAt(repeated, qrels, 3), 1); // DCG = IDCG = 1
  // Two different relevant ids at several ranks each count: ranks 1 and 3 of [a, b, c]
  close(recallAt(['a', 'b', 'c'], new Map([['a', 1], ['c', 1]]), 3), 1);
});

function passage(rank: number, id: string, extra: Partial<RankedPassage> = {}): RankedPassage {
  return { rank, id, sent: false, ...extra };
}

test('ties keep the returned order: equal scores are not re-sorted by id as trec_eval would', () => {
  // trec_eval sorts equal scores by docno in reverse lexical order, which would put b first (RR 1); we keep a first.
  const record: RetrievalRecord = {
    retriever: 'test', k: 2,
    candidates: [passage(1, 'a', { score: 0.5, relevance: 0 }), passage(2, 'b', { score: 0.5, relevance: 1 })],
  };
  assert.deepEqual(rankedIds(record), ['a', 'b']);
  close(reciprocalRank(rankedIds(record), qrelsOf(record)), 1 / 2);
  // Candidates stored out of order are read by their rank.
  assert.deepEqual(rankedIds({ ...record, candidates: [passage(2, 'y'), passage(1, 'x')] }), ['x', 'y']);
});

test('the labels of a record: every relevant id, then the judged candidates it does not name', () => {
  const record: RetrievalRecord = {
    retriever: 'test', k: 1,
    candidates: [passage(1, 'a', { relevance: 0 }), passage(2, 'b', { relevance: 1 }), passage(3, 'x', { relevance: 1 }), passage(4, 'c')],
    relevant: [{ id: 'x', grade: 2 }],
  };
  assert.deepEqual([...qrelsOf(record)], [['x', 2], ['a', 0], ['b', 1]]);
  assert.equal(isLabelled(record), true);
  assert.equal(isLabelled({ retriever: 'test', k: 1, candidates: [passage(1, 'c')] }), false);
  assert.equal(isLabelled({ retriever: 'test', k: 1, candidates: [passage(1, 'c')], relevant: [] }), true);
});
