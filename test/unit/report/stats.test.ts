// Wilson intervals and NaN-aware means against values computed by hand.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { meanWithInterval, wilson } from '../../../src/core/stats.js';

test('Wilson interval for 8/10 matches the textbook value', () => {
  const interval = wilson(8, 10);
  assert.equal(interval.value, 0.8);
  assert.ok(Math.abs(interval.low - 0.4902) < 1e-4, String(interval.low));
  assert.ok(Math.abs(interval.high - 0.9433) < 1e-4, String(interval.high));
});

test('Wilson stays inside [0, 1] at the edges and is undetermined with no cases', () => {
  assert.equal(wilson(0, 5).low, 0);
  assert.equal(wilson(5, 5).high, 1);
  assert.ok(wilson(5, 5).low < 1);
  assert.equal(wilson(0, 0).value, null);
});

test('means keep NaN and null apart instead of counting them as 0', () => {
  const summary = meanWithInterval([1, 0, NaN, null, 0.5]);
  assert.equal(summary.value, 0.5);
  assert.equal(summary.n, 3);
  assert.equal(summary.undetermined, 2);
  assert.equal(meanWithInterval([NaN]).value, null);
});
