// A case logged while the run waits on its model is fed to the tables and the follower (the CLI's live reports) in
// that pause, not only once hundreds of lines wait or the run ends (engine/followLog.ts): the reports of a run that
// waits on a server keep up with it, and its last cases' feeding is not left until after the last answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { LogFollower } from '../../../src/core/engine/followLog.js';
import type { Provider } from '../../../src/core/providers/contract.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';
import { createWorkspace, rgbRows } from './workspace.js';

/**
 * Three cases, one call at a time, on a host model (VS Code's, here a stand-in) whose second call is answered only once
 * `secondAnswer` settles: what the follower does meanwhile can only happen in the run's pause.
 */
async function runWaitingOnSecondCall(secondAnswer: Promise<void>, follower: LogFollower) {
  const workspace = createWorkspace({
    rows: rgbRows(3),
    evalYaml: ({ dataset }) => `version: 1
name: fed while waiting
models:
  - vscode-lm:held
concurrency: 1
suites:
  - id: noise
    method: rgb
    dataset: ${dataset}
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`,
  });
  let calls = 0;
  const held: Provider = {
    id: 'vscode-lm', label: 'held', endpoint: 'vscode-lm',
    async complete() {
      calls += 1;
      if (calls === 2) await secondAnswer;
      return { text: 'an answer', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, cached: false };
    },
  };
  try {
    const outcome = await runEvaluation(workspace.evalFile, {
      signal: new AbortController().signal,
      credentials: envCredentials({}),
      noCache: true,
      providers: { 'vscode-lm': async () => held },
      follower,
    });
    return { outcome, calls };
  } finally {
    workspace.cleanup();
  }
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((settle) => { resolve = settle; });
  return { promise, resolve };
}

test('a case is fed to the follower while the run waits on the next answer', { timeout: 60_000 }, async () => {
  // Were the first case fed only after hundreds of lines or at the run's end, this run would never end.
  const firstFed = signal();
  const given: CaseLine[] = [];
  const { outcome, calls } = await runWaitingOnSecondCall(firstFed.promise, {
    start: () => undefined,
    add: async (line) => {
      given.push(line);
      firstFed.resolve();
    },
  });
  assert.equal(outcome.status, 'success');
  assert.equal(calls, 3);
  assert.equal(given.length, 3, 'every case was fed');
  assert.equal(outcome.followed?.exact, true);
});

test('a follower that fails while the run waits fails the run with its error, none left unhandled', { timeout: 60_000 }, async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    // The second call is answered only once the follower has failed, so the failure comes from a feeding in the pause.
    const followerFailed = signal();
    await assert.rejects(runWaitingOnSecondCall(followerFailed.promise, {
      start: () => undefined,
      add: async () => {
        followerFailed.resolve();
        throw new Error('the disk is full');
      },
    }), /the disk is full/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, []);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
