// The retriever answer checker: good lists pass (number ids become strings), every malformed answer is a
// RetrieverError of the right kind whose message names the item, the field and what was received.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetrieverError } from '../../../src/core/retrieval/contract.js';
import type { RetrieverErrorKind } from '../../../src/core/retrieval/contract.js';
import { checkItems, itemsOfAnswer, parseAnswerJson, quoteText } from '../../../src/core/retrieval/items.js';

function failure(run: () => unknown, kind: RetrieverErrorKind, ...words: (string | RegExp)[]): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof RetrieverError, `a RetrieverError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    for (const word of words) {
      if (typeof word === 'string') assert.ok(error.message.includes(word), `"${word}" in: ${error.message}`);
      else assert.match(error.message, word);
    }
    return true;
  });
}

describe('checkItems', () => {
  it('keeps id, text, score and metadata in order and ignores other fields', () => {
    const items = checkItems([{ id: 'a', text: 'alpha', score: 2.5, metadata: { file: 'a.md' }, extra: 1 }, { id: 'b', text: 'beta', score: null }], 'the answer');
    assert.deepEqual(items, [{ id: 'a', text: 'alpha', score: 2.5, metadata: { file: 'a.md' } }, { id: 'b', text: 'beta' }]);
  });

  it('takes a number id as its decimal string, and then "17" and 17 are the same id', () => {
    assert.deepEqual(checkItems([{ id: 17, text: 'x' }, { id: 0, text: 'y' }], 'w').map((item) => item.id), ['17', '0']);
    failure(() => checkItems([{ id: 17, text: 'x' }, { id: '17', text: 'y' }], 'w'), 'duplicate-id', 'item 2', '"17"', 'item 1');
  });

  it('accepts an empty list (a retriever may find nothing)', () => {
    assert.deepEqual(checkItems([], 'w'), []);
  });

  it('names the duplicate id and both items', () => {
    failure(() => checkItems([{ id: 'doc-7', text: 'a' }, { id: 'x', text: 'b' }, { id: 'doc-7', text: 'c' }], 'the answer of command: r'), 'duplicate-id', 'the answer of command: r', 'item 3', '"doc-7"', 'item 1');
  });

  it('an empty or blank text is empty-text, naming the item and its id', () => {
    failure(() => checkItems([{ id: 'a', text: 'ok' }, { id: 'b', text: '  \n' }], 'w'), 'empty-text', 'item 2', '"b"', '"text" is empty');
  });

  it('wrong fields are bad-shape, saying what was received', () => {
    failure(() => checkItems([{ text: 'x' }], 'w'), 'bad-shape', 'item 1', '"id"', 'no "id" field');
    failure(() => checkItems([{ id: '', text: 'x' }], 'w'), 'bad-shape', '"id" must be a non-empty string', 'received ""');
    failure(() => checkItems([{ id: { n: 1 }, text: 'x' }], 'w'), 'bad-shape', 'received {"n":1}');
    failure(() => checkItems([{ id: 'a', content: 'x' }], 'w'), 'bad-shape', '"text" must be a string', 'no "text" field');
    failure(() => checkItems([{ id: 'a', text: 5 }], 'w'), 'bad-shape', '"text" must be a string', 'received 5');
    failure(() => checkItems([{ id: 'a', text: 'x', score: 'high' }], 'w'), 'bad-shape', '"score" must be a finite number', 'received "high"');
    failure(() => checkItems([{ id: 'a', text: 'x', metadata: [1] }], 'w'), 'bad-shape', '"metadata" must be an object', 'received [1]');
    failure(() => checkItems(['doc-1'], 'w'), 'bad-shape', 'item 1 must be an object', 'received "doc-1"');
    failure(() => checkItems({ id: 'a' }, 'w'), 'bad-shape', 'must be a list', 'received {"id":"a"}');
  });

  it('cuts what it quotes to about 200 characters and redacts keys in it', () => {
    const long = 'x'.repeat(5000);
    failure(() => checkItems([{ id: long, text: 1 }], 'w'), 'bad-shape', '(5002 characters)');
    failure(() => checkItems(['Bearer sk-abcdefghijklmnopqrstuvwxyz123456'], 'w'), 'bad-shape', '[redacted]');
  });
});

describe('quoteText', () => {
  it('never shows part of a key that the cut at 200 characters runs through', () => {
    const quoted = quoteText(`${'x'.repeat(189)} sk-${'A'.repeat(40)} and more`);
    assert.ok(!quoted.includes('sk-AAA'), quoted);
    assert.ok(quoted.includes('[redacted]'), quoted);
  });

  it('replaces known secret values', () => {
    assert.equal(quoteText('denied for key-4711-abc', ['key-4711-abc']), 'denied for [redacted]');
  });
});

describe('itemsOfAnswer and parseAnswerJson', () => {
  it('takes a bare list or { items }', () => {
    assert.equal(itemsOfAnswer([{ id: 'a', text: 'x' }], 'w')[0]!.id, 'a');
    assert.equal(itemsOfAnswer({ items: [{ id: 'b', text: 'x' }], took: 3 }, 'w')[0]!.id, 'b');
    failure(() => itemsOfAnswer({ results: [] }, 'the answer of http: x'), 'bad-shape', 'the answer of http: x', 'nor an object with "items"', '{"results":[]}');
  });

  it('not JSON is not-json, quoting the text and saying where logs go', () => {
    failure(() => parseAnswerJson('Loading index...', 'the answer of command: r'), 'not-json', 'the answer of command: r', 'Loading index...', 'stderr');
    failure(() => parseAnswerJson('  ', 'w'), 'not-json', 'nothing (empty output)');
  });
});
