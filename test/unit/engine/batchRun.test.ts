// A run in batch mode end to end, for each vendor: the eval file's `batch: true`, the real OpenAI and Anthropic SDKs
// over HTTP to the fixture server's batch endpoints, each result scored into the run log and the cache, the batch
// recorded in the log when submitted, progress reported as the batch moves.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { RunDetached } from '../../../src/core/detach.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { batchCostOf, costOf } from '../../../src/core/providers/prices.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { find } from '../suites/builders.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  server.setBatchProcessingMs(0);
});

/** What differs between the vendors in these tests: the eval file's model, the wire paths, where the server keeps a batch. */
interface Vendor {
  name: string;
  modelKey: string;
  /** The eval file, its model in batch mode or not. */
  yaml: (batch: boolean) => string;
  interactivePath: string;
  batchPath: string;
  cancelPath: (batchId: string) => string;
  /** The newest batch the server holds, and the text of the requests it was given. */
  lastBatchId: () => string | undefined;
  sentText: (batchId: string) => string;
  cancelled: (batchId: string) => boolean;
}

const VENDORS: Vendor[] = [
  {
    name: 'openai',
    modelKey: 'openai-compatible:fixture-model',
    yaml: (batch) => fixtureEvalYaml(server.openaiBaseUrl).replace('    baseUrl:', `${batch ? '    batch: true\n' : ''}    baseUrl:`),
    interactivePath: '/v1/chat/completions',
    batchPath: '/v1/batches',
    cancelPath: (batchId) => `/v1/batches/${batchId}/cancel`,
    lastBatchId: () => [...server.batches.batches.keys()].at(-1),
    sentText: (batchId) => server.batches.files.get(server.batches.batches.get(batchId)?.inputFileId ?? '')?.content ?? '',
    cancelled: (batchId) => server.batches.batches.get(batchId)?.status === 'cancelled',
  },
  {
    name: 'anthropic',
    modelKey: 'anthropic:claude-haiku-4-5',
    yaml: (batch) => fixtureEvalYaml(server.anthropicBaseUrl).replace('provider: openai-compatible\n    model: fixture-model', `provider: anthropic\n    model: claude-haiku-4-5${batch ? '\n    batch: true' : ''}`),
    interactivePath: '/v1/messages',
    batchPath: '/v1/messages/batches',
    cancelPath: (batchId) => `/v1/messages/batches/${batchId}/cancel`,
    lastBatchId: () => [...server.messageBatches.batches.keys()].at(-1),
    sentText: (batchId) => JSON.stringify(server.messageBatches.batches.get(batchId)?.requests ?? []),
    cancelled: (batchId) => server.messageBatches.batches.get(batchId)?.status !== 'in_progress',
  },
];

/** Row i is answered correctly when i is even, wrongly when odd. */
function scriptAnswers(count: number): void {
  for (let i = 0; i < count; i++) {
    server.addRule({ match: { contains: `landmark number ${i}?` }, reply: i % 2 === 0 ? `It is in Answer${i}.` : 'It is in Nowhere.' });
  }
}

const credentials = envCredentials({ ANTHROPIC_API_KEY: 'sk-ant-engine-batch-test' });
const options = (extra: { batch?: boolean } = {}, events: RunEvent[] = []) => ({ signal: new AbortController().signal, credentials, overrides: extra, onEvent: (event: RunEvent) => events.push(event) });
const posts = (pathname: string) => server.requests.filter((r) => r.method === 'POST' && r.path === pathname).length;
const caseOfRow = (row: number) => new RegExp(`noise/${row}/`);

