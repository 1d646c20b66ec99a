// Cohen's κ and its interval against examples computed by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agreementOf, cohensKappa } from '../../../src/core/verdicts/agreement.js';

const close = (actual: number, expected: number, what: string) => assert.ok(Math.abs(actual - expected) < 1e-9, `${what}: ${actual} ≠ ${expected}`);

describe("Cohen's κ", () => {
  it('[[20, 5], [10, 15]]: po 0.7, pe 0.5, κ 0.4; var = (0.10972 + 0.10188 − 0.01) / 12.5 = 0.016128', () => {
    // By hand: marginals rows (0.5, 0.5), columns (0.6, 0.4). Diagonal terms 0.4·(1 − 1.1·0.6)² + 0.3·(1 − 0.9·0.6)²
    // = 0.04624 + 0.06348; off-diagonal 0.36·(0.1·1.1² + 0.2·0.9²) = 0.10188; (κ − pe(1 − κ))² = 0.1² = 0.01.
    const k = cohensKappa([[20, 5], [10, 15]])!;
    close(k.value, 0.4, 'κ');
    close(k.se, Math.sqrt(0.016128), 'se');
    close(k.low, 0.4 - 1.959963984540054 * Math.sqrt(0.016128), 'low');
    close(k.high, 0.4 + 1.959963984540054 * Math.sqrt(0.016128), 'high');
  });

  it('perfect agreement is 1 with no width; agreement no better than chance is 0; one label only is undefined', () => {
    const perfect = cohensKappa([[7, 0], [0, 3]])!;
    assert.deepEqual([perfect.value, perfect.low, perfect.high], [1, 1, 1]);
    close(cohensKappa([[25, 25], [25, 25]])!.value, 0, 'chance');
    assert.equal(cohensKappa([[10, 0], [0, 0]]), null);
    assert.equal(cohensKappa([[0, 4], [0, 1]]), null, 'the person said "wrong" to every case');
    assert.equal(cohensKappa([[0, 0], [0, 0]]), null);
  });

  it('agreementOf: the matrix, accuracy with its Wilson interval, and the keys that disagree', () => {
    const a = agreementOf([
      { key: 'a', judge: true, human: true }, { key: 'b', judge: true, human: false }, { key: 'c', judge: false, human: false }, { key: 'd', judge: false, human: false },
    ]);
    assert.deepEqual(a.matrix, { passCorrect: 1, passWrong: 1, failCorrect: 0, failWrong: 2 });
    assert.equal(a.accuracy.value, 0.75);
    assert.ok(a.accuracy.low < 0.75 && a.accuracy.high > 0.75);
    // po 0.75; rows (0.5, 0.5), columns (0.25, 0.75); pe 0.5; κ = 0.25 / 0.5.
    close(a.kappa!.value, 0.5, 'κ');
    assert.deepEqual(a.disagreements, ['b']);
  });
});
