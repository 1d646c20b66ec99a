// Token counting: which encoding each model gets, exact counts against the library, and the message overhead.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as cl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as o200k from 'gpt-tokenizer/encoding/o200k_base';
import { countMessages, tokenizerFor } from '../../../src/core/prompt/tokens.js';

test('OpenAI o200k families get o200k_base, exactly', () => {
  for (const key of ['openai:gpt-4o', 'openai:gpt-4o-mini', 'gpt-4.1-nano', 'openai:gpt-5', 'openai:o1', 'openai:o3-mini', 'openai:o4-mini']) {
    const tokenizer = tokenizerFor(key);
    assert.equal(tokenizer.name, 'o200k_base', key);
    assert.equal(tokenizer.approximate, false, key);
  }
});

test('gpt-4, gpt-3.5 and text-embedding-3 get cl100k_base, exactly', () => {
  for (const key of ['openai:gpt-4', 'openai:gpt-4-turbo', 'openai:gpt-3.5-turbo', 'openai:text-embedding-3-small']) {
    const tokenizer = tokenizerFor(key);
    assert.equal(tokenizer.name, 'cl100k_base', key);
    assert.equal(tokenizer.approximate, false, key);
  }
});

test('other models are counted with o200k_base and flagged approximate', () => {
  for (const key of ['anthropic:claude-sonnet-4-5', 'extractive:bm25', 'openai-compatible:llama3:8b', 'o1x']) {
    const tokenizer = tokenizerFor(key);
    assert.equal(tokenizer.name, 'o200k_base', key);
    assert.equal(tokenizer.approximate, true, key);
  }
});

test('"hello world" is 2 tokens in o200k, the same ids the library gives', () => {
  const tokenizer = tokenizerFor('openai:gpt-4o');
  assert.equal(tokenizer.count('hello world'), 2);
  assert.deepEqual(tokenizer.encode('hello world'), o200k.encode('hello world'));
  assert.notDeepEqual(tokenizerFor('openai:gpt-4').encode('hello world'), tokenizer.encode('hello world'));
  assert.deepEqual(tokenizerFor('openai:gpt-4').encode('hello world'), cl100k.encode('hello world'));
});

test('encode and decode round-trip, and special-token text in a document is counted as text', () => {
  const tokenizer = tokenizerFor('openai:gpt-4o');
  const text = 'Paris 是法国的首都 <|endoftext|> done';
  assert.equal(tokenizer.decode(tokenizer.encode(text)), text);
  assert.equal(tokenizer.count(text), tokenizer.encode(text).length);
  assert.ok(tokenizer.count('<|endoftext|>') > 1);
});

test('countMessages adds 3 tokens per message plus 3 for the reply', () => {
  const tokenizer = tokenizerFor('openai:gpt-4o');
  const messages = [
    { role: 'system' as const, content: 'You are helpful.' },
    { role: 'user' as const, content: 'hello world' },
  ];
  const content = o200k.countTokens('system') + o200k.countTokens('You are helpful.') + o200k.countTokens('user') + 2;
  assert.equal(countMessages(messages, tokenizer), content + 2 * 3 + 3);
  assert.equal(countMessages([], tokenizer), 3);
});
