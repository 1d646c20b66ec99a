// A run in batch mode on an Anthropic model end to end: the real @anthropic-ai/sdk over HTTP to the fixture server's
// Message Batches endpoints, each result scored into the run log and the cache, the batch recorded when submitted.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { createWorkspace, rgbRows } from './workspace.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  server.setBatchProcessingMs(0);
});

const MODEL_KEY = 'anthropic:claude-haiku-4-5';

function anthropicYaml(batch: boolean): string {
  return `version: 1
name: anthropic batch test
models:
  - provider: anthropic
    model: claude-haiku-4-5
    baseUrl: ${server.anthropicBaseUrl}
${batch ? '    batch: true\n' : ''}concurrency: 4
maxRetries: 0
timeoutMs: 5000
suites:
  - id: noise
    method: rgb
    dataset: data.jsonl
    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }
`;
}

/** Row i is answered correctly when i is even, wrongly when odd. */
function scriptAnswers(count: number): void {
  for (let i = 0; i < count; i++) {
    server.addRule({ match: { contains: `landmark number ${i}?` }, reply: i % 2 === 0 ? `It is in Answer${i}.` : 'It is in Nowhere.' });
  }
}

function options(extra: { batch?: boolean } = {}, events: RunEvent[] = []) {
  return { signal: new AbortController().signal, credentials: envCredentials({ ANTHROPIC_API_KEY: 'sk-ant-engine-test' }), overrides: extra, onEvent: (event: RunEvent) => events.push(event) };
}

const posts = (pathname: string) => server.requests.filter((r) => r.method === 'POST' && r.path === pathname).length;

test('batch: true on an Anthropic model sends the cases as one Message Batch, scores each result into the run log and records the batch', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(6), evalYaml: () => anthropicYaml(true) });
  t.after(() => ws.cleanup());
  scriptAnswers(6);

  const events: RunEvent[] = [];
  const outcome = await runEvaluation(ws.evalFile, options({}, events));
  assert.equal(outcome.status, 'success');
  assert.equal(outcome.totals.cases, 6);
  assert.equal(outcome.totals.passed, 3);
  assert.equal(outcome.totals.failed, 3);
  assert.equal(posts('/v1/messages'), 0, 'nothing went through the interactive endpoint');
  assert.equal(posts('/v1/messages/batches'), 1);

  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 6);
  assert.equal(log.batches.length, 1);
  assert.equal(log.batches[0]?.modelKey, MODEL_KEY);
  assert.equal(log.batches[0]?.requests.length, 6);
  assert.equal(log.batches[0]?.inputFileId, undefined);
  assert.equal(log.batches[0]?.batchId, [...server.messageBatches.batches.keys()].at(-1));

  // Progress: the submission, then the batch's polls up to every item done.
  const batchEvents = events.filter((event): event is Extract<RunEvent, { type: 'batch' }> => event.type === 'batch');
  assert.deepEqual(batchEvents[0], { type: 'batch', modelKey: MODEL_KEY, batchId: log.batches[0]?.batchId, state: 'submitted', done: 0, total: 6 });
  assert.deepEqual(batchEvents.at(-1), { type: 'batch', modelKey: MODEL_KEY, batchId: log.batches[0]?.batchId, state: 'completed', done: 6, total: 6 });

  // The batch's answers are in the cache: a rerun sends nothing at all.
  server.requests.length = 0;
  const rerun = await runEvaluation(ws.evalFile, options());
  assert.equal(rerun.totals.cacheHits, 6);
  assert.equal(server.requests.length, 0);
});

test('an Anthropic batch run mixed with cache hits sends only the uncached requests', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => anthropicYaml(false) });
  t.after(() => ws.cleanup());
  scriptAnswers(5);
  await runEvaluation(ws.evalFile, options());
  assert.equal(posts('/v1/messages'), 3);
  ws.write('data.jsonl', rgbRows(5).map((row) => JSON.stringify(row)).join('\n') + '\n');
  server.requests.length = 0;

  const outcome = await runEvaluation(ws.evalFile, options({ batch: true }));
  assert.equal(outcome.totals.cases, 5);
  assert.equal(outcome.totals.cacheHits, 3);
  assert.equal(posts('/v1/messages'), 0);
  assert.equal(posts('/v1/messages/batches'), 1);
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.batches[0]?.requests.length, 2);
  const sent = JSON.stringify(server.messageBatches.batches.get(log.batches[0]?.batchId ?? '')?.requests);
  assert.match(sent, /landmark number 3\?/);
  assert.match(sent, /landmark number 4\?/);
  assert.doesNotMatch(sent, /landmark number [012]\?/);
});

test("expired items are answered interactively and scored; a refused item is its case's error with the vendor's reason; none is lost or counted twice", async (t) => {
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => anthropicYaml(true) });
  t.after(() => ws.cleanup());
  server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'batch_expired' }, times: 1 });
  server.addRule({ match: { contains: 'landmark number 2?' }, fault: { kind: 'status', status: 400 } });
  scriptAnswers(4);

  const outcome = await runEvaluation(ws.evalFile, options());
  assert.equal(outcome.status, 'completed-with-errors');
  assert.equal(outcome.totals.cases, 4);
  assert.equal(outcome.totals.error, 1);
  // Row 0 right, row 1 (expired, then answered interactively) wrong by script, row 3 wrong by script.
  assert.equal(outcome.totals.passed, 1);
  assert.equal(outcome.totals.failed, 2);
  assert.equal(posts('/v1/messages/batches'), 1);
  assert.deepEqual(server.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages').map((r) => r.lastUserMessage.match(/landmark number \d+\?/)?.[0]), ['landmark number 1?']);

  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 4, 'one line per case');
  const expired = log.cases.find((line) => /noise\/1\//.test(line.case.id));
  assert.equal(expired?.result.response?.text, 'It is in Nowhere.');
  const refused = log.cases.find((line) => line.result.error);
  assert.match(refused?.case.id ?? '', /noise\/2\//);
  assert.match(refused?.result.error?.message ?? '', /Anthropic batch item failed: Scripted status \(invalid_request_error\)/);
});

test('cancelling an Anthropic batch run cancels the remote batch; the run ends cancelled with no case logged', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => anthropicYaml(true) });
  t.after(() => ws.cleanup());
  server.setBatchProcessingMs(60 * 60_000);
  const controller = new AbortController();
  const running = runEvaluation(ws.evalFile, { ...options(), signal: controller.signal });
  await waitFor(() => (posts('/v1/messages/batches') > 0 ? true : undefined), 'the batch submitted');
  controller.abort();
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 0);
  assert.equal(log.batches.length, 1);
  const batchId = log.batches[0]?.batchId ?? '';
  await waitFor(() => (posts(`/v1/messages/batches/${batchId}/cancel`) > 0 ? true : undefined), 'the cancel of the remote batch', 5_000);
  assert.equal(server.messageBatches.batches.get(batchId)?.status, 'canceling');
});
