// A rerun the cache answers whole needs no server: the pre-run check asks only the servers some call will reach.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { runCli } from '../robustness/cliProcess.js';

const cli = (args: string[]) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' });

test('a fully cached rerun succeeds with the server down; a row the cache lacks still gets the pre-run check', async (t) => {
  const server = await startFixtureServer();
  answerLandmarks(server, 3);
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  const first = await cli(['run', ws.evalFile, '--format', 'json']);
  assert.equal(first.code, 0, first.stderr);
  await server.close();

  const cached = await cli(['run', ws.evalFile, '--format', 'json']);
  assert.equal(cached.code, 0, cached.stderr);
  assert.match(cached.stdout, /Cases: 2 \(2 passed, 0 failed, 0 errors\)/);
  assert.match(cached.stdout, /cache hits: 2/);
  assert.doesNotMatch(cached.stderr, /connection refused|cannot connect/);

  // --refresh asks every model again: the check is made, and says the server is down.
  const refreshed = await cli(['run', ws.evalFile, '--format', 'json', '--refresh']);
  assert.equal(refreshed.code, 2);
  assert.match(refreshed.stderr, /connection refused at .* — is the server running\?/);

  // A new row makes a call the cache cannot answer: the check is made, and says the server is down.
  appendFileSync(ws.datasetFile, `${JSON.stringify(rgbRows(3)[2])}\n`);
  const grown = await cli(['run', ws.evalFile, '--format', 'json']);
  assert.equal(grown.code, 2);
  assert.match(grown.stderr, /connection refused at .* — is the server running\?/);
});
