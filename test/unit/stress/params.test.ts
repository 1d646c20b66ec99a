// Stress parameters: defaults per testbed, and every bad key or value named with how to fix it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ParamError } from '../../../src/core/suites/paramError.js';
import { parseStressParams } from '../../../src/core/suites/stress/params.js';

const WHERE = { file: '/work/evals/mine.eval.yaml' };
const parse = (raw: unknown) => parseStressParams(raw, WHERE);

function rejects(raw: unknown, param: (string | number)[], message: RegExp): void {
  assert.throws(() => parse(raw), (e: unknown) => e instanceof ParamError && JSON.stringify(e.param) === JSON.stringify(param) && message.test(`${e.message} — ${e.hint}`));
}

describe('stress params', () => {
  it('defaults: RGB\'s ratios and passage count, RGB\'s markers, distractors from the dataset, k = passageNum − 1', () => {
    const noise = parse({ testbed: 'noise_robustness' });
    assert.deepEqual(noise.noiseRates, [0, 0.2, 0.4, 0.6, 0.8]);
    assert.equal(noise.passageNum, 5);
    assert.deepEqual(noise.refusal, ['insufficient information']);
    assert.deepEqual(noise.distractors, { kind: 'dataset' });
    assert.equal(noise.shortRows, 'keep_ratio');
    assert.deepEqual(parse({ testbed: 'negative_rejection' }).noiseRates, [1]);
    assert.equal(parse({ testbed: 'negative_rejection' }).judge.rejection, true);
    assert.equal(parse({ testbed: 'position', passageNum: 7 }).k, 6);
  });

  it('a refusal phrase may be one string; a corpus folder is relative to the eval file', () => {
    assert.deepEqual(parse({ testbed: 'negative_rejection', refusal: "I don't know" }).refusal, ["I don't know"]);
    assert.deepEqual(parse({ testbed: 'noise_robustness', distractors: { corpus: 'corpus' } }).distractors, { kind: 'corpus', folder: '/work/evals/corpus' });
  });

  it('names the bad key and how to fix it', () => {
    rejects({}, ['testbed'], /missing.*noise_robustness, negative_rejection, counterfactual_robustness, information_integration, position/);
    rejects({ testbed: 'noise' }, ['testbed'], /unknown value "noise"/);
    rejects({ testbed: 'noise_robustness', noiseRate: [0.2] }, ['noiseRate'], /unknown parameter/);
    rejects({ testbed: 'noise_robustness', k: 3 }, ['k'], /only position uses k/);
    rejects({ testbed: 'position', noiseRates: [0.2] }, ['noiseRates'], /no noise ratios.*set k/);
    rejects({ testbed: 'negative_rejection', noiseRates: [0.8] }, ['noiseRates'], /always uses noise ratio 1/);
    rejects({ testbed: 'negative_rejection', refusal: [] }, ['refusal'], /phrase your prompt asks the model to say/);
    rejects({ testbed: 'noise_robustness', distractors: { folder: 'x' } }, ['distractors', 'folder'], /unknown distractor setting/);
    rejects({ testbed: 'counterfactual_robustness', noiseRates: [0.6], correctRate: 0.6 }, ['correctRate'], /exceed passageNum 5/);
  });

  it('judge passes are RGB\'s, parsed by RGB\'s parser, and their errors name the stress method', () => {
    assert.deepEqual(parse({ testbed: 'counterfactual_robustness', judge: { failureLabels: true } }).judge, { rejection: false, factualError: true, failureLabels: true });
    rejects({ testbed: 'noise_robustness', judge: { rejection: 'yes' } }, ['judge', 'rejection'], /^stress params\.judge\.rejection: expected true or false/);
    rejects({ testbed: 'noise_robustness', judge: { bogus: true } }, ['judge', 'bogus'], /unknown judge pass/);
  });

  it('answerBearing: judge needs a judge in the eval file, and is refused where a paraphrase cannot work: integration (per part) and counterfactuals (word for word)', () => {
    assert.equal(parseStressParams({ testbed: 'noise_robustness', answerBearing: 'judge' }, { ...WHERE, judge: true }).answerBearing, 'judge');
    assert.throws(
      () => parseStressParams({ testbed: 'noise_robustness', answerBearing: 'judge' }, { ...WHERE, judge: false }),
      (e: unknown) => e instanceof ParamError && e.param.join('.') === 'answerBearing' && /needs a judge model.*add judge: at the top level of the eval file/.test(`${e.message} — ${e.hint}`),
    );
    rejects({ testbed: 'information_integration', answerBearing: 'judge' }, ['answerBearing'], /decides per passage, not per part/);
    rejects({ testbed: 'counterfactual_robustness', answerBearing: 'judge' }, ['answerBearing'], /replaces the reference answer word for word/);
    rejects({ testbed: 'noise_robustness', answerBearing: 'llm' }, ['answerBearing'], /use one of match, judge/);
    assert.equal(parse({ testbed: 'noise_robustness', answerBearing: 'match' }).answerBearing, 'match');
  });
});
