// Tokens a server reports for attempts that failed are paid for: the run's totals count them apart from the answers'.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { formatTotals } from '../../../src/core/report/summaryText.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

/** A 5xx whose error object reports the tokens the server spent before failing. */
function failingWithUsage(promptTokens: number, completionTokens: number) {
  return { kind: 'status' as const, status: 500, body: { error: { message: 'the server failed mid-answer', type: 'server_error', usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } } } };
}

test('tokens of failed attempts (retried, and failed after the retries) are counted apart, with their cost', async (t) => {
  const prices = 'prices: { "openai-compatible:fixture-model": { input: 1, output: 2 } }';
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl, { top: prices }).replace('maxRetries: 3', 'maxRetries: 1') });
  t.after(() => ws.cleanup());
  // Row 0: one failed attempt, then the answer. Row 1: fails on both of its attempts.
  server.addRule({ match: { contains: 'landmark number 0?' }, fault: failingWithUsage(1000, 50), times: 1 });
  server.addRule({ match: { contains: 'landmark number 1?' }, fault: failingWithUsage(300, 0) });
  answerLandmarks(server, 2);

  const run = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(run.totals.success, 1);
  assert.equal(run.totals.error, 1);
  const answered = run.totals.inputTokens;
  assert.ok(answered > 0 && answered < 1000, "the answer's own tokens stay in inputTokens, the failed ones apart");
  // Prices are per million tokens: (1000 + 2 × 300) in at $1, 50 out at $2.
  assert.deepEqual(run.totals.failedAttempts, { inputTokens: 1600, outputTokens: 50, costUsd: (1600 * 1 + 50 * 2) / 1e6 });
  assert.match(formatTotals(run.totals), / \+ 1600 in \/ 50 out spent on failed attempts \(\$0\.0017\)/);

  const log = await readRunLog(run.logFile);
  assert.deepEqual(log.summary?.totals.failedAttempts, run.totals.failedAttempts, 'the summary line (and so report.json) carries them');
});

test('a run with no failed attempt says nothing about them', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(1), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  answerLandmarks(server, 1);
  const run = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(run.totals.failedAttempts, undefined);
  assert.doesNotMatch(formatTotals(run.totals), /failed attempts/);
});
