// What a soak run must satisfy whatever the vendor: every (case, model) pair ends once, in the results and the run log, and the fixture server's record agrees.
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../../fixtures/llmServer.js';
import type { CaseResult } from '../../../src/core/model.js';
import { caseIdOf, countBy, rawLogLines, rowOf } from './builders.js';
import { RATE_LIMITED } from './soakRun.js';

/** "model|row", the identity of a (case, model) pair on both sides: the engine's results and the server's requests. */
export const pairKey = (model: string | undefined, row: number | undefined): string | undefined => (model === undefined || row === undefined ? undefined : `${model}|${row}`);

/** The pair of a result of an RGB suite built by rgbSuite(), its model named without the provider. */
export const resultPair = (result: CaseResult): string | undefined =>
  pairKey(result.modelKey.slice(result.modelKey.indexOf(':') + 1), Number(/^noise\/(\d+)\//.exec(result.caseId)?.[1]));

/** The case results as the run log holds them (every case line, duplicates included, so duplicates can be counted). */
export function loggedResults(logFile: string): CaseResult[] {
  return rawLogLines(logFile).filter((line) => line.type === 'case').map((line) => line.result as CaseResult);
}

/** Replies the server finished sending with the scripted answer: what a model call that succeeded looks like from its side. */
export function served(request: RecordedRequest): boolean {
  return request.reply?.status === 200 && request.reply.text !== undefined && request.clientClosed !== true;
}

/**
 * Each pair once in the log, with a summary that counts them all; each successful pair served exactly once by the
 * server, and no pair sent more requests than the attempts its result records.
 */
export function assertNothingLostOrDuplicated(logFile: string, requests: readonly RecordedRequest[], expected: Set<string>): CaseResult[] {
  const results = loggedResults(logFile);
  const counts = countBy(results, resultPair);
  assert.deepEqual(new Set(counts.keys()), expected, 'every (case, model) pair is in the run log');
  assert.deepEqual([...counts.entries()].filter(([, n]) => n !== 1), [], 'no pair is logged twice');
  const summary = rawLogLines(logFile).at(-1) as { type: string; totals: { cases: number; success: number; error: number } };
  assert.equal(summary.type, 'summary');
  assert.equal(summary.totals.cases, expected.size);
  assert.equal(summary.totals.success + summary.totals.error, expected.size);

  const byPair = new Map<string, RecordedRequest[]>();
  for (const request of requests) {
    const key = pairKey(request.model, rowOf(request));
    if (key) byPair.set(key, [...(byPair.get(key) ?? []), request]);
  }
  for (const result of results) {
    const key = resultPair(result)!;
    const calls = byPair.get(key) ?? [];
    assert.equal(calls.filter(served).length, result.status === 'success' ? 1 : 0, `${key}: ${result.status} after ${calls.length} requests`);
    assert.ok(calls.length >= 1 && calls.length <= result.attempts, `${key}: the server saw ${calls.length} requests for ${result.attempts} attempts`);
  }
  return results;
}

/** Kinds a case may end with after its retries ran out; anything else would be a misclassified fault. */
const RETRYABLE_KINDS = new Set(['rate_limit', 'server', 'timeout', 'network', 'bad_response']);

/** Every fault kind was injected on the streaming path and on the plain one, so both paths' handling was exercised. */
export function assertFaultsDrawnOnBothPaths(requests: readonly RecordedRequest[], kinds: readonly string[]): void {
  const drawn = new Set(requests.flatMap((r) => (r.reply?.fault ? [`${r.reply.fault.kind}/${r.stream ? 'stream' : 'plain'}`] : [])));
  for (const kind of kinds) {
    assert.ok(drawn.has(`${kind}/stream`) && drawn.has(`${kind}/plain`), `fault ${kind} was injected on both paths: ${[...drawn].join(', ')}`);
  }
}

/**
 * The fault soak's outcomes, case by case: a success carries its row's answer and passed (a dropped stream's first
 * bytes, a mid-stream error event or a malformed body must never pass for one); an error records its cause. Row 7 is
 * refused for good after one retryable failure (bad_request after 2 attempts), row 13 runs out of retries on
 * `exhaustedStatus`; both fail for every model. Any other error is retryable, and at most two of them (0.2^5 per case:
 * a retry policy that works leaves almost nothing else failed).
 */
export function assertFaultOutcomes(results: readonly CaseResult[], exhaustedStatus: number): void {
  for (const result of results) {
    const row = Number(/^noise\/(\d+)\//.exec(result.caseId)?.[1]);
    if (result.status === 'success') {
      assert.equal(result.response?.text, `It is in Answer${row}.`, result.caseId);
      assert.equal(result.pass, true, result.caseId);
      continue;
    }
    assert.ok(result.error && result.error.kind && result.error.message, `${result.caseId} records its cause`);
    if (row === 7) assert.deepEqual([result.error.kind, result.attempts], ['bad_request', 2], `${result.caseId}: ${result.error.message}`);
    else if (row === 13) assert.match(result.error.message, new RegExp(`failed after 5 attempts: .*${exhaustedStatus}`));
    else assert.ok(RETRYABLE_KINDS.has(result.error.kind), `${result.caseId}: ${result.error.kind}: ${result.error.message}`);
  }
  for (const row of [7, 13]) {
    assert.deepEqual(results.filter((r) => r.caseId === caseIdOf(row)).map((r) => r.status), ['error', 'error']);
  }
  const unexpectedErrors = results.filter((r) => r.status === 'error' && r.caseId !== caseIdOf(7) && r.caseId !== caseIdOf(13));
  assert.ok(unexpectedErrors.length <= 2, `retries should absorb random faults: ${unexpectedErrors.map((r) => `${r.caseId} ${r.error?.message}`).join('; ')}`);
}

/**
 * No case failed, the server admitted each case once and refused at least one call, and no more than the retry
 * overshoot: a call beyond the window's allowance is refused about once, then waits out Retry-After; the calls in
 * flight when the window fills, and when it reopens, add up to a concurrency's worth each. A client that retried on
 * its own schedule would be refused again and again (and run out of retries).
 */
export function assertRateLimitHeld(results: readonly CaseResult[], requests: readonly RecordedRequest[]): void {
  const { rowCount, perWindow, concurrency } = RATE_LIMITED;
  assert.deepEqual(results.filter((r) => r.status !== 'success').map((r) => `${r.caseId}: ${r.error?.message}`), []);
  const refused = requests.filter((r) => r.reply?.status === 429).length;
  const admitted = requests.filter((r) => r.reply?.status === 200).length;
  assert.equal(admitted, rowCount, 'the server admitted each case once');
  assert.ok(refused >= 1, 'the test drove the client past the server limit');
  const overshoot = rowCount - perWindow + 2 * concurrency;
  assert.ok(refused <= overshoot, `${refused} calls refused for ${rowCount} cases (bound ${overshoot})`);
}
