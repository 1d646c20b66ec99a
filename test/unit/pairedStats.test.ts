// Paired statistics against values computed by hand (Python's exact integer arithmetic: math.comb for the binomial
// tails, and Newcombe's method 10 written out from the paper), including the small-n and n = 0 edge cases.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectableChange, mcnemarExact, newcombePaired, normalQuantile, pairedBootstrap } from '../../src/core/pairedStats.js';

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

test('normal quantile: the familiar values', () => {
  close(normalQuantile(0.975), 1.959963984540054, 8);
  close(normalQuantile(0.5), 0, 12);
  close(normalQuantile(0.005), -2.5758293035489, 8);
  assert.throws(() => normalQuantile(1), RangeError);
});

test("Newcombe's paired interval, hand-computed; none for no pairs", () => {
  // 100 both pass, 4 broken, 7 fixed, 9 both fail: +3 of 120 = +2.5 points.
  const a = newcombePaired({ bothPass: 100, broken: 4, fixed: 7, bothFail: 9 });
  close(a?.difference, 0.025, 12);
  close(a?.low, -0.031873920934608335, 9);
  close(a?.high, 0.08430935155021238, 9);
  // All pass on both sides: the interval is symmetric around 0 and not degenerate.
  const b = newcombePaired({ bothPass: 50, broken: 0, fixed: 0, bothFail: 0 });
  close(b?.low, -0.07134759913335864, 9);
  close(b?.high, 0.07134759913335864, 9);
  const c = newcombePaired({ bothPass: 8, broken: 5, fixed: 4, bothFail: 9 });
  close(c?.difference, -0.038461538461538436, 12);
  close(c?.low, -0.24627736718229595, 9);
  close(c?.high, 0.17516109912390967, 9);
  assert.equal(newcombePaired({ bothPass: 0, broken: 0, fixed: 0, bothFail: 0 }), undefined);
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
