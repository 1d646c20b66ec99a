// Relevance by source spans (relevant_spans): a passage overlapping a span is relevant with its grade, and the metrics
// count spans, so the labels hold across chunkings. Every number below is worked out by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { RetrievedItem } from '../../../../src/core/retrieval/contract.js';
import { qrelsOf, questionMetrics, rankedIds } from '../../../../src/core/retrieval/metrics.js';
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
