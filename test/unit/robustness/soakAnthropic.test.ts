// Soak through the real Anthropic SDK: hundreds of cases against a fixture server speaking the Messages API that fails a fifth of its calls (streaming and not), and one that rate-limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FaultKind } from '../../fixtures/llmServer.js';
import type { ModelEntry } from './builders.js';
import { assertFaultOutcomes, assertFaultsDrawnOnBothPaths, assertNothingLostOrDuplicated, assertRateLimitHeld } from './soakChecks.js';
import { RATE_LIMITED, expectedPairs, runRateLimitedSoak, runSoak, scriptNeverSucceedingRows } from './soakRun.js';

const FAULT_KINDS: FaultKind[] = ['rate_limit', 'server_error', 'status', 'slow', 'hang', 'malformed', 'drop', 'stream_error'];
const MODELS = ['claude-soak-streaming', 'claude-soak-plain'];
const API_KEY = 'sk-ant-fixture-soak';
const ENV = { ANTHROPIC_API_KEY: API_KEY };

function anthropicModel(baseUrl: string, model: string, parameters: Record<string, unknown> = {}): ModelEntry {
  return { provider: 'anthropic', model, baseUrl, parameters };
}

describe('the engine under load, through the Anthropic SDK', { concurrency: true }, () => {
  test('a fifth of the calls fail (every fault kind, 529 overloaded, streaming and not): every case ends once, as a success or an error with its cause', async (t) => {
    const rowCount = 200;
    // `status` draws 529 (overloaded), the Anthropic 5xx that is not one of the common three.
    const server = await startFixtureServer({ latencyMs: 2, faultRate: { rate: 0.2, seed: 20261123, kinds: FAULT_KINDS }, requireApiKey: API_KEY });
    t.after(() => server.close());
    scriptNeverSucceedingRows(server, MODELS, { kind: 'stream_error' }, { kind: 'status', status: 529 });

    const outcome = await runSoak(t, rowCount, {
      models: [anthropicModel(server.anthropicBaseUrl, MODELS[0]!, { stream: true }), anthropicModel(server.anthropicBaseUrl, MODELS[1]!)],
      concurrency: 8,
      timeoutMs: 2500,
      maxRetries: 4,
    }, ENV);

    const results = assertNothingLostOrDuplicated(outcome.logFile, server.requests, expectedPairs(MODELS, rowCount));
    // The server refuses any other key with a 401, which would fail the case as auth, not as a retryable fault.
    assert.ok(server.requests.every((r) => r.api === 'anthropic-messages' && r.headers['anthropic-version'] !== undefined), 'every request spoke the Messages API');
    assert.ok(server.requests.some((r) => r.stream) && server.requests.every((r) => r.stream === (r.model === MODELS[0])), 'streaming only for the streaming model');
    assertFaultsDrawnOnBothPaths(server.requests, FAULT_KINDS);
    assertFaultOutcomes(results, 529);
  });

  test('a server-side rate limit: refused calls stay within the retry overshoot and no case fails for rate limiting', async (t) => {
    const { server, outcome } = await runRateLimitedSoak(t, (fixture) => anthropicModel(fixture.anthropicBaseUrl, 'claude-limited', { stream: true }), ENV);

    const results = assertNothingLostOrDuplicated(outcome.logFile, server.requests, expectedPairs(['claude-limited'], RATE_LIMITED.rowCount));
    assertRateLimitHeld(results, server.requests);
  });
});
