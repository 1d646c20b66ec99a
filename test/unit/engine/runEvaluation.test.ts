// The engine end to end: the real OpenAI SDK over HTTP to the fixture server, the run log, the cache, faults, cancel and resume.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';
import { loggedRun } from './loggedRun.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  server.setLatency(0);
});

/** Row i is answered correctly when i is even, wrongly when odd. */
function scriptAnswers(count: number): void {
  for (let i = 0; i < count; i++) {
    server.addRule({ match: { contains: `landmark number ${i}?` }, reply: i % 2 === 0 ? `It is in Answer${i}.` : 'It is in Nowhere.' });
  }
}

function chatRequests(): number {
  return server.requests.filter((r) => r.api === 'openai-chat').length;
}

const options = (signal = new AbortController().signal) => ({ signal, credentials: envCredentials({}) });

test('a run calls the model once per case, scores, logs every case, and a rerun is served from the cache', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(6), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  scriptAnswers(6);

  const events: RunEvent[] = [];
  const first = await runEvaluation(ws.evalFile, { ...options(), onEvent: (e) => events.push(e) });
  assert.equal(first.status, 'success');
  assert.equal(first.totals.cases, 6);
  assert.equal(first.totals.passed, 3);
  assert.equal(first.totals.failed, 3);
  assert.equal(first.totals.modelCalls, 6);
  assert.equal(chatRequests(), 6);
  assert.equal(events.filter((e) => e.type === 'case-finished').length, 6);

  const log = await readRunLog(first.logFile);
  assert.equal(log.header.models[0], 'openai-compatible:fixture-model');
  assert.equal(log.cases.length, 6);
  assert.equal(log.summary?.status, 'success');
  const passedCase = log.cases.find((c) => c.case.id === 'noise/0/noise=0');
  assert.equal(passedCase?.result.pass, true);
  assert.equal(passedCase?.case.messages.at(-1)?.role, 'user');
  assert.match(passedCase?.case.messages.at(-1)?.content ?? '', /Question:\nWhere is landmark number 0\?/);

  const accuracy = first.reports[0]?.metrics.find((m) => m.name === 'accuracy');
  assert.equal(accuracy?.value, 0.5);

  const second = await runEvaluation(ws.evalFile, options());
  assert.equal(second.totals.modelCalls, 0, 'an unchanged rerun makes no model calls');
  assert.equal(second.totals.cacheHits, 6);
  assert.equal(chatRequests(), 6);
  assert.equal(second.totals.passed, 3);

  const third = await runEvaluation(ws.evalFile, { ...options(), noCache: true });
  assert.equal(third.totals.modelCalls, 6, '--no-cache calls again');
});

test('given the eval file already loaded (the extension loads it once to price the run), the engine runs that spec without reading the file again', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  scriptAnswers(2);
  const spec = await loadEvalSpec(ws.evalFile);
  // A run that read the file again would end in InputErrors: this no longer loads.
  writeFileSync(ws.evalFile, 'version: [not an eval file\n');
  const outcome = await runEvaluation(spec, { ...options(), noCache: true });
  assert.equal(outcome.status, 'success');
  assert.equal(outcome.totals.cases, 2);
  assert.equal(outcome.spec.hash, spec.hash);
  const log = await readRunLog(outcome.logFile);
  assert.deepEqual(log.header.spec, { file: spec.file, hash: spec.hash, name: spec.name }, 'the run is logged as a run of the spec it was given');
});

test('faults: 429 with Retry-After and 500s are retried to success; a permanent 401 becomes a recorded error; nothing is lost', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(5), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  server.addRule({ match: { contains: 'landmark number 0?' }, fault: { kind: 'rate_limit', retryAfterMs: 50 }, times: 1 });
  server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'server_error', status: 503 }, times: 2 });
  server.addRule({ match: { contains: 'landmark number 2?' }, fault: { kind: 'malformed' }, times: 1 });
  server.addRule({ match: { contains: 'landmark number 3?' }, fault: { kind: 'status', status: 401 } });
  scriptAnswers(5);

  const outcome = await runEvaluation(ws.evalFile, { ...options(), noCache: true });
  const fromLog = await loggedRun(outcome);
  const byCase = new Map(fromLog.results.map((r) => [r.caseId, r]));
  assert.equal(fromLog.results.length, 5, 'every case ends with a result');
  assert.equal(byCase.get('noise/0/noise=0')?.status, 'success');
  assert.equal(byCase.get('noise/0/noise=0')?.attempts, 2);
  assert.equal(byCase.get('noise/1/noise=0')?.attempts, 3);
  assert.equal(byCase.get('noise/2/noise=0')?.status, 'success');
  const unauthorised = byCase.get('noise/3/noise=0');
  assert.equal(unauthorised?.status, 'error');
  assert.equal(unauthorised?.error?.kind, 'auth');
  assert.equal(unauthorised?.attempts, 1, 'auth errors are not retried');
  assert.equal(outcome.totals.error, 1);

  const log = await readRunLog(outcome.logFile);
  assert.equal(new Set(log.cases.map((c) => c.case.id)).size, 5, 'no case lost or duplicated in the log');
});

