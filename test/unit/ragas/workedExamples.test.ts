// Every RAGAS worked example of the methods notes (§3), to the last digit, plus the edge rules around them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { answerRelevancyScore, cosineSimilarities, noncommittalFires } from '../../../src/core/suites/ragas/answerRelevancy.js';
import { averagePrecision } from '../../../src/core/suites/ragas/contextPrecision.js';
import { contextRecallScore } from '../../../src/core/suites/ragas/contextRecall.js';
import { contextRelevanceScore, isInsufficient } from '../../../src/core/suites/ragas/contextRelevance.js';
import { faithfulnessScore } from '../../../src/core/suites/ragas/faithfulness.js';
import { analyseNoise, noiseSensitivityScore } from '../../../src/core/suites/ragas/noiseSensitivity.js';
import type { NoiseMatrices } from '../../../src/core/suites/ragas/noiseSensitivity.js';
import { countSentences, splitSentences } from '../../../src/core/suites/ragas/sentences.js';

describe('faithfulness = Σ verdict / #statements', () => {
  it('[1,0,1,1] → 0.75', () => assert.equal(faithfulnessScore([1, 0, 1, 1]), 0.75));
  it('no statements → NaN (null), never 0 or 1', () => assert.equal(faithfulnessScore([]), null));
});

describe('context recall = attributed / total', () => {
  it('[1,1,0,0] → 0.5', () => assert.equal(contextRecallScore([1, 1, 0, 0]), 0.5));
  it('no classifications → NaN (null)', () => assert.equal(contextRecallScore([]), null));
});

describe('context precision: average precision with the reference\'s 1e-10', () => {
  const cases: [number[], number][] = [
    [[0, 1, 1], 0.5833333333041666],
    [[1, 0, 1], 0.8333333332916666],
    [[1, 0, 0], 0.9999999999],
    [[1, 1, 1], 0.9999999999666667],
    [[0, 0, 0], 0.0],
  ];
  for (const [verdicts, expected] of cases) {
    it(`${JSON.stringify(verdicts)} → ${expected}`, () => assert.equal(averagePrecision(verdicts, false), expected));
  }
  it('the exact form (the fix): a perfect ranking is 1, [0,1,1] is (1/2 + 2/3) / 2, all-zero stays 0', () => {
    assert.equal(averagePrecision([1, 1, 1], true), 1);
    assert.equal(averagePrecision([1, 0, 0], true), 1);
    assert.equal(averagePrecision([0, 1, 1], true), (0.5 + 2 / 3) / 2);
    assert.equal(averagePrecision([0, 0, 0], true), 0);
  });
});

describe('answer relevancy = mean cos × (0 when the noncommittal rule fires)', () => {
  const question = [1, 0];
  const generated = [[1, 0], [0.6, 0.8], [0, 1]];

  it('E(q)=[1,0], E(q_i)=[1,0],[0.6,0.8],[0,1], noncommittal [0,1,0] → 0.5333…', () => {
    const cosines = cosineSimilarities(question, generated);
    assert.deepEqual(cosines, [1, 0.6, 0]);
    assert.equal(answerRelevancyScore(cosines, [0, 1, 0], 'all'), 0.5333333333333333);
  });

  it('noncommittal [1,1,1] → 0, under either rule', () => {
    const cosines = cosineSimilarities(question, generated);
    assert.equal(answerRelevancyScore(cosines, [1, 1, 1], 'all'), 0);
    assert.equal(answerRelevancyScore(cosines, [1, 1, 1], 'any'), 0);
  });

  it('the rules differ on a mixed vote: "all" keeps the mean, "any" (before ragas PR #2327) zeroes it', () => {
    assert.equal(noncommittalFires([0, 1, 0], 'all'), false);
    assert.equal(noncommittalFires([0, 1, 0], 'any'), true);
    assert.equal(answerRelevancyScore([1, 0.6, 0], [0, 1, 0], 'any'), 0);
  });

  it('cosine can be negative and is scale-free', () => {
    assert.deepEqual(cosineSimilarities([2, 0], [[-3, 0], [0, 5]]), [-1, 0]);
  });

  it('a zero vector gives NaN, which the handler reports as undetermined', () => {
    assert.ok(Number.isNaN(cosineSimilarities([0, 0], [[1, 0]])[0]));
  });
});

describe('noise sensitivity', () => {
  // R2G: reference statement × context; R2A: response statement × context; G2A: response statement vs reference.
  const m: NoiseMatrices = {
    r2g: [[true, false], [false, false]],
    r2a: [[true, false], [false, true], [true, true]],
    g2a: [true, false, false],
  };

  it('R2G=[[1,0],[0,0]], R2A=[[1,0],[0,1],[1,1]], G2A=[1,0,0] → relevant 1/3, irrelevant 1/3', () => {
    assert.equal(noiseSensitivityScore(m, 'relevant'), 1 / 3);
    assert.equal(noiseSensitivityScore(m, 'irrelevant'), 1 / 3);
  });

  it('the intermediate vectors: context 0 is relevant, claim 2 wrong from a relevant context, claim 1 wrong from noise only', () => {
    const a = analyseNoise(m);
    assert.deepEqual(a.relevantContexts, [true, false]);
    assert.deepEqual(a.incorrect, [false, true, true]);
    assert.deepEqual(a.relevantFaithful, [true, false, true]);
    assert.deepEqual(a.irrelevantFaithful, [false, true, false]);
  });

  it('no response statements → NaN (null)', () => {
    assert.equal(noiseSensitivityScore({ r2g: [[true]], r2a: [], g2a: [] }, 'relevant'), null);
  });
});

describe('context relevance = min(extracted / total, 1)', () => {
  it('counts and caps', () => {
    assert.equal(contextRelevanceScore(2, 8), 0.25);
    assert.equal(contextRelevanceScore(9, 8), 1);
    assert.equal(contextRelevanceScore(0, 0), 0);
  });

  it('"Insufficient Information" (any case, optional period) or nothing extracted → 0', () => {
    assert.equal(isInsufficient(['Insufficient Information']), true);
    assert.equal(isInsufficient(['insufficient information.']), true);
    assert.equal(isInsufficient([]), true);
    assert.equal(isInsufficient(['Paris is the capital.']), false);
  });

  it('sentences are counted with their exact spans', () => {
    const text = 'Paris is in France. It is large!\nBerlin is in Germany.';
    const sentences = splitSentences(text);
    assert.deepEqual(sentences.map((s) => s.text), ['Paris is in France.', 'It is large!', 'Berlin is in Germany.']);
    for (const s of sentences) assert.equal(text.slice(s.start, s.end), s.text);
    assert.equal(countSentences('   '), 0);
  });
});
