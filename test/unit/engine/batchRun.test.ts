// A run in batch mode end to end: the eval file's `batch: true`, the real OpenAI SDK over HTTP to the fixture server's
// batch endpoints, each result scored into the run log and the cache, the batch recorded in the log when submitted.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
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

/** Row i is answered correctly when i is even, wrongly when odd. */
function scriptAnswers(count: number): void {
  for (let i = 0; i < count; i++) {
    server.addRule({ match: { contains: `landmark number ${i}?` }, reply: i % 2 === 0 ? `It is in Answer${i}.` : 'It is in Nowhere.' });
  }
}

const batchYaml = () => fixtureEvalYaml(server.openaiBaseUrl).replace('    baseUrl:', '    batch: true\n    baseUrl:');
const options = (extra: { batch?: boolean } = {}) => ({ signal: new AbortController().signal, credentials: envCredentials({}), overrides: extra });
const posts = (pathname: string) => server.requests.filter((r) => r.method === 'POST' && r.path === pathname).length;

test('batch: true sends the cases as one batch, scores each result into the run log and records the batch there', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(6), evalYaml: batchYaml });
  t.after(() => ws.cleanup());
  scriptAnswers(6);

  const outcome = await runEvaluation(ws.evalFile, options());
  assert.equal(outcome.status, 'success');
  assert.equal(outcome.totals.cases, 6);
  assert.equal(outcome.totals.passed, 3);
  assert.equal(outcome.totals.failed, 3);
  assert.equal(posts('/v1/chat/completions'), 0, 'nothing went through the interactive endpoint');
  assert.equal(posts('/v1/batches'), 1);

  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 6);
  assert.equal(log.batches.length, 1);
  assert.equal(log.batches[0]?.modelKey, 'openai-compatible:fixture-model');
  assert.equal(log.batches[0]?.requests.length, 6);
  assert.equal(log.batches[0]?.batchId, [...server.batches.batches.keys()].at(-1));

  // The batch's answers are in the cache: a rerun sends nothing at all.
  server.requests.length = 0;
  const rerun = await runEvaluation(ws.evalFile, options());
  assert.equal(rerun.totals.cacheHits, 6);
  assert.equal(rerun.totals.passed, 3);
  assert.equal(server.requests.length, 0);
  assert.equal((await readRunLog(rerun.logFile)).batches.length, 0);
});

test('a run mixed with cache hits sends only the uncached requests in its batch', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(3), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
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
  assert.equal(posts('/v1/chat/completions'), 0);
  assert.equal(posts('/v1/batches'), 1);
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.batches[0]?.requests.length, 2);
  const uploaded = server.batches.files.get(log.batches[0]?.inputFileId ?? '')?.content ?? '';
  assert.match(uploaded, /landmark number 3\?/);
  assert.match(uploaded, /landmark number 4\?/);
  assert.doesNotMatch(uploaded, /landmark number [012]\?/);
});

test('cancelling a batch run cancels the remote batch; the run ends cancelled with no case logged', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: batchYaml });
  t.after(() => ws.cleanup());
  server.setBatchProcessingMs(60 * 60_000);
  const controller = new AbortController();
  const running = runEvaluation(ws.evalFile, { signal: controller.signal, credentials: envCredentials({}) });
  while (posts('/v1/batches') === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.cases.length, 0);
  assert.equal(log.batches.length, 1);
  const batchId = log.batches[0]?.batchId ?? '';
  while (server.batches.batches.get(batchId)?.status !== 'cancelled') await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(posts(`/v1/batches/${batchId}/cancel`), 1);
});

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

test("a batch item the vendor failed is that case's error, with the vendor's reason; the other cases are scored", async (t) => {
  const ws = createWorkspace({ rows: rgbRows(3), evalYaml: batchYaml });
  t.after(() => ws.cleanup());
  server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'server_error' } });
  scriptAnswers(3);

  const outcome = await runEvaluation(ws.evalFile, options());
  assert.equal(outcome.status, 'completed-with-errors');
  assert.equal(outcome.totals.error, 1);
  // Rows 0 and 2 are answered correctly (scriptAnswers); row 1 never got an answer.
  assert.equal(outcome.totals.passed, 2);
  assert.equal(outcome.totals.failed, 0);
  const failed = (await readRunLog(outcome.logFile)).cases.find((line) => line.result.error);
  assert.match(failed?.case.id ?? '', /noise\/1\//);
  assert.match(failed?.result.error?.message ?? '', /batch item failed: Scripted server_error/);
});