for (const vendor of VENDORS) {
  test(`${vendor.name}: batch: true sends the cases as one batch, scores each result into the run log, records the batch and reports its progress`, async (t) => {
    const ws = createWorkspace({ rows: rgbRows(6), evalYaml: () => vendor.yaml(true) });
    t.after(() => ws.cleanup());
    scriptAnswers(6);

    const events: RunEvent[] = [];
    const outcome = await runEvaluation(ws.evalFile, options({}, events));
    assert.equal(outcome.status, 'success');
    assert.equal(outcome.totals.cases, 6);
    assert.equal(outcome.totals.passed, 3);
    assert.equal(outcome.totals.failed, 3);
    assert.equal(posts(vendor.interactivePath), 0, 'nothing went through the interactive endpoint');
    assert.equal(posts(vendor.batchPath), 1);

    const log = await readRunLog(outcome.logFile);
    assert.equal(log.cases.length, 6);
    assert.equal(log.batches.length, 1);
    assert.equal(log.batches[0]?.modelKey, vendor.modelKey);
    assert.equal(log.batches[0]?.requests.length, 6);
    const batchId = log.batches[0]?.batchId;
    assert.equal(batchId, vendor.lastBatchId());

    // Progress: the submission, then each poll up to every item done.
    const batchEvents = events.filter((event) => event.type === 'batch');
    assert.deepEqual(batchEvents[0], { type: 'batch', modelKey: vendor.modelKey, batchId, state: 'submitted', done: 0, total: 6 });
    assert.deepEqual(batchEvents.at(-1), { type: 'batch', modelKey: vendor.modelKey, batchId, state: 'completed', done: 6, total: 6 });

    // The batch's answers are in the cache: a rerun sends nothing at all.
    server.requests.length = 0;
    const rerun = await runEvaluation(ws.evalFile, options());
    assert.equal(rerun.totals.cacheHits, 6);
    assert.equal(rerun.totals.passed, 3);
    assert.equal(server.requests.length, 0);
    assert.equal((await readRunLog(rerun.logFile)).batches.length, 0);
  });

  test(`${vendor.name}: a run mixed with cache hits sends only the uncached requests in its batch`, async (t) => {
    const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => vendor.yaml(false) });
    t.after(() => ws.cleanup());
    scriptAnswers(5);
    // Three rows answered interactively fill the cache; the same eval file over five rows then runs with --batch.
    await runEvaluation(ws.evalFile, options());
    // The cache lives in the workspace: the dataset grows to five rows in the same one.
    ws.write('data.jsonl', rgbRows(5).map((row) => JSON.stringify(row)).join('\n') + '\n');
    server.requests.length = 0;

    const outcome = await runEvaluation(ws.evalFile, options({ batch: true }));
    assert.equal(outcome.totals.cases, 5);
    assert.equal(outcome.totals.cacheHits, 3);
    assert.equal(posts(vendor.interactivePath), 0);
    assert.equal(posts(vendor.batchPath), 1);
    const log = await readRunLog(outcome.logFile);
    assert.equal(log.batches[0]?.requests.length, 2);
    const sent = vendor.sentText(log.batches[0]?.batchId ?? '');
    assert.match(sent, /landmark number 3\?/);
    assert.match(sent, /landmark number 4\?/);
    assert.doesNotMatch(sent, /landmark number [012]\?/);
  });

  test(`${vendor.name}: cancelling a batch run cancels the remote batch; the run ends cancelled with no case logged`, async (t) => {
    const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => vendor.yaml(true) });
    t.after(() => ws.cleanup());
    server.setBatchProcessingMs(60 * 60_000);
    const release = server.holdBatchCreates();
    t.after(release);
    const controller = new AbortController();
    const running = runEvaluation(ws.evalFile, { ...options(), signal: controller.signal });
    // Cancelled while the vendor is creating the batch (its id not yet known to the run): it is still recorded, then
    // cancelled, never left running unknown. The create is answered only after the cancel has had time to end the run.
    await waitFor(() => (posts(vendor.batchPath) > 0 ? true : undefined), 'the batch submitted');
    controller.abort();
    setTimeout(release, 300);
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    const log = await readRunLog(outcome.logFile);
    assert.equal(log.cases.length, 0);
    assert.equal(log.batches.length, 1);
    const batchId = log.batches[0]?.batchId ?? '';
    await waitFor(() => (vendor.cancelled(batchId) ? true : undefined), 'the remote batch cancelled');
    assert.equal(posts(vendor.cancelPath(batchId)), 1);
  });

  test(`${vendor.name}: a run detached by its host going away (a window reload) leaves the remote batch running and the log interrupted; the resume collects that batch`, async (t) => {
    const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => vendor.yaml(true) });
    t.after(() => ws.cleanup());
    scriptAnswers(3);
    server.setBatchProcessingMs(60 * 60_000);
    const controller = new AbortController();
    const running = runEvaluation(ws.evalFile, { ...options(), signal: controller.signal });
    const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
    const logFile = await waitFor(() => {
      const file = existsSync(runsDir) ? readdirSync(runsDir).find((f) => f.endsWith('.jsonl')) : undefined;
      return file && readFileSync(path.join(runsDir, file), 'utf8').includes('"type":"batch"') ? path.join(runsDir, file) : undefined;
    }, 'the batch line in the run log');
    controller.abort(new RunDetached());
    await assert.rejects(running, RunDetached);

    const left = await readRunLog(logFile);
    assert.equal(left.status, 'started', 'no summary: the run reads as interrupted');
    assert.equal(left.summary, undefined);
    assert.equal(left.batches.length, 1);
    const batchId = left.batches[0]?.batchId ?? '';
    assert.equal(batchId, vendor.lastBatchId());
    // Let a cancel that was (wrongly) sent reach the server before looking.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(posts(vendor.cancelPath(batchId)), 0, 'the remote batch was not cancelled');
    assert.equal(vendor.cancelled(batchId), false);

    server.setBatchProcessingMs(0);
    const resumed = await runEvaluation(ws.evalFile, { ...options(), resume: logFile });
    assert.equal(resumed.status, 'success');
    assert.equal(resumed.totals.cases, 3);
    assert.equal(posts(vendor.batchPath), 1, 'the resume collected the batch, never sent a second');
    assert.equal(posts(vendor.interactivePath), 0);
    const log = await readRunLog(logFile);
    assert.equal(log.cases.length, 3);
    assert.equal(log.batches.length, 1);
  });

  test(`${vendor.name}: an expired item is answered by one interactive call and scored; a refused item is its case's error with the vendor's reason`, async (t) => {
    const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => vendor.yaml(true) });
    t.after(() => ws.cleanup());
    server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'batch_expired' }, times: 1 });
    server.addRule({ match: { contains: 'landmark number 2?' }, fault: { kind: 'status', status: 400 } });
    scriptAnswers(4);

    const outcome = await runEvaluation(ws.evalFile, options());
    assert.equal(outcome.status, 'completed-with-errors');
    // Nothing lost or counted twice: four cases, one line each.
    assert.equal(outcome.totals.cases, 4);
    assert.equal(outcome.totals.error, 1);
    // Row 0 right; rows 1 (expired, then answered interactively) and 3 wrong by script; row 2 refused.
    assert.equal(outcome.totals.passed, 1);
    assert.equal(outcome.totals.failed, 2);
    assert.equal(posts(vendor.batchPath), 1, 'the expired item was not sent in another batch');
    const interactive = server.requests.filter((r) => r.method === 'POST' && r.path === vendor.interactivePath);
    assert.deepEqual(interactive.map((r) => /landmark number \d+\?/.exec(r.lastUserMessage)?.[0]), ['landmark number 1?']);

    const log = await readRunLog(outcome.logFile);
    assert.equal(log.cases.length, 4);
    const retried = log.cases.find((line) => caseOfRow(1).test(line.case.id))?.result.response;
    assert.equal(retried?.text, 'It is in Nowhere.');
    // The interactive answer costs the interactive price, the batch's answers the batch price (Anthropic's is half).
    const batched = log.cases.find((line) => caseOfRow(0).test(line.case.id))?.result.response;
    assert.ok(retried && batched);
    assert.equal(retried.costUsd, costOf(vendor.modelKey, retried.usage));
    assert.equal(batched.costUsd, batchCostOf(vendor.modelKey, batched.usage));
    if (vendor.name === 'anthropic') assert.ok((batched.costUsd ?? 0) > 0 && batched.costUsd === (costOf(vendor.modelKey, batched.usage) ?? 0) / 2);
    const refused = log.cases.find((line) => line.result.error);
    assert.match(refused?.case.id ?? '', caseOfRow(2));
    assert.match(refused?.result.error?.message ?? '', /batch item failed: Scripted status/);
  });

  test(`${vendor.name}: an item failed by a server fault in the batch and again interactively is its case's error with both reasons; the other cases are scored`, async (t) => {
    // No retries in the eval file: the item gets exactly one interactive call.
    const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => vendor.yaml(true).replace('maxRetries: 3', 'maxRetries: 0') });
    t.after(() => ws.cleanup());
    server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'server_error' } });
    scriptAnswers(3);

    const outcome = await runEvaluation(ws.evalFile, options());
    assert.equal(outcome.status, 'completed-with-errors');
    assert.equal(outcome.totals.error, 1);
    // Rows 0 and 2 are answered correctly (scriptAnswers); row 1 never got an answer.
    assert.equal(outcome.totals.passed, 2);
    assert.equal(outcome.totals.failed, 0);
    assert.equal(posts(vendor.interactivePath), 1);
    const failed = (await readRunLog(outcome.logFile)).cases.find((line) => line.result.error);
    assert.match(failed?.case.id ?? '', caseOfRow(1));
    assert.match(failed?.result.error?.message ?? '', /batch item failed: Scripted server_error.*; asked again interactively: .*HTTP 500/);
  });
}

