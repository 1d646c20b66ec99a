// Needle params: the reference defaults per variant, errors that name the key, and the cost estimate.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { InputError } from '../../../src/core/errors.js';
import { DEFAULT_ANSWER, DEFAULT_NEEDLE, DEFAULT_QUESTION, estimateGrid } from '../../../src/core/suites/needle/params.js';
import { params } from './builders.js';

function rejects(raw: Record<string, unknown>, key: string, pattern?: RegExp): void {
  assert.throws(() => params(raw), (error: unknown) => {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(error.message.startsWith(`needle params.${key}:`), error.message);
    if (pattern) assert.match(error.message, pattern);
    assert.ok(error.hint, 'every error says how to fix it');
    return true;
  });
}

describe('defaults', () => {
  it('classic: the reference needle, question and prompt; substring scoring looks for the sandwich phrase', () => {
    const p = params();
    assert.equal(p.variant, 'classic');
    assert.equal(p.needle, DEFAULT_NEEDLE);
    assert.equal(p.question, DEFAULT_QUESTION);
    assert.equal(p.answer, DEFAULT_ANSWER);
    assert.equal(p.prompt, 'reference');
    assert.equal(p.scoring, 'auto');
    assert.equal(p.tokenizerModel, 'openai:gpt-4o');
    assert.equal(p.boundary, 'sentence');
    assert.equal(p.negativeTest, false);
    assert.equal(p.haystack, undefined, 'the bundled example haystack');
  });

  it('a custom needle without an answer is looked for whole', () => {
    assert.equal(params({ needle: 'The vault code is 4412.' }).answer, undefined);
    assert.equal(params({ needle: 'The vault code is 4412.', answer: '4412' }).answer, '4412');
    assert.equal(params({ needle: 'The vault code is 4412.', expected: '4412' }).answer, '4412', 'expected is another name for answer');
  });

  it('arize: the numbered needle template, the UNANSWERABLE template and the negative test', () => {
    const p = params({ variant: 'arize' });
    assert.match(p.needle, /\{city\}.*\{number\}/);
    assert.equal(p.question, 'What is the special magic {city} number?');
    assert.equal(p.prompt, 'simple-unanswerable');
    assert.equal(p.negativeTest, true);
    assert.equal(params({ variant: 'arize', negativeTest: false }).negativeTest, false);
  });

  it('multi: the reference pizza needles with their answers', () => {
    const p = params({ variant: 'multi' });
    assert.deepEqual(p.needles.map((n) => n.answer), ['figs', 'prosciutto', 'goat cheese']);
    assert.equal(p.question, 'What are the secret ingredients needed to build the perfect pizza?');
    const custom = params({ variant: 'multi', needles: ['Alpha is 1.', { needle: 'Beta is 2.', answer: '2' }] });
    assert.deepEqual(custom.needles, [{ text: 'Alpha is 1.', answer: 'Alpha is 1.' }, { text: 'Beta is 2.', answer: '2' }]);
  });

  it('grids from ranges: lengths round half to even, sigmoid depths keep 0 and 100', () => {
    const p = params({ contextLengths: { min: 1000, max: 8000, intervals: 5 }, depths: { intervals: 5, distribution: 'sigmoid' } });
    assert.deepEqual(p.contextLengths, [1000, 2750, 4500, 6250, 8000]);
    assert.deepEqual(p.depths, [0, 92.414, 50, 7.586, 100]);
    assert.equal(p.depthDistribution, 'sigmoid');
    assert.deepEqual(params({ depths: { intervals: 9 } }).depths, [0, 12, 25, 38, 50, 62, 75, 88, 100]);
  });
});

describe('errors name the key', () => {
  it('unknown keys and bad values', () => {
    rejects({ contextLenghts: [1000] }, 'contextLenghts', /unknown parameter/);
    rejects({ variant: 'haystack' }, 'variant');
    rejects({ contextLengths: [] }, 'contextLengths');
    rejects({ contextLengths: [1000, 1000] }, 'contextLengths', /twice/);
    rejects({ contextLengths: [1000.5] }, 'contextLengths[0]');
    rejects({ contextLengths: { min: 5000, max: 1000 } }, 'contextLengths.max');
    rejects({ contextLengths: { from: 1 } }, 'contextLengths.from');
    rejects({ depths: [0, 101] }, 'depths[1]');
    rejects({ depths: { intervals: 5, distribution: 'cubic' } }, 'depths.distribution');
    rejects({ buffer: -1 }, 'buffer');
    rejects({ buffer: 1000, contextLengths: [1000, 2000] }, 'buffer', /shortest context length/);
    rejects({ tokenizerModel: '' }, 'tokenizerModel');
    rejects({ prompt: 'anthropic-rev3' }, 'prompt');
    rejects({ boundary: 'comma' }, 'boundary');
  });

  it('keys that do not fit the variant', () => {
    rejects({ needles: ['a.'] }, 'needles', /multi/);
    rejects({ variant: 'multi', needle: 'a.' }, 'needle');
    rejects({ variant: 'arize', answer: '42' }, 'answer');
    rejects({ variant: 'arize', needle: 'The code is {city}.' }, 'needle', /\{number\}/);
    rejects({ variant: 'arize', scoring: 'judge' }, 'scoring');
    rejects({ variant: 'multi', scoring: 'rail' }, 'scoring');
    rejects({ negativeTest: true }, 'negativeTest', /arize/);
    rejects({ answer: 'x', expected: 'y' }, 'expected');
    rejects({ scoring: 'exact' }, 'scoring');
  });
});

describe('estimateGrid', () => {
  it('counts cells and the context tokens they send (L - buffer each)', () => {
    assert.deepEqual(estimateGrid(params({ contextLengths: [1000, 2000], depths: [0, 50, 100] })), { cells: 6, promptTokens: 3 * (800 + 1800) });
    assert.deepEqual(estimateGrid(params({ variant: 'arize', contextLengths: [1000, 2000], depths: [0, 50, 100] })), { cells: 8, promptTokens: 4 * (800 + 1800) }, 'one negative cell per length');
    const reference = estimateGrid(params());
    assert.equal(reference.cells, 35 * 35);
  });
});
