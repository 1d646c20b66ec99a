// Soak: hundreds of cases through runEvaluation and the real OpenAI SDK against a fixture server that fails a fifth of its calls, and one that rate-limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FaultKind } from '../../fixtures/llmServer.js';
import { fixtureModel } from './builders.js';
import { assertFaultOutcomes, assertFaultsDrawnOnBothPaths, assertNothingLostOrDuplicated, assertRateLimitHeld } from './soakChecks.js';
import { RATE_LIMITED, expectedPairs, runRateLimitedSoak, runSoak, scriptNeverSucceedingRows } from './soakRun.js';
import { loggedRun } from '../engine/loggedRun.js';

const FAULT_KINDS: FaultKind[] = ['rate_limit', 'server_error', 'slow', 'hang', 'malformed', 'drop', 'stream_error'];
const MODELS = ['soak-streaming', 'soak-plain'];

describe('the engine under load', { concurrency: true }, () => {
  test('a fifth of the calls fail (every fault kind, streaming and not): every case ends once, as a success or an error with its cause', async (t) => {
    const rowCount = 200;
    const server = await startFixtureServer({ latencyMs: 2, faultRate: { rate: 0.2, seed: 20261122, kinds: FAULT_KINDS } });
    t.after(() => server.close());
    scriptNeverSucceedingRows(server, MODELS, { kind: 'server_error', status: 502 }, { kind: 'server_error', status: 503 });

    const outcome = await runSoak(t, rowCount, {
      models: [fixtureModel(server.openaiBaseUrl, 'soak-streaming', { stream: true }), fixtureModel(server.openaiBaseUrl, 'soak-plain')],
      concurrency: 8,
      timeoutMs: 2500,
      maxRetries: 4,
    });
    const fromLog = await loggedRun(outcome);

    assertNothingLostOrDuplicated(outcome.logFile, server.requests, expectedPairs(MODELS, rowCount));
    assertFaultsDrawnOnBothPaths(server.requests, FAULT_KINDS);
    assert.ok(server.requests.some((r) => r.model === 'soak-streaming' && r.stream) && server.requests.every((r) => r.stream === (r.model === 'soak-streaming')));
    assertFaultOutcomes(fromLog.results, 503);
  });

  test('a server-side rate limit: refused calls stay within the retry overshoot and no case fails for rate limiting', async (t) => {
    const { server, outcome } = await runRateLimitedSoak(t, (fixture) => fixtureModel(fixture.openaiBaseUrl, 'limited'));
    const fromLog = await loggedRun(outcome);

    assertNothingLostOrDuplicated(outcome.logFile, server.requests, expectedPairs(['limited'], RATE_LIMITED.rowCount));
    assertRateLimitHeld(fromLog.results, server.requests);
  });
});