test('judge calls go out as a second wave after the generation wave, and the judged scores come from it', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-batch-judge-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const negatives = Array.from({ length: 7 }, (_, i) => `Noise ${i}: tickets are on sale.`);
  const rows = [0, 1].map((id) => JSON.stringify({ id, query: `Who won the 203${id} final?`, answer: 'Nobody knows', positive: ['irrelevant positive'], negative: negatives }));
  writeFileSync(path.join(dir, 'data.jsonl'), `${rows.join('\n')}\n`);
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
  const evalFile = path.join(dir, 'judged.eval.yaml');
  writeFileSync(evalFile, `version: 1
name: batch judge test
models:
  - ${model('model-under-test')}
judge: ${model('judge')}
suites:
  - id: judged
    method: rgb
    dataset: data.jsonl
    params: { testbed: negative_rejection }
`);
  server.addRule({ match: { model: 'model-under-test' }, reply: 'The documents do not say.' });
  server.addRule({ match: { model: 'judge' }, reply: 'No, the question is not addressed by the documents.' });

  const outcome = await runEvaluation(evalFile, options({ batch: true }));
  assert.equal(outcome.status, 'success');
  const log = await readRunLog(outcome.logFile);
  assert.deepEqual(log.batches.map((batch) => [batch.modelKey, batch.requests.length]), [
    ['openai-compatible:model-under-test', 2],
    ['openai-compatible:judge', 2],
  ]);
  assert.equal(posts('/v1/chat/completions'), 0);
  for (const line of log.cases) assert.equal(find(line.result.scores, 'rej_star').value, 1);
});
