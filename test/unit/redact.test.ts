// redact(): the one rule set for keys in error messages, responses, run logs, reports and the log channel; and
// stringifyRedacted(): the JSON of a value with every string value redacted, otherwise exactly JSON.stringify's text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, redact, stringifyRedacted } from '../../src/core/redact.js';

const KEY = 'sk-proj-abcdefghijklmnopqrstuvwx';

describe('stringifyRedacted', () => {
  it('is JSON.stringify for a value without a key, undefined members and toJSON included', () => {
    const value = { a: 'plain', b: [1, 'two', null], c: undefined, d: new Date(0), e: { nested: 'task-based sk-learn' } };
    assert.equal(stringifyRedacted(value), JSON.stringify(value));
    assert.equal(stringifyRedacted(undefined), undefined);
  });

  it('redacts a key in any string value, at any depth, also right after a newline (\\n in the JSON text)', () => {
    const value = { text: `line one\n${KEY}`, deep: [{ quoted: `"${KEY}"` }], safe: 'sk-learn' };
    const parsed = JSON.parse(stringifyRedacted(value)) as typeof value;
    assert.equal(parsed.text, `line one\n${REDACTED}`);
    assert.equal(parsed.deep[0]!.quoted, `"${REDACTED}"`);
    assert.equal(parsed.safe, 'sk-learn');
    assert.ok(!stringifyRedacted(value).includes(KEY.slice(3)));
  });
});

describe('redact', () => {
  it('removes key shapes and known values, longest first, keeping the parameter name', () => {
    assert.equal(redact('key sk-abcdefghijklmnop1234 end'), 'key [redacted] end');
    assert.equal(redact(`ant ${'sk-ant-api03-' + 'x'.repeat(40)}.`), 'ant [redacted].');
    assert.equal(redact('Authorization: Bearer abc.def-ghi_jkl'), 'Authorization: [redacted]');
    assert.equal(redact('GET /v1?api-key=0123456789abcdef&x=1'), 'GET /v1?api-key=[redacted]&x=1');
    assert.equal(redact('{"api_key": "s3cr3tvalue"}'), '{"api_key": "[redacted]"}');
    assert.equal(redact(`hf ${'hf_' + 'a'.repeat(34)} gh ${'ghp_' + 'b'.repeat(36)} g ${'AIza' + 'c'.repeat(35)}`), 'hf [redacted] gh [redacted] g [redacted]');
    assert.equal(redact('a hunter2hunter2 b hunter2', ['hunter2', 'hunter2hunter2']), 'a [redacted] b [redacted]');
  });

  it('leaves prose alone: short sk- words, task-…, a bare "secret", values shorter than 4 characters', () => {
    const prose = 'nothing secret here: 42 cases, sk- alone, sk-learn, task-based-evaluation-of-retrieval-systems. The secret: patience.';
    assert.equal(redact(prose, [undefined, '', 'abc']), prose);
  });

  it('is one rule set: a key an error message loses is lost from a run-log line too', () => {
    // Before, provider errors removed "sk-" + 6 characters and run logs only "sk-" + 20: a key between the two kept.
    for (const key of ['sk-proj-AbCdEf1234567890xyz', 'Bearer abcdefgh12345678']) {
      const message = `the gateway said: invalid key ${key}`;
      assert.ok(!redact(message).includes(key));
      assert.ok(!stringifyRedacted({ response: { text: message } }).includes(key));
    }
  });
});
