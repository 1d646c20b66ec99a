// Every worked example of METHODS.md §2, to the digit: grids, sigmoid depths, insertions, judge parsing, means, rails.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { snapToRail, railVerdict } from '../../../src/core/suites/needle/arize.js';
import { linspace, logisticDepth, depthPercents, roundHalfEven, roundedLinspace } from '../../../src/core/suites/needle/grid.js';
import { buildCell } from '../../../src/core/suites/needle/insert.js';
import { parseRating } from '../../../src/core/suites/needle/judge.js';
import { needleReport } from '../../../src/core/suites/needle/report.js';
import type { EvalCase } from '../../../src/core/model.js';
import { charIndex, params, result } from './builders.js';

describe('grids (numpy rounding, half to even)', () => {
  it('linspace(1000, 16000, 35) rounds to [1000, 1441, 1882, 2324, …, 15559, 16000]', () => {
    const lengths = roundedLinspace(1000, 16000, 35);
    assert.equal(lengths.length, 35);
    assert.deepEqual(lengths.slice(0, 4), [1000, 1441, 1882, 2324]);
    assert.deepEqual(lengths.slice(-2), [15559, 16000]);
  });

  it('linspace(0, 100, 9) gives 12 and 62 for 12.5 and 62.5 (Math.round would give 13 and 63)', () => {
    assert.deepEqual(linspace(0, 100, 9), [0, 12.5, 25, 37.5, 50, 62.5, 75, 87.5, 100]);
    assert.deepEqual(depthPercents(0, 100, 9, 'linear'), [0, 12, 25, 38, 50, 62, 75, 88, 100]);
    assert.equal(Math.round(12.5), 13, 'the trap the port avoids');
    assert.deepEqual([0.5, 1.5, 2.5, -1.5, 2.4999, 2.5001].map(roundHalfEven), [0, 2, 2, -2, 2, 3]);
  });

  it('sigmoid over linspace(0, 100, 5) is [0, 92.414, 50.0, 7.586, 100], keeping 0 and 100', () => {
    assert.deepEqual(depthPercents(0, 100, 5, 'sigmoid'), [0, 92.414, 50, 7.586, 100]);
    assert.equal(logisticDepth(0), 0);
    assert.equal(logisticDepth(100), 100);
  });

  it('the default params are the reference grid: 35 lengths 1000..16000, 35 linear depths 0..100', () => {
    const p = params();
    assert.equal(p.contextLengths.length, 35);
    assert.equal(p.contextLengths[0], 1000);
    assert.equal(p.contextLengths.at(-1), 16000);
    assert.equal(p.depths.length, 35);
    assert.deepEqual([p.depths[0], p.depths[1], p.depths[17], p.depths[34]], [0, 3, 50, 100]);
    assert.equal(p.buffer, 200);
  });
});

describe('insertion with a character tokenizer (token = character)', () => {
  const haystack = charIndex('Alpha one. Bravo two. Charlie three. Delta four. Echo five. Foxtrot six.');
  const needle = charIndex('[N]');
  const cell = (contextLength: number, depthPercent: number) => buildCell(haystack, { contextLength, depthPercent, buffer: 10, needles: [needle] });

  it('L=50, d=50 → "Alpha one.[N] Bravo two. Charlie three. "', () => {
    const built = cell(50, 50);
    assert.equal(built.context, 'Alpha one.[N] Bravo two. Charlie three. ');
    assert.equal(built.haystackTokens, 37, '50 - buffer 10 - needle 3');
    assert.equal(built.placed[0]?.tokenIndex, 10, 'backed up from int(37 * 0.5) = 18 to just after "one."');
    assert.equal(built.placed[0]?.actualDepthPercent, (10 / 37) * 100);
    assert.deepEqual(built.spans, [{ needle: 0, start: 10, end: 13 }]);
  });

  it('L=50, d=10 → "[N]Alpha one. Bravo two. Charlie three. " (no sentence end before position 3)', () => {
    const built = cell(50, 10);
    assert.equal(built.context, '[N]Alpha one. Bravo two. Charlie three. ');
    assert.equal(built.placed[0]?.tokenIndex, 0);
    assert.equal(built.placed[0]?.actualDepthPercent, 0);
  });

  it('L=50, d=100 → "Alpha one. Bravo two. Charlie three. [N]" (appended, no back-up)', () => {
    const built = cell(50, 100);
    assert.equal(built.context, 'Alpha one. Bravo two. Charlie three. [N]');
    assert.equal(built.placed[0]?.actualDepthPercent, 100);
  });

  it('L=40, d=90 → "Alpha one. Bravo two.[N] Charl"', () => {
    const built = cell(40, 90);
    assert.equal(built.context, 'Alpha one. Bravo two.[N] Charl');
    assert.equal(built.placed[0]?.tokenIndex, 21);
  });

  it('multi-needle ["[A]", "[B]"], L=60, d=20 → "[A]Alpha one. Bravo two.[B] Charlie three. Delta f", percentages [0.0, 48.0]', () => {
    const built = buildCell(haystack, { contextLength: 60, depthPercent: 20, buffer: 10, needles: [charIndex('[A]'), charIndex('[B]')] });
    assert.equal(built.context, '[A]Alpha one. Bravo two.[B] Charlie three. Delta f');
    assert.deepEqual(built.placed.map((p) => p.insertionPercent), [0.0, 48.0]);
    assert.deepEqual(built.placed.map((p) => p.tokenIndex), [0, 24]);
    assert.deepEqual(built.spans.map((s) => built.context.slice(s.start, s.end)), ['[A]', '[B]']);
    assert.deepEqual(built.placed.map((p) => p.actualDepthPercent), [0, (21 / 44) * 100], 'haystack before each needle over the 44 kept');
  });

  it('multi-needle at depth 100: every needle appended in order, and no insertion percentage logged (the reference logs none there)', () => {
    const built = buildCell(haystack, { contextLength: 60, depthPercent: 100, buffer: 10, needles: [charIndex('[A]'), charIndex('[B]')] });
    assert.ok(built.context.endsWith('[A][B]'), built.context);
    assert.deepEqual(built.placed.map((p) => p.insertionPercent), [null, null]);
  });

  it('the reference rule ("." token only) gives the same cells when a token is a character', () => {
    const reference = buildCell(charIndex('Alpha one. Bravo two. Charlie three. Delta four. Echo five. Foxtrot six.', 'period-token'), { contextLength: 40, depthPercent: 90, buffer: 10, needles: [charIndex('[N]', 'period-token')] });
    assert.equal(reference.context, 'Alpha one. Bravo two.[N] Charl');
  });
});

