// stringifyRedacted: the JSON of a value with every string value that holds an API-key shape redacted, and otherwise
// exactly JSON.stringify's text (the fast path for the text without "sk-").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { REDACTED, stringifyRedacted } from '../../../src/core/run/redact.js';

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
