// What the inspector reads off an explanation: undetermined is never drawn as a fail, a running case shows only what
// leave-one-out said (no effect before core decides one), and a run standing for identical variants fills each of them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CaseExplanation, VariantOutcome } from '../../../src/core/explain/model.js';
import { cardAttributions, positionChart, positionText, signed, withOutcome } from '../../../webview/state/explanation.js';

const curve = (passes: (boolean | null)[]): CaseExplanation => ({
  positionCurve: { sourceId: 'd0', points: passes.map((pass, position) => ({ position, pass, signal: pass === null ? null : Number(pass) })) },
} as CaseExplanation);

it('the position curve leaves an undetermined position out of the line and names it in the text', () => {
  const e = curve([false, null, true]);
  assert.deepEqual(positionChart(e)?.series[0]?.points, [{ x: 1, y: 0 }, { x: 3, y: 1 }]);
  assert.equal(positionText(e), '1: ✗ fails · 2: ? undetermined · 3: ✓ passes');
  assert.equal(positionChart(curve([null, null, true])), undefined, 'one determined point is no curve');
});

it('while a case runs, a card shows what leaving its document out did, and nothing else', () => {
  const outcome = (pass: boolean | null, undeterminedBecause?: string): VariantOutcome => ({ variantId: '', pass, signal: null, cached: false, ...(undeterminedBecause ? { undeterminedBecause } : {}) });
  let running = withOutcome(undefined, ['loo:d1', 'subset:3'], outcome(true));
  running = withOutcome(running, ['loo:d2'], outcome(null, 'judge error (correct): unreadable'));
  running = withOutcome(running, ['original'], outcome(false));
  assert.equal(running.get('subset:3')?.variantId, 'subset:3', 'one run stands for every id it names');
  assert.deepEqual([...cardAttributions(undefined, running)], [
    ['d1', { kind: 'running', withoutIt: 'without it: passes' }],
    ['d2', { kind: 'running', withoutIt: 'without it: undetermined (judge error (correct): unreadable)' }],
  ]);
});

it('values read with their sign, never a bare zero sign', () => {
  assert.deepEqual([signed(0.684), signed(-0.35), signed(0), signed(-0.001)], ['+0.68', '−0.35', '±0.00', '±0.00']);
});
