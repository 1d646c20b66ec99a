// The CLI's flags: models with and without a provider, formats, and messages for mistakes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCommandLine, UsageError } from '../../../src/cli/args.js';

test('run takes models as provider:model or with --provider', () => {
  const parsed = parseCommandLine(['run', 'x.eval.yaml', '--model', 'openai:gpt-4o-mini', '--model', 'llama3', '--provider', 'openai-compatible', '--concurrency', '16', '--no-cache', '--format', 'json,junit']);
  assert.equal(parsed.command, 'run');
  if (parsed.command !== 'run') return;
  assert.deepEqual(parsed.models.map((m) => `${m.provider}:${m.model}`), ['openai:gpt-4o-mini', 'openai-compatible:llama3']);
  assert.equal(parsed.concurrency, 16);
  assert.equal(parsed.noCache, true);
  assert.deepEqual(parsed.formats, ['json', 'junit']);
});

test('a model without a provider says how to name one', () => {
  assert.throws(() => parseCommandLine(['run', 'x.eval.yaml', '--model', 'gpt-4o']), (e: unknown) => e instanceof UsageError && /openai:gpt-4o/.test(e.message));
});

test('bad concurrency, unknown format and unknown command are usage errors', () => {
  assert.throws(() => parseCommandLine(['run', 'x.eval.yaml', '--concurrency', '0']), /at least 1/);
  for (const absurd of ['1e9', '1e20', '1001']) {
    assert.throws(() => parseCommandLine(['run', 'x.eval.yaml', '--concurrency', absurd]), /--concurrency must be at most 1000 calls in flight per model, got '1e\d+|1001'/);
    assert.throws(() => parseCommandLine(['generate-counterfactual', 'd.jsonl', '--model', 'openai:m', '--out', 'o.jsonl', '--concurrency', absurd]), /--concurrency must be at most 1000/);
  }
  assert.equal(parseCommandLine(['run', 'x.eval.yaml', '--concurrency', '1000']).command === 'run', true);
  assert.throws(() => parseCommandLine(['run', 'x.eval.yaml', '--format', 'pdf']), /unknown report format 'pdf'/);
  assert.throws(() => parseCommandLine(['evaluate']), /unknown command 'evaluate'/);
  assert.throws(() => parseCommandLine(['run']), /needs an eval file/);
});

test('no arguments prints help', () => {
  assert.deepEqual(parseCommandLine([]), { command: 'help' });
});

test('--contain takes --allow-endpoint (repeatable); --allow-endpoint alone is a usage error', () => {
  const contained = parseCommandLine(['run', 'x.eval.yaml', '--contain', '--allow-endpoint', 'http://a/v1', '--allow-endpoint', 'http://b/v1']);
  assert.deepEqual(contained.command === 'run' && contained.contain, { allowEndpoints: ['http://a/v1', 'http://b/v1'] });
  const plain = parseCommandLine(['run', 'x.eval.yaml']);
  assert.equal(plain.command === 'run' && plain.contain, undefined);
  assert.throws(() => parseCommandLine(['run', 'x.eval.yaml', '--allow-endpoint', 'http://a/v1']), (error: Error) => error instanceof UsageError && /goes with --contain/.test(error.message));
});
