// Soak: hundreds of cases through runEvaluation and the real OpenAI SDK against a fixture server that fails a fifth of its calls, and one that rate-limits.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FaultKind } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { caseIdOf, correctAnswers, createWorkspace, evalYaml, fixtureModel, rgbRows } from './builders.js';
import { assertNothingLostOrDuplicated } from './soakChecks.js';
import { loggedRun } from '../engine/loggedRun.js';

const FAULT_KINDS: FaultKind[] = ['rate_limit', 'server_error', 'slow', 'hang', 'malformed', 'drop', 'stream_error'];
/** Kinds a case may end with after its retries ran out; anything else would be a misclassified fault. */
const RETRYABLE_KINDS = new Set(['rate_limit', 'server', 'timeout', 'network', 'bad_response']);
const MODELS = ['soak-streaming', 'soak-plain'];

const options = () => ({ signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });

describe('the engine under load', { concurrency: true }, () => {
  test('a fifth of the calls fail (every fault kind, streaming and not): every case ends once, as a success or an error with its cause', async (t) => {
    const rowCount = 200;
    const server = await startFixtureServer({ latencyMs: 2, faultRate: { rate: 0.2, seed: 20261122, kinds: FAULT_KINDS } });
    t.after(() => server.close());
    // Two rows that can never succeed, so the error path is exercised whatever the seed draws: row 7 is refused for
    // good after a retryable failure (its attempts must count both), row 13 runs out of retries.
    for (const model of MODELS) server.addRule({ match: { contains: 'landmark number 7?', model }, fault: { kind: 'server_error', status: 502 }, times: 1 });
    server.addRule({ match: { contains: 'landmark number 7?' }, fault: { kind: 'status', status: 400 } });
    server.addRule({ match: { contains: 'landmark number 13?' }, fault: { kind: 'server_error', status: 503 } });
    server.addRule(correctAnswers());
    const ws = createWorkspace({
      rows: rgbRows(rowCount),
      evalYaml: () => evalYaml({
        models: [fixtureModel(server.openaiBaseUrl, 'soak-streaming', { stream: true }), fixtureModel(server.openaiBaseUrl, 'soak-plain')],
        concurrency: 8,
        timeoutMs: 2500,
        maxRetries: 4,
      }),
    });
    t.after(() => ws.cleanup());

    const outcome = await runEvaluation(ws.evalFile, options());
    const fromLog = await loggedRun(outcome);

    const expected = new Set(rgbRows(rowCount).flatMap((row) => MODELS.map((model) => `${model}|${row.id}`)));
    assertNothingLostOrDuplicated(outcome.logFile, server.requests, expected);

    const drawn = new Set(server.requests.flatMap((r) => (r.reply?.fault ? [`${r.reply.fault.kind}/${r.stream ? 'stream' : 'plain'}`] : [])));
    for (const kind of FAULT_KINDS) {
      assert.ok(drawn.has(`${kind}/stream`) && drawn.has(`${kind}/plain`), `fault ${kind} was injected on both paths: ${[...drawn].join(', ')}`);
    }
    assert.ok(server.requests.some((r) => r.model === 'soak-streaming' && r.stream) && server.requests.every((r) => r.stream === (r.model === 'soak-streaming')));

    for (const result of fromLog.results) {
      const row = Number(/^noise\/(\d+)\//.exec(result.caseId)?.[1]);
      if (result.status === 'success') {
        // A dropped stream's first bytes ("par") or a malformed body must never pass for an answer.
        assert.equal(result.response?.text, `It is in Answer${row}.`, result.caseId);
        assert.equal(result.pass, true, result.caseId);
        continue;
      }
      assert.ok(result.error && result.error.kind && result.error.message, `${result.caseId} records its cause`);
      if (row === 7) assert.deepEqual([result.error.kind, result.attempts], ['bad_request', 2], `${result.caseId}: ${result.error.message}`);
      else if (row === 13) assert.match(result.error.message, /failed after 5 attempts: .*503/);
      else assert.ok(RETRYABLE_KINDS.has(result.error.kind), `${result.caseId}: ${result.error.kind}: ${result.error.message}`);
    }
    for (const row of [7, 13]) {
      assert.deepEqual(fromLog.results.filter((r) => r.caseId === caseIdOf(row)).map((r) => r.status), ['error', 'error']);
    }
    // 0.2^5 per case: a retry policy that works leaves (almost) nothing else failed.
    const unexpectedErrors = fromLog.results.filter((r) => r.status === 'error' && r.caseId !== caseIdOf(7) && r.caseId !== caseIdOf(13));
    assert.ok(unexpectedErrors.length <= 2, `retries should absorb random faults: ${unexpectedErrors.map((r) => `${r.caseId} ${r.error?.message}`).join('; ')}`);
  });

  test('a server-side rate limit: refused calls stay within the retry overshoot and no case fails for rate limiting', async (t) => {
    const rowCount = 60;
    const perMinute = 40;
    const concurrency = 8;
    const server = await startFixtureServer({ latencyMs: 5, rateLimit: { requestsPerMinute: perMinute } });
    t.after(() => server.close());
    server.addRule(correctAnswers());
    const ws = createWorkspace({
      rows: rgbRows(rowCount),
      evalYaml: () => evalYaml({
        models: [fixtureModel(server.openaiBaseUrl, 'limited')],
        concurrency,
        timeoutMs: 5000,
        maxRetries: 8,
        rateLimit: { requestsPerMinute: perMinute },
      }),
    });
    t.after(() => ws.cleanup());

    const outcome = await runEvaluation(ws.evalFile, options());
    const fromLog = await loggedRun(outcome);

    const expected = new Set(rgbRows(rowCount).map((row) => `limited|${row.id}`));
    assertNothingLostOrDuplicated(outcome.logFile, server.requests, expected);
    assert.deepEqual(fromLog.results.filter((r) => r.status !== 'success').map((r) => `${r.caseId}: ${r.error?.message}`), []);
    const refused = server.requests.filter((r) => r.reply?.status === 429).length;
    const admitted = server.requests.filter((r) => r.reply?.status === 200).length;
    assert.equal(admitted, rowCount, 'the server admitted each case once');
    assert.ok(refused >= 1, 'the test drove the client past the server limit');
    // The overshoot: a call beyond the minute's allowance is refused about once, then waits out Retry-After; the calls
    // in flight when the window fills, and when it reopens, add up to a concurrency's worth each. A client that retried
    // on its own schedule would be refused again and again (and run out of retries).
    const overshoot = rowCount - perMinute + 2 * concurrency;
    assert.ok(refused <= overshoot, `${refused} calls refused for ${rowCount} cases (bound ${overshoot})`);
  });
});
