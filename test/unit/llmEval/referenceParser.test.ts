// The reference parser's Python semantics, case by case: greedy candidate, json.loads, float() and int() on strings.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { greedyJsonCandidate, parseReferenceReply, pythonFloat, pythonIntFromString, pythonJsonLoads } from '../../../src/core/suites/llmEval/referenceParser.js';
import { SCALE_CONFIG } from '../../../src/core/suites/llmEval/schema.js';

describe('the reference parser', () => {
  it('takes the first "{" to the last "}": two objects in one reply are not JSON, as in the reference', () => {
    assert.deepEqual(greedyJsonCandidate('  {"a": 1}  '), { json: '{"a": 1}', surrounded: false });
    const two = parseReferenceReply('First {"content": 1} then {"content": 2}', [{ name: 'content' }], SCALE_CONFIG['0-5']);
    assert.equal(two.ok, false);
    assert.match((two as { error: string }).error, /not JSON/);
    assert.equal(greedyJsonCandidate('no braces here'), undefined);
  });

  it('json.loads accepts NaN and Infinity outside strings only', () => {
    assert.deepEqual(pythonJsonLoads('{"a": "NaN", "b": -Infinity}'), { a: 'NaN', b: Number.NEGATIVE_INFINITY });
    assert.ok(Number.isNaN((pythonJsonLoads('{"a": NaN}') as { a: number }).a));
  });

  it('float() and int() on strings as Python reads them', () => {
    assert.equal(pythonFloat(' 4.5\n'), 4.5);
    assert.equal(pythonFloat('1_0.5'), 10.5);
    assert.equal(pythonFloat('4.'), 4);
    assert.equal(pythonFloat('4,5'), undefined);
    assert.equal(pythonFloat('four'), undefined);
    assert.equal(pythonFloat('-inf'), Number.NEGATIVE_INFINITY);
    assert.equal(pythonIntFromString(' +87 '), 87);
    assert.equal(pythonIntFromString('87.0'), undefined);
    assert.equal(pythonIntFromString('007'), 7, 'int() of a string allows leading zeros (a literal would not)');
    assert.equal(pythonIntFromString('1__0'), undefined);
  });

  it('0–5 keeps floats as given; 0–100 truncates toward zero', () => {
    const dims = [{ name: 'a' }];
    assert.deepEqual(parseReferenceReply('{"a": 3.75}', dims, SCALE_CONFIG['0-5']), { ok: true, scores: { a: 3.75 }, tolerated: [] });
    assert.deepEqual(parseReferenceReply('{"a": 99.99}', dims, SCALE_CONFIG['0-100']), { ok: true, scores: { a: 99 }, tolerated: ["a: 99.99 truncated to 99 (the reference's int())"] });
  });
});
