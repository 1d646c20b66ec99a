// A run and its resume count model calls the same way: every provider call, retries and failed calls included.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

test("a resumed run counts the earlier session's calls as that session counted them (retries and failed calls too)", async (t) => {
  const rows = 4;
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl).replace('maxRetries: 3', 'maxRetries: 1') });
  t.after(() => ws.cleanup());
  // Row 0 answers on its second attempt; row 1 fails both of its attempts.
  server.addRule({ match: { contains: 'landmark number 0?' }, fault: { kind: 'status', status: 500, body: { error: { message: 'busy' } } }, times: 1 });
  server.addRule({ match: { contains: 'landmark number 1?' }, fault: { kind: 'status', status: 500, body: { error: { message: 'down' } } } });
  answerLandmarks(server, rows);
  const signal = new AbortController().signal;
  const credentials = envCredentials({});

  const first = await runEvaluation(ws.evalFile, { signal, credentials, noCache: true });
  const sent = server.requests.filter((r) => r.api === 'openai-chat').length;
  assert.equal(first.totals.error, 1);
  assert.equal(first.totals.modelCalls, sent, 'the run counts every call it sent');
  assert.equal(sent, rows + 2);

  // Nothing new to run: the resumed run's count is the earlier session's, read back from its log.
  const resumed = await runEvaluation(ws.evalFile, { signal, credentials, noCache: true, resume: first.logFile });
  assert.equal(server.requests.filter((r) => r.api === 'openai-chat').length, sent, 'the resume sent nothing');
  assert.equal(resumed.totals.modelCalls, first.totals.modelCalls);
});
