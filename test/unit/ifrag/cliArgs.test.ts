// The generate-counterfactual command line: what it needs, its defaults, and the messages when something is missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UsageError, parseCommandLine } from '../../../src/cli/args.js';

test('generate-counterfactual takes a dataset, one --model, --out, and optional --seed and --concurrency', () => {
  assert.deepEqual(parseCommandLine(['generate-counterfactual', 'qa.jsonl', '--model', 'openai:gpt-4o', '--out', 'cf.jsonl']), {
    command: 'generate-counterfactual', dataset: 'qa.jsonl', model: { provider: 'openai', model: 'gpt-4o', parameters: {} }, out: 'cf.jsonl', seed: 2333, concurrency: 4, quiet: false,
  });
  const custom = parseCommandLine(['generate-counterfactual', 'qa.jsonl', '--model', 'gpt-4o', '--provider', 'openai', '--out', 'cf.jsonl', '--seed', '0', '--concurrency', '2', '--quiet']);
  assert.deepEqual(custom, { command: 'generate-counterfactual', dataset: 'qa.jsonl', model: { provider: 'openai', model: 'gpt-4o', parameters: {} }, out: 'cf.jsonl', seed: 0, concurrency: 2, quiet: true });
});

test('each missing piece is a usage error that shows a full example', () => {
  const usage = (argv: string[], pattern: RegExp) => assert.throws(() => parseCommandLine(argv), (e: unknown) => e instanceof UsageError && pattern.test(e.message));
  usage(['generate-counterfactual'], /needs a dataset: rag-inspector generate-counterfactual qa\.jsonl --model/);
  usage(['generate-counterfactual', 'qa.jsonl', '--out', 'x.jsonl'], /needs exactly one --model/);
  usage(['generate-counterfactual', 'qa.jsonl', '--model', 'a:b', '--model', 'c:d', '--out', 'x.jsonl'], /needs exactly one --model/);
  usage(['generate-counterfactual', 'qa.jsonl', '--model', 'a:b'], /needs --out <file>/);
  usage(['generate-counterfactual', 'qa.jsonl', '--model', 'a:b', '--out', 'x', '--seed', '1.5'], /--seed must be a whole number/);
  usage(['run', 'x.eval.yaml', '--seed', '3'], /--seed is for generate-counterfactual/);
});
