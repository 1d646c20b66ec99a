// The VS Code notification's words for how a run ended: never "success" when cases errored, the same three counts
// as the CLI, and the first cause with its fix.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCausesOf } from '../../../src/core/errorCauses.js';
import type { RunTotals } from '../../../src/core/model.js';
import { outcomeMessage } from '../../../src/extension/outcomeMessage.js';

const totals = (passed: number, failed: number, error: number): RunTotals => ({
  cases: passed + failed + error, success: passed + failed, error, passed, failed, modelCalls: 0, cacheHits: 0, judgeCalls: 0, inputTokens: 0, outputTokens: 0,
});

test('a run whose cases all errored: completed with errors, the counts, the cause and its fix', () => {
  const refused = { stage: 'model' as const, kind: 'network', message: 'failed after 5 attempts: OpenAI-compatible (http://127.0.0.1:8080/v1): connection failed (Connection error.: ECONNREFUSED)' };
  const causes = errorCausesOf(Array.from({ length: 7 }, (_, i) => ({ caseId: `noise/${i}/noise=0`, modelKey: 'openai-compatible:qwen', status: 'error' as const, error: refused })));
  assert.equal(causes.length, 1);
  assert.equal(causes[0]!.count, 7);
  assert.equal(
    outcomeMessage('run-1', 'completed-with-errors', totals(0, 0, 7), causes),
    'run run-1 completed with errors: 0 passed, 0 failed, 7 errors. Cause: OpenAI-compatible (http://127.0.0.1:8080/v1): connection failed (Connection error.: ECONNREFUSED) — is the server running? Start it, or correct baseUrl in the eval file.',
  );
});

test('causes are grouped by their words, not their numbers, and the others are counted', () => {
  const overflow = (tokens: number) => ({ stage: 'model' as const, kind: 'context_overflow', status: 400, message: `llama.cpp answered HTTP 400: prompt too long: ${tokens} tokens, the model's context holds 4096` });
  const causes = errorCausesOf([
    { caseId: 'a', modelKey: 'm', status: 'error', error: overflow(5011) },
    { caseId: 'b', modelKey: 'm', status: 'error', error: overflow(6020) },
    { caseId: 'c', modelKey: 'm', status: 'error', error: { stage: 'model', kind: 'timeout', message: 'no answer before the call\'s time limit' } },
  ]);
  assert.deepEqual(causes.map((c) => [c.count, c.firstCaseId]), [[2, 'a'], [1, 'c']]);
  assert.match(outcomeMessage('run-2', 'completed-with-errors', totals(1, 0, 3), causes), /Cause: .*5011 tokens.*llama\.cpp -c.* \(and 1 other cause: see the RAG Inspector output\)\.$/);
  assert.equal(outcomeMessage('run-3', 'success', totals(3, 1, 0), []), 'run run-3 success: 3 passed, 1 failed, 0 errors.');
});
