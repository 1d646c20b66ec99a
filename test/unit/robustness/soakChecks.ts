// What a soak run must satisfy whatever the vendor: every (case, model) pair ends once, in the results and the run log, and the fixture server's record agrees.
import assert from 'node:assert/strict';
import type { RecordedRequest } from '../../fixtures/llmServer.js';
import type { CaseResult } from '../../../src/core/model.js';
import { countBy, rawLogLines, rowOf } from './builders.js';

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