describe('judge parsing, cell means and Arize rails', () => {
  it('"…Rating: [[7]]" → 7; "10" → judge error; malformed brackets are errors, never scores', () => {
    assert.deepEqual(parseRating('The answer matches the needle closely. Rating: [[7]]'), { rating: 7 });
    assert.ok('error' in parseRating('10'));
    assert.deepEqual(parseRating('Rating: [[10]]'), { rating: 10 });
    for (const bad of ['Rating: [[ 7 ]]', 'Rating: [[7.5]]', 'Rating: [[0]]', 'Rating: [[11]]', 'Rating: [[seven]]', 'Rating: [5]']) {
      assert.ok('error' in parseRating(bad), bad);
    }
    assert.deepEqual(parseRating('[[3]] then [[9]]'), { rating: 3 }, 'the first [[…]] counts, as re.search does');
  });

  it('a cell with scores 10 and 1 has mean 5.5', () => {
    const p = params({ contextLengths: [1000], depths: [50] });
    const evalCase = { id: 'c', suiteId: 's', params: { contextLength: 1000, requestedDepth: 50, negative: false, actualDepthPercent: 50 } } as unknown as EvalCase;
    const cases = new Map([['c', evalCase]]);
    const judged = (value: number) => [{ metric: 'judge_score', value, pass: value >= 7 }];
    const report = needleReport(cases, [result('c', 'm:a', judged(10)), result('c', 'm:a', judged(1))], p, 's');
    const cell = report.tables[0]?.rows[0]?.cells[0];
    assert.equal(cell?.value, 5.5);
    assert.equal(cell?.n, 2);
  });

  it('Arize, number 1234567: the sentence → correct; "UNANSWERABLE" → refusal; "1234567? unanswerable" → NOT_PARSABLE', () => {
    const rails = ['1234567', 'UNANSWERABLE'];
    const correct = snapToRail('The special magic Chicago number is: 1234567.', rails);
    assert.equal(correct, '1234567');
    assert.equal(railVerdict(correct, '1234567', false).label, 'pass');
    const refused = snapToRail('UNANSWERABLE', rails);
    assert.equal(refused, 'unanswerable');
    assert.deepEqual(railVerdict(refused, '1234567', false), { rail: 'unanswerable', label: 'refusal', pass: false, referenceScore: 10 });
    const both = snapToRail('1234567? unanswerable', rails);
    assert.equal(both, 'NOT_PARSABLE');
    assert.deepEqual(railVerdict(both, '1234567', false), { rail: 'NOT_PARSABLE', label: 'miss', pass: false, referenceScore: 5 });
    assert.equal(snapToRail('', rails), 'NOT_PARSABLE');
    assert.deepEqual(railVerdict('unanswerable', '1234567', true), { rail: 'unanswerable', label: 'refusal', pass: true, referenceScore: 1 }, 'negative test: refusing is right');
  });
});
