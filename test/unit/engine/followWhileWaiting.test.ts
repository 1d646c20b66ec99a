// A case logged while the run waits on its model is fed to the tables and the follower (the CLI's live reports) in
// that pause, not only once hundreds of lines wait or the run ends (engine/followLog.ts): the reports of a run that
// waits on a server keep up with it, and its last cases' feeding is not left until after the last answer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { CompletionRequest, Provider } from '../../../src/core/providers/contract.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';
import { createWorkspace, rgbRows } from './workspace.js';

test('a case is fed to the follower while the run waits on the next answer', { timeout: 60_000 }, async () => {
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
  try {
    let firstFed!: () => void;
    const fed = new Promise<void>((resolve) => { firstFed = resolve; });
    let calls = 0;
    // The host's model: the second call is answered only once the follower was given the first case. Were the first
    // case fed only after hundreds of lines or at the run's end, this run would never end.
    const held: Provider = {
      id: 'vscode-lm', label: 'held', endpoint: 'vscode-lm',
      async complete(_request: CompletionRequest) {
        calls += 1;
        if (calls === 2) await fed;
        return { text: 'an answer', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, cached: false };
      },
    };
    const given: CaseLine[] = [];
    const outcome = await runEvaluation(workspace.evalFile, {
      signal: new AbortController().signal,
      credentials: envCredentials({}),
      noCache: true,
      providers: { 'vscode-lm': async () => held },
      follower: {
        start: () => undefined,
        add: async (line) => {
          given.push(line);
          if (given.length === 1) firstFed();
        },
      },
    });
    assert.equal(outcome.status, 'success');
    assert.equal(calls, 3);
    assert.equal(given.length, 3, 'every case was fed');
    assert.equal(outcome.followed?.exact, true);
  } finally {
    workspace.cleanup();
  }
});

test('a follower that fails while the run waits fails the run with its error, once', { timeout: 60_000 }, async () => {
  const workspace = createWorkspace({
    rows: rgbRows(3),
    evalYaml: ({ dataset }) => `version: 1
name: follower fails
models:
  - vscode-lm:slow
concurrency: 1
suites:
  - id: noise
    method: rgb
    dataset: ${dataset}
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`,
  });
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    let failed!: () => void;
    const followerFailed = new Promise<void>((resolve) => { failed = resolve; });
    let calls = 0;
    // The second call is answered only once the follower has failed, so the failure comes from a feeding in the pause.
    const slow: Provider = {
      id: 'vscode-lm', label: 'slow', endpoint: 'vscode-lm',
      async complete() {
        calls += 1;
        if (calls === 2) await followerFailed;
        return { text: 'an answer', usage: { inputTokens: 1, outputTokens: 1 }, latencyMs: 0, cached: false };
      },
    };
    await assert.rejects(runEvaluation(workspace.evalFile, {
      signal: new AbortController().signal,
      credentials: envCredentials({}),
      noCache: true,
      providers: { 'vscode-lm': async () => slow },
      follower: {
        start: () => undefined,
        add: async () => {
          failed();
          throw new Error('the disk is full');
        },
      },
    }), /the disk is full/);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(unhandled, [], 'no rejection left unhandled');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    workspace.cleanup();
  }
});
