// Relevance by source spans (relevant_spans): a passage overlapping a span is relevant with its grade, and the metrics
// count spans, so the labels hold across chunkings. Every number below is worked out by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RetrievedItem } from '../../../../src/core/retrieval/contract.js';
import { qrelsOf, questionMetrics, rankedIds, recordMetrics } from '../../../../src/core/retrieval/metrics.js';
import { labelledRetrieval, spansOfRow } from '../../../../src/core/retrieval/qrels.js';
import type { RowSpans } from '../../../../src/core/retrieval/qrels.js';

const at = (file: string, startChar: number, endChar: number): RetrievedItem => ({ id: `${file}#${startChar}-${endChar}`, text: 'x', metadata: { file, startChar, endChar } });

const labels = (spans: [string, number, number, number?][]): RowSpans => ({ source: 'span', spans: spans.map(([file, start, end, grade]) => ({ file, start, end, grade: grade ?? 1 })) });

describe('relevant_spans', () => {
  it('labels each passage by the spans it overlaps and credits each span once', () => {
    const items = [at('a.md', 0, 50), at('a.md', 90, 120), at('a.md', 150, 260), { id: 'no-position', text: 'x' }, at('a.md', 100, 101)];
    const spans = labels([['a.md', 100, 200, 2], ['a.md', 250, 300], ['c.md', 0, 10]]);
    const { candidates, relevant } = labelledRetrieval(items, 3, spans);
    assert.deepEqual(candidates.map((c) => c.relevance), [0, 2, 2, undefined, 2]);
    assert.deepEqual(candidates.map((c) => c.labelSource), ['span', 'span', 'span', undefined, 'span']);
    assert.deepEqual(candidates.map((c) => c.sent), [true, true, true, false, false]);
    // span 1 → the rank-2 passage (first over it), span 2 → rank 3, span 3 never retrieved.
    assert.deepEqual(relevant, [{ id: 'a.md#90-120', grade: 2 }, { id: 'a.md#150-260', grade: 1 }, { id: 'span:c.md#0-10', grade: 1 }]);

    const record = { retriever: 'r', k: 3, candidates, relevant };
    const qrels = qrelsOf(record);
    // The rank-5 passage over span 1 (already credited) is shown relevant but is not another relevant document.
    assert.deepEqual([...qrels], [['a.md#90-120', 2], ['a.md#150-260', 1], ['span:c.md#0-10', 1]]);
    const m = questionMetrics(rankedIds(record), qrels, [3])!;
    assert.equal(m.relevant, 3);
    assert.equal(m.firstRelevantRank, 2);
    assert.equal(m.recall[0], 2 / 3);
    assert.equal(m.precision[0], 2 / 3);
    assert.equal(m.reciprocalRank, 1 / 2);
    const dcg = 2 / Math.log2(3) + 1 / Math.log2(4);
    const idcg = 2 / Math.log2(2) + 1 / Math.log2(3) + 1 / Math.log2(4);
    assert.ok(Math.abs(m.ndcg[0]! - dcg / idcg) < 1e-12);
  });

  it('gives the same recall whether a chunking keeps the span whole or cuts it in three', () => {
    const spans = labels([['doc.md', 100, 160]]);
    const whole = labelledRetrieval([at('doc.md', 80, 200), at('other.md', 0, 40)], 2, spans);
    const cut = labelledRetrieval([at('doc.md', 90, 120), at('doc.md', 120, 140), at('doc.md', 140, 170)], 3, spans);
    const measure = (r: typeof whole) => questionMetrics(rankedIds({ retriever: 'r', k: 3, ...r }), qrelsOf({ retriever: 'r', k: 3, ...r }), [1, 3])!;
    assert.deepEqual(measure(whole).recall, [1, 1]);
    assert.deepEqual(measure(cut).recall, [1, 1]);
    // Three chunks of one span are one relevant document: precision@3 is 1/3, not 3/3.
    assert.equal(measure(cut).precision[1], 1 / 3);
    assert.equal(measure(cut).relevant, 1);
  });

  it('counts a passage holding two spans as finding both: recall over spans, nDCG as two passages in a row', () => {
    // A multi-hop question: two evidence spans in doc.md, a third in c.md that nothing retrieves.
    const spans = labels([['doc.md', 100, 150], ['doc.md', 300, 350], ['c.md', 0, 10]]);
    const big = labelledRetrieval([at('other.md', 0, 40), at('doc.md', 0, 400)], 2, spans);
    // The passage is named once per span it holds.
    assert.deepEqual(big.relevant, [{ id: 'doc.md#0-400', grade: 1 }, { id: 'doc.md#0-400', grade: 1 }, { id: 'span:c.md#0-10', grade: 1 }]);
    const m = recordMetrics({ retriever: 'r', k: 2, ...big }, [1, 2])!;
    assert.equal(m.relevant, 3);
    assert.deepEqual(m.recall, [0, 2 / 3]);
    // Of the two passages sent, one was useful.
    assert.deepEqual(m.precision, [0, 1 / 2]);
    assert.deepEqual(m.hitRate, [0, 1]);
    assert.equal(m.reciprocalRank, 1 / 2);
    // Two spans found in the first R = 3 passages.
    assert.equal(m.rPrecision, 2 / 3);
    // The two spans take ranks 2 and 3; the ideal is taken over those three ranks.
    const dcg = 1 / Math.log2(3) + 1 / Math.log2(4);
    const idcg = 1 + 1 / Math.log2(3) + 1 / Math.log2(4);
    assert.ok(Math.abs(m.ndcg[1]! - dcg / idcg) < 1e-12);

    // The same evidence cut into two chunks one after the other: the same recall and nDCG.
    const cut = labelledRetrieval([at('other.md', 0, 40), at('doc.md', 0, 200), at('doc.md', 200, 400)], 3, spans);
    const n = recordMetrics({ retriever: 'r', k: 3, ...cut }, [3])!;
    assert.equal(n.recall[0], 2 / 3);
    assert.ok(Math.abs(n.ndcg[0]! - m.ndcg[1]!) < 1e-12);

    // Every span in the first passage is a perfect retrieval: nothing above 1, nothing below.
    const whole = recordMetrics({ retriever: 'r', k: 1, ...labelledRetrieval([at('doc.md', 0, 400)], 1, labels([['doc.md', 100, 150, 2], ['doc.md', 300, 350]])) }, [1])!;
    assert.deepEqual([whole.recall[0], whole.precision[0], whole.ndcg[0], whole.rPrecision], [1, 1, 1, 1]);
  });

  it('ends a span where it says: touching ranges do not overlap, other files never do', () => {
    const { candidates } = labelledRetrieval([at('doc.md', 0, 100), at('doc.md', 160, 200), at('./doc.md', 159, 160), at('x/doc.md', 120, 130)], 4, labels([['doc.md', 100, 160]]));
    assert.deepEqual(candidates.map((c) => c.relevance), [0, 0, 1, 0]);
  });

  it('reads the column, and says what is wrong with a bad one', () => {
    assert.deepEqual(spansOfRow({ relevant_spans: [{ file: './a.md', start: 3, end: 9 }, { file: 'b\\c.md', start: 0, end: 1, grade: 2 }] }, 'relevant_spans'), {
      source: 'span',
      spans: [{ file: 'a.md', start: 3, end: 9, grade: 1 }, { file: 'b/c.md', start: 0, end: 1, grade: 2 }],
    });
    assert.equal(spansOfRow({}, 'relevant_spans'), undefined);
    assert.match(spansOfRow({ relevant_spans: 'a.md' }, 'relevant_spans') as string, /expected a list of spans/);
    assert.match(spansOfRow({ relevant_spans: [{ file: 'a.md', start: 9, end: 3 }] }, 'relevant_spans') as string, /relevant_spans\[0\]: expected whole-number character offsets with start < end/);
    assert.match(spansOfRow({ relevant_spans: [{ file: 'a.md', start: 0, end: 3, grade: 0 }] }, 'relevant_spans') as string, /relevant_spans\[0\]\.grade: expected a grade > 0/);
    assert.match(spansOfRow({ relevant_spans: [{ file: 'a.md', start: 0, end: 3, line: 2 }] }, 'relevant_spans') as string, /relevant_spans\[0\]\.line: unknown key/);
    assert.match(spansOfRow({ relevant_spans: [] }, 'relevant_spans') as string, /the list is empty/);
  });
});
