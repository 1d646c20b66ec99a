// The price table: known models cost what the table says, overrides win, unknown models cost undefined (never 0).
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUILTIN_PRICES, batchCostOf, costOf, priceOf } from '../../../src/core/providers/prices.js';

const million = { inputTokens: 1_000_000, outputTokens: 1_000_000 };

describe('costOf', () => {
  it('prices known OpenAI and Anthropic models per million input and output tokens', () => {
    assert.ok(Math.abs((costOf('openai:gpt-4o-mini', { inputTokens: 2_000_000, outputTokens: 500_000 }) ?? NaN) - 0.6) < 1e-12);
    assert.equal(costOf('anthropic:claude-3-5-haiku', million), 0.8 + 4);
  });

  it('prices dated snapshots and -latest aliases as their family unless the table names them', () => {
    assert.deepEqual(priceOf('openai:gpt-4o-2024-08-06'), BUILTIN_PRICES['gpt-4o']);
    assert.deepEqual(priceOf('openai:gpt-4o-2024-05-13'), { input: 5, output: 15 });
    assert.deepEqual(priceOf('anthropic:claude-sonnet-4-5-20250929'), BUILTIN_PRICES['claude-sonnet-4-5']);
    assert.deepEqual(priceOf('anthropic:claude-3-5-haiku-latest'), BUILTIN_PRICES['claude-3-5-haiku']);
  });

  it('returns undefined for unknown models, and for compatible servers without an override', () => {
    assert.equal(costOf('openai:gpt-9-ultra', million), undefined);
    assert.equal(costOf('openai-compatible:llama3:8b', million), undefined);
    assert.equal(costOf('openai-compatible:gpt-4o', million), undefined);
  });

  it('costs nothing for the extractive baseline', () => {
    assert.equal(costOf('extractive:bm25', million), 0);
  });

  it("lets the eval file's prices override by provider:model, by model, or for a whole provider", () => {
    assert.equal(costOf('openai:gpt-4o-mini', million, { 'openai:gpt-4o-mini': { input: 1, output: 2 } }), 3);
    assert.equal(costOf('openai:my-finetune', million, { 'my-finetune': { input: 3, output: 6 } }), 9);
    assert.equal(costOf('openai-compatible:llama3:8b', million, { 'openai-compatible': { input: 0, output: 0 } }), 0);
    assert.equal(costOf('openai-compatible:llama3:8b', million, { 'llama3:8b': { input: 0.1, output: 0.2 } }), 0.3);
  });
});

describe('batchCostOf', () => {
  it('is half the interactive cost on OpenAI and Anthropic, and the interactive cost where no discount is published', () => {
    const usage = { inputTokens: 2_000_000, outputTokens: 500_000 };
    assert.ok(Math.abs((batchCostOf('openai:gpt-4o-mini', usage) ?? NaN) - 0.3) < 1e-12);
    assert.equal(batchCostOf('anthropic:claude-3-5-haiku', usage), (costOf('anthropic:claude-3-5-haiku', usage) ?? NaN) / 2);
    const overrides = { 'openai-compatible': { input: 1, output: 2 } };
    assert.equal(batchCostOf('openai-compatible:llama3', usage, overrides), costOf('openai-compatible:llama3', usage, overrides));
    assert.equal(batchCostOf('openai:unknown-model', usage), undefined);
  });
});
