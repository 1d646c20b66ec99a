// Sets up and runs a soak: the fault script both vendors' soaks play, and one eval over a throwaway workspace of RGB rows.
import type { TestContext } from 'node:test';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { Fault, FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import type { EvalFile, ModelEntry } from './builders.js';
import { correctAnswers, createWorkspace, evalYaml, rgbRows } from './builders.js';

/**
 * Two rows that can never succeed, so the error path is exercised whatever the seed draws: row 7 is refused for good
 * (400) after one retryable `firstFault` per model (its attempts must count both), row 13 fails with `exhausted` until
 * it runs out of retries. Every other row is answered correctly.
 */
export function scriptNeverSucceedingRows(server: FixtureServer, models: readonly string[], firstFault: Fault, exhausted: Fault): void {
  for (const model of models) server.addRule({ match: { contains: 'landmark number 7?', model }, fault: firstFault, times: 1 });
  server.addRule({ match: { contains: 'landmark number 7?' }, fault: { kind: 'status', status: 400 } });
  server.addRule({ match: { contains: 'landmark number 13?' }, fault: exhausted });
  server.addRule(correctAnswers());
}

/** "model|row" for every model and every one of `rowCount` rows: the pairs a soak must end with, each once. */
export function expectedPairs(models: readonly string[], rowCount: number): Set<string> {
  return new Set(rgbRows(rowCount).flatMap((row) => models.map((model) => `${model}|${row.id}`)));
}

/** Runs `evalFile` over `rowCount` RGB rows, cache off, keys read from `env` only; the workspace is removed after the test. */
export async function runSoak(t: TestContext, rowCount: number, evalFile: EvalFile, env: Record<string, string> = {}): Promise<RunOutcome> {
  const ws = createWorkspace({ rows: rgbRows(rowCount), evalYaml: () => evalYaml(evalFile) });
  t.after(() => ws.cleanup());
  return runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials(env), noCache: true });
}

/**
 * The rate-limit soak's shape: enough cases past the server's allowance that the client must be refused. The server's
 * window is two seconds rather than a minute, so the run waits out Retry-After in seconds, not a real minute.
 */
export const RATE_LIMITED = { rowCount: 60, perWindow: 40, windowMs: 2_000, concurrency: 8 } as const;

/**
 * The rate-limit soak: a server admitting RATE_LIMITED.perWindow calls a sliding window (429 with Retry-After above
 * it), answering every row correctly, and a run of RATE_LIMITED.rowCount rows on `model` whose eval file declares the
 * same rate (per minute, as eval files say it) and allows 8 retries.
 */
export async function runRateLimitedSoak(t: TestContext, model: (server: FixtureServer) => ModelEntry, env: Record<string, string> = {}): Promise<{ server: FixtureServer; outcome: RunOutcome }> {
  const { rowCount, perWindow, windowMs, concurrency } = RATE_LIMITED;
  const server = await startFixtureServer({ latencyMs: 5, rateLimit: { requestsPerMinute: perWindow, windowMs } });
  t.after(() => server.close());
  server.addRule(correctAnswers());
  const outcome = await runSoak(t, rowCount, { models: [model(server)], concurrency, timeoutMs: 5000, maxRetries: 8, rateLimit: { requestsPerMinute: (perWindow * 60_000) / windowMs } }, env);
  return { server, outcome };
}
