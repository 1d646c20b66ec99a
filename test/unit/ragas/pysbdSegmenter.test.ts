// The sentence rules RAGAS context relevance counts with, checked against pysbd's own English golden rules and
// regression cases (test/data/pysbd-golden-en.json) and against passages of the kinds RAG contexts hold.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { pysbdSegment } from '../../../src/core/suites/ragas/pysbd/segmenter.js';
import { countSentences } from '../../../src/core/suites/ragas/sentences.js';
import { TEST_DATA } from '../testData.js';

interface Golden { text: string; expected: string[]; issue?: string; xfailInPysbd?: boolean }
const golden = JSON.parse(readFileSync(path.join(TEST_DATA, 'pysbd-golden-en.json'), 'utf8')) as Golden[];

const sentences = (text: string) => pysbdSegment(text).map((s) => s.text);

describe('pysbd English rules', () => {
  it('meets every golden rule and regression case pysbd meets', () => {
    const cases = golden.filter((g) => !g.xfailInPysbd);
    assert.ok(cases.length >= 55, `${cases.length} cases`);
    for (const g of cases) assert.deepEqual(sentences(g.text), g.expected.map((e) => e.trim()), `${g.issue ?? ''} ${g.text}`);
  });

  it('abbreviations do not end a sentence; a sentence after them does', () => {
    assert.equal(countSentences('Dr. Smith discovered penicillin. It changed medicine.'), 2);
    assert.equal(countSentences('Many fruits, e.g. apples and pears, grow here. Bananas do not.'), 2);
    assert.equal(countSentences('Citrus fruit, i.e. oranges, is sold here. Mr. Jones sells it.'), 2);
    assert.equal(countSentences('See Fig. 3 for the results. They are final.'), 2);
    assert.equal(countSentences('The value is 3.14 approx. in most texts.'), 2, '"approx" is not in pysbd\'s list, so its period ends a sentence');
  });

  it('numbers, quotes and lists', () => {
    assert.equal(countSentences('Prices rose 3.5% in Q1 2024. Sales fell by 2.25 points.'), 2);
    assert.equal(countSentences('He said, "It is done." Then he left.'), 2);
    assert.equal(countSentences('She said "it is done." and left.'), 1);
    assert.equal(countSentences('Steps:\n1. Open the lid.\n2. Pour the water.\n3. Close it.'), 4);
    assert.equal(countSentences('- First point.\n- Second point.\n- Third point.'), 3);
    assert.equal(countSentences('Albert Einstein was a German-born theoretical physicist.\nHe developed the theory of relativity.'), 2);
  });

  it('locates each sentence in the original text, trailing whitespace excluded; blank text has none', () => {
    const text = 'Dr. Who arrived.  Then   he left!\nThe end';
    const spans = pysbdSegment(text);
    assert.deepEqual(spans.map((s) => text.slice(s.start, s.end)), ['Dr. Who arrived.', 'Then   he left!', 'The end']);
    assert.deepEqual(pysbdSegment(''), []);
    assert.equal(countSentences('   '), 0);
  });
});
