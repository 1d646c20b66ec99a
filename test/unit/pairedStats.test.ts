// Paired statistics against values computed by hand (Python's exact integer arithmetic: math.comb for the binomial
// tails, and the Clopper–Pearson bounds by bisection on them), including the small-n and n = 0 edge cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectableChange, exactPairedInterval, mcnemarExact, pairedBootstrap } from '../../src/core/pairedStats.js';

const close = (actual: number | undefined, expected: number, digits = 12) => {
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 10 ** -digits, `${actual} ≉ ${expected}`);
};

test('exact McNemar: the two-sided binomial tail of the discordant pairs, hand-computed', () => {
  assert.equal(mcnemarExact(0, 0), 1, 'no discordant pair: nothing speaks for a change');
  close(mcnemarExact(0, 5), 0.0625); // 2 · 1/32
  close(mcnemarExact(0, 6), 0.03125); // 2 · 1/64: the fewest pairs that reach 0.05
  close(mcnemarExact(1, 6), 0.125); // 2 · 8/128
  close(mcnemarExact(4, 7), 0.548828125); // 2 · 281/2048
  close(mcnemarExact(7, 4), 0.548828125, 12); // symmetric
  assert.equal(mcnemarExact(3, 3), 1, 'capped at 1');
  close(mcnemarExact(10, 25), 0.01667384780012071);
});

test('exact McNemar stays finite for hundreds of thousands of pairs', () => {
  const p = mcnemarExact(60_000, 40_000);
  assert.ok(p >= 0 && p < 1e-100, String(p));
  const even = mcnemarExact(50_000, 50_000);
  assert.ok(even > 0.99 && even <= 1, String(even));
});

test('the exact conditional interval, hand-computed (Clopper–Pearson on the discordant split, by bisection in Python)', () => {
  // 100 both pass, 4 broken, 7 fixed, 9 both fail: +3 of 120 = +2.5 points.
  const a = exactPairedInterval({ bothPass: 100, broken: 4, fixed: 7, bothFail: 9 });
  close(a?.difference, 0.025, 12);
  close(a?.low, -0.03521746891452587, 9);
  close(a?.high, 0.07163503529983202, 9);
  // No pair disagreed: ± the exact upper bound of the discordance rate, 1 − 0.025^(1/50).
  const b = exactPairedInterval({ bothPass: 50, broken: 0, fixed: 0, bothFail: 0 });
  close(b?.low, -0.07112173646419762, 9);
  close(b?.high, 0.07112173646419762, 9);
  const c = exactPairedInterval({ bothPass: 8, broken: 5, fixed: 4, bothFail: 9 });
  close(c?.low, -0.2513106953548848, 9);
  close(c?.high, 0.19937872607616833, 9);
  // 4 broken, none fixed: p = 0.125, and the interval reaches past 0 — the verdict and the interval agree.
  const d = exactPairedInterval({ bothPass: 10, broken: 4, fixed: 0, bothFail: 0 });
  close(d?.low, -4 / 14, 12);
  close(d?.high, 0.05849407749512839, 9);
  const e = exactPairedInterval({ bothPass: 60, broken: 2, fixed: 20, bothFail: 38 });
  close(e?.low, 0.07640866143022434, 9);
  close(e?.high, 0.17922461845781132, 9);
  assert.equal(exactPairedInterval({ bothPass: 0, broken: 0, fixed: 0, bothFail: 0 }), undefined);
});

test('the interval excludes 0 exactly when the exact test is significant', () => {
  for (let broken = 0; broken <= 12; broken++) {
    for (let fixed = 0; fixed <= 12; fixed++) {
      const interval = exactPairedInterval({ bothPass: 20, broken, fixed, bothFail: 20 })!;
      const excludesZero = interval.low > 0 || interval.high < 0;
      assert.equal(excludesZero, mcnemarExact(broken, fixed) <= 0.05, `${broken} broken, ${fixed} fixed`);
    }
  }
});

test('the detectable change: the smallest split of the discordant pairs McNemar calls significant', () => {
  // No pair disagreed: 6 all in one direction is the least that reaches 0.05 → 6 of 120.
  close(detectableChange(120, 0), 6 / 120);
  // 11 disagreed: 9 vs 2 gives p = 0.065, 10 vs 1 gives p = 0.0117 → a gap of 9.
  close(detectableChange(120, 11), 9 / 120);
  assert.equal(detectableChange(5, 0), undefined, 'five pairs can never be significant at 0.05');
});

test('paired bootstrap: seeded, around the mean, degenerate for no change', () => {
  const differences = Array.from({ length: 200 }, (_, i) => (i % 5) / 10 - 0.1);
  const once = pairedBootstrap(differences, 42);
  const again = pairedBootstrap(differences, 42);
  assert.deepEqual(once, again, 'the same seed gives the same interval');
  assert.ok(once && once.low < once.difference && once.difference < once.high);
  close(once?.difference, 0.1, 12);
  assert.deepEqual(pairedBootstrap([0, 0, 0], 1), { difference: 0, low: 0, high: 0 });
  assert.equal(pairedBootstrap([], 1), undefined);
});
