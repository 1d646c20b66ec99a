// Batch mode as a user runs it: `run --batch` killed after its batch was submitted, then `--resume latest` collects that
// batch; the server's record shows one submission and no interactive call.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { waitFor } from '../../fixtures/waitFor.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { startCli } from '../robustness/cliProcess.js';

let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 4; i++) server.addRule({ match: { contains: `landmark number ${i}?` }, reply: `Answer${i}.` });
});
after(async () => {
  await server.close();
});

// The built CLI in a child process (robustness/cliProcess.ts), so a test can kill it mid-run.
const cli = (args: string[]) => startCli(args, { ...process.env as Record<string, string>, CI: 'true' });

const posts = (pathname: string) => server.requests.filter((r) => r.method === 'POST' && r.path === pathname).length;

test('run --batch killed after submitting, then --resume latest: the batch is collected, never submitted again', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  // The batch stays in progress until the first process is gone.
  server.setBatchProcessingMs(60 * 60_000);

  const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
  const { child, done } = await cli(['run', ws.evalFile, '--batch', '--no-preflight']);
  const logFile = await waitFor(() => {
    const files = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.jsonl')) : [];
    const file = files[0] && path.join(runsDir, files[0]);
    return file && readFileSync(file, 'utf8').includes('"type":"batch"') ? file : undefined;
  }, 'the batch line in the run log');
  child.kill('SIGKILL');
  await done;

  const killed = await readRunLog(logFile);
  assert.equal(killed.status, 'started');
  assert.equal(killed.cases.length, 0);
  assert.equal(killed.batches.length, 1);
  assert.equal(killed.batches[0]?.requests.length, 4);
  assert.equal(posts('/v1/batches'), 1);

  server.setBatchProcessingMs(0);
  const resumed = await (await cli(['run', ws.evalFile, '--batch', '--no-preflight', '--format', 'json', '--resume', 'latest'])).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  const log = await readRunLog(logFile);
  assert.equal(log.summary?.status, 'success');
  assert.equal(log.cases.length, 4);
  assert.deepEqual(log.cases.map((c) => c.result.response?.text).sort(), ['Answer0.', 'Answer1.', 'Answer2.', 'Answer3.']);
  assert.equal(posts('/v1/batches'), 1, 'the resumed run submitted nothing');
  assert.equal(posts('/v1/files'), 1);
  assert.equal(posts('/v1/chat/completions'), 0);
  assert.equal(log.batches.length, 1);
});