test('cancel mid-run leaves a valid cancelled log; resume finishes it without calling any finished case again', async (t) => {
  const rows = 12;
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  scriptAnswers(rows);
  server.setLatency(40);

  const controller = new AbortController();
  const cancelled = await runEvaluation(ws.evalFile, {
    ...options(controller.signal),
    noCache: true,
    onEvent: (e) => { if (e.type === 'case-finished' && e.done === 3) controller.abort(); },
  });
  assert.equal(cancelled.status, 'cancelled');
  const partial = await readRunLog(cancelled.logFile);
  assert.equal(partial.summary?.status, 'cancelled');
  const finishedBefore = new Set(partial.cases.map((c) => c.case.id));
  assert.ok(finishedBefore.size >= 3 && finishedBefore.size < rows, `finished ${finishedBefore.size}`);

  server.requests.length = 0;
  const resumed = await runEvaluation(ws.evalFile, { ...options(), noCache: true, resume: cancelled.logFile });
  assert.equal(resumed.status, 'success');
  assert.equal(resumed.runId, cancelled.runId);
  const full = await readRunLog(cancelled.logFile);
  assert.equal(full.cases.length, rows);
  assert.equal(new Set(full.cases.map((c) => c.case.id)).size, rows);
  for (const request of server.requests) {
    const row = /landmark number (\d+)\?/.exec(request.text)?.[1];
    assert.ok(!finishedBefore.has(`noise/${row}/noise=0`), `finished case ${row} was called again on resume`);
  }
  assert.equal(resumed.totals.cases, rows, 'the summary counts the cases of both sessions');
  // No retries here, so calls = one per case: the earlier session's are counted from its logged results.
  assert.equal(resumed.totals.modelCalls, rows, 'model calls of both sessions');
});

test('bad rows and a missing template variable are reported with file:line; the good cases still run', async (t) => {
  const ws = createWorkspace({
    rows: rgbRows(3),
    extraLines: ['{"id": 99, "query": "broken", ', '{"id": 100, "query": "no answer field", "positive": [], "negative": []}'],
    evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl, {
      suite: `  - id: custom
    method: rgb
    dataset: data.jsonl
    template: custom.prompt
    params: { testbed: noise_robustness, noiseRates: [0] }
`,
    }),
  });
  t.after(() => ws.cleanup());
  ws.write('custom.prompt', 'user:\n{{ question }} — {{ customer_name }}\n');
  scriptAnswers(3);

  const order: string[] = [];
  const outcome = await runEvaluation(ws.evalFile, {
    ...options(),
    onEvent: (e) => order.push(e.type === 'input-problem' ? `problem: ${e.problem.message}` : e.type),
  });
  const fromLog = await loggedRun(outcome);
  const messages = outcome.problems.map((p) => `${p.file}:${p.line ?? ''}: ${p.message}`);
  // Before any model is called: the missing variable is found without rendering, in the pass that counts the cases.
  const started = order.indexOf('run-started');
  assert.ok(order.slice(0, started).some((e) => /customer_name/.test(e)), order.join('\n'));
  assert.equal(order.filter((e) => /customer_name/.test(e)).length, 3, 'each row reported once');
  assert.ok(messages.some((m) => m.includes(`${ws.datasetFile}:4:`)), messages.join('\n'));
  assert.ok(messages.some((m) => m.includes(`${ws.datasetFile}:5:`)), messages.join('\n'));
  assert.ok(messages.some((m) => /customer_name/.test(m)), messages.join('\n'));
  assert.equal(fromLog.results.filter((r) => r.caseId.startsWith('noise/')).length, 3, 'the good rows ran');
  assert.equal(fromLog.results.filter((r) => r.caseId.startsWith('custom/')).length, 0, 'no model call for cases that could not render');
});

test('an eval file with mistakes fails before any model call, naming file and line', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(1), evalYaml: () => 'version: 1\nname: broken\nmodels: [ "extractive:bm25" ]\nconcurency: 3\nsuites: []\n' });
  t.after(() => ws.cleanup());
  await assert.rejects(runEvaluation(ws.evalFile, options()), (error: Error) => {
    assert.match(error.message, new RegExp(`${ws.evalFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:1`));
    assert.match(error.message, /concurrency/);
    return true;
  });
  assert.equal(chatRequests(), 0);
  assert.equal(readFileSync(ws.evalFile, 'utf8').includes('concurency'), true);
});
