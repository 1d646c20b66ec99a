// RGB params: defaults per testbed and InputErrors that name the bad key.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';

const parse = (raw: unknown) => rgbSuite.parseParams(raw, { file: '/x/a.eval.yaml' });

function rejects(raw: unknown, key: RegExp): void {
  assert.throws(() => parse(raw), (e: unknown) => e instanceof InputError && key.test(e.message) && e.hint !== undefined && e.position.file === '/x/a.eval.yaml');
}

describe('RGB params', () => {
  it('defaults per testbed', () => {
    assert.deepEqual(parse({ testbed: 'noise_robustness' }), {
      testbed: 'noise_robustness', language: 'en', noiseRates: [0, 0.2, 0.4, 0.6, 0.8], passageNum: 5, correctRate: 0, strict: false,
      judge: { rejection: false, factualError: false, failureLabels: false }, withoutDocuments: false,
    });
    assert.deepEqual(parse({ testbed: 'negative_rejection' }).noiseRates, [1]);
    assert.deepEqual(parse({ testbed: 'negative_rejection' }).judge, { rejection: true, factualError: false, failureLabels: false });
    assert.deepEqual(parse({ testbed: 'information_integration' }).noiseRates, [0, 0.2, 0.4]);
    assert.deepEqual(parse({ testbed: 'counterfactual_robustness' }).noiseRates, [0]);
    assert.deepEqual(parse({ testbed: 'counterfactual_robustness' }).judge, { rejection: false, factualError: true, failureLabels: false });
    assert.equal(rgbSuite.defaultTemplate(parse({ testbed: 'noise_robustness', language: 'zh' })).endsWith('prompts/rgb/zh.prompt'), true);
  });

  it('names the bad key', () => {
    rejects(undefined, /params\.testbed: missing/);
    rejects({}, /params\.testbed: missing/);
    rejects({ testbed: 'noise' }, /params\.testbed: unknown testbed/);
    rejects({ testbed: 'noise_robustness', language: 'fr' }, /params\.language/);
    rejects({ testbed: 'noise_robustness', noiseRates: [0.2, 2] }, /params\.noiseRates\[1\]/);
    rejects({ testbed: 'noise_robustness', noiseRates: [0.2, 0.2] }, /params\.noiseRates: 0\.2 is listed twice/);
    rejects({ testbed: 'noise_robustness', noiseRates: [] }, /params\.noiseRates/);
    rejects({ testbed: 'negative_rejection', noiseRates: [0.8] }, /params\.noiseRates: negative rejection/);
    rejects({ testbed: 'noise_robustness', passageNum: 0 }, /params\.passageNum/);
    rejects({ testbed: 'noise_robustness', correctRate: 0.2 }, /params\.correctRate: only counterfactual/);
    rejects({ testbed: 'counterfactual_robustness', noiseRates: [0.6], correctRate: 0.6 }, /params\.correctRate: noise 0\.6/);
    rejects({ testbed: 'noise_robustness', strict: 'yes' }, /params\.strict/);
    rejects({ testbed: 'noise_robustness', judge: { rejections: true } }, /params\.judge\.rejections: unknown judge pass/);
    rejects({ testbed: 'noise_robustness', withoutDocuments: true }, /params\.withoutDocuments/);
    rejects({ testbed: 'noise_robustness', noise: [0] }, /params\.noise: unknown parameter/);
  });
});
