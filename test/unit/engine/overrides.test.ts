// What "batch mode on" (--batch, the VS Code setting ragInspector.batch) does to an eval file's models.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyOverrides } from '../../../src/core/engine/runEvaluation.js';
import type { ModelSpec } from '../../../src/core/providers/contract.js';
import type { EvalSpec } from '../../../src/core/spec/types.js';

const model = (provider: string, name: string, extra: Partial<ModelSpec> = {}): ModelSpec => ({ provider, model: name, parameters: {}, ...extra });

function specWith(models: ModelSpec[], judge?: ModelSpec): EvalSpec {
  // Only the fields applyOverrides reads or copies matter here.
  return { models, concurrency: 4, ...(judge ? { judge } : {}) } as unknown as EvalSpec;
}

const batchedOf = (spec: EvalSpec) => [...spec.models, ...(spec.judge ? [spec.judge] : [])].map((m) => `${m.provider}:${m.model}=${m.batch === true}`);

test('batch mode on batches the models whose vendor has a batch API, the judge too; the extractive baseline runs as before', () => {
  const spec = specWith([model('openai', 'gpt-4o-mini'), model('openai-compatible', 'local'), model('anthropic', 'claude-haiku-4-5'), model('extractive', 'bm25')], model('openai', 'judge'));
  assert.deepEqual(batchedOf(applyOverrides(spec, { batch: true })), [
    'openai:gpt-4o-mini=true', 'openai-compatible:local=true', 'anthropic:claude-haiku-4-5=true', 'extractive:bm25=false', 'openai:judge=true',
  ]);
});

test('batch mode unset leaves the eval file\'s own batch choices alone; --no-batch (false) makes every model interactive', () => {
  const spec = specWith([model('openai', 'a', { batch: true }), model('openai', 'b')], model('openai', 'judge', { batch: true }));
  assert.deepEqual(batchedOf(applyOverrides(spec, {})), ['openai:a=true', 'openai:b=false', 'openai:judge=true']);
  assert.deepEqual(batchedOf(applyOverrides(spec, { concurrency: 2 })), ['openai:a=true', 'openai:b=false', 'openai:judge=true']);
  assert.deepEqual(batchedOf(applyOverrides(spec, { batch: false })), ['openai:a=false', 'openai:b=false', 'openai:judge=false']);
});
