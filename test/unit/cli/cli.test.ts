// The CLI as a user runs it, in a child process: reports, exit codes, and resume after the process is killed.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';

const CLI = path.resolve('src/cli/main.ts');
let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 40; i++) server.addRule({ match: { contains: `landmark number ${i}?` }, reply: i % 4 === 3 ? 'No idea.' : `Answer${i}.` });
});
after(async () => {
  await server.close();
});

interface Exit { code: number | null; stdout: string; stderr: string }

/** Runs from the repo root (where tsx resolves); the CLI finds the workspace from the eval file's folder. */
function cli(args: string[]): { child: ReturnType<typeof spawn>; done: Promise<Exit> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], { env: { ...process.env, CI: 'true' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  const done = new Promise<Exit>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done };
}

test('run writes JSON, CSV and JUnit reports and prints the suite table; exit 0 when thresholds pass, 1 when one fails', async (t) => {
  const passing = createWorkspace({ rows: rgbRows(8), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl, { suite: '    thresholds: { accuracy: { min: 0.5 } }' }) });
  t.after(() => passing.cleanup());
  const ok = await cli(['run', passing.evalFile, '--out', path.join(passing.dir, 'reports')]).done;
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /PASS {2}noise\.accuracy/);
  assert.match(ok.stdout, /0\.750/);
  for (const file of ['report.json', 'cases.csv', 'junit.xml', 'report.html']) assert.ok(existsSync(path.join(passing.dir, 'reports', file)), file);
  assert.match(readFileSync(path.join(passing.dir, 'reports', 'report.html'), 'utf8'), /<script type="application\/json" id="rag-inspector-data">/);
  assert.match(ok.stderr, /progress: 8\/8/);

  const failing = createWorkspace({ rows: rgbRows(8), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl, { suite: '    thresholds: { accuracy: { min: 0.9 } }' }) });
  t.after(() => failing.cleanup());
  const fail = await cli(['run', failing.evalFile]).done;
  assert.equal(fail.code, 1, fail.stderr);
  assert.match(fail.stdout, /FAIL {2}noise\.accuracy/);
});

test('exit 2 with file:line on a broken eval file, and on a missing key', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(1), evalYaml: () => 'version: 1\nname: x\nmodels: [ "extractive:bm25" ]\nsuites:\n  - id: a\n    method: rgb\n    dataset: nowhere.jsonl\n' });
  t.after(() => ws.cleanup());
  const broken = await cli(['run', ws.evalFile]).done;
  assert.equal(broken.code, 2);
  assert.match(broken.stderr, new RegExp(`test\\.eval\\.yaml:7:\\d+`));

  const keyless = createWorkspace({ rows: rgbRows(1), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl).replace('openai-compatible', 'openai') });
  t.after(() => keyless.cleanup());
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'run', keyless.evalFile], { env: { PATH: process.env.PATH ?? '' } });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const code = await new Promise((resolve) => child.on('close', resolve));
  assert.equal(code, 2);
  assert.match(stderr, /OPENAI_API_KEY/);
});

test('killed mid-run, then --resume latest: every case present once, no finished case called again', async (t) => {
  const rows = 24;
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl).replace('concurrency: 4', 'concurrency: 2') });
  t.after(() => ws.cleanup());
  server.setLatency(60);
  t.after(() => server.setLatency(0));

  const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
  const { child, done } = cli(['run', ws.evalFile, '--no-cache']);
  const logFile = await waitFor(() => {
    const files = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.jsonl')) : [];
    const file = files[0] && path.join(runsDir, files[0]);
    return file && readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"case"')).length >= 5 ? file : undefined;
  }, 'five cases in the run log');
  child.kill('SIGKILL');
  await done;

  const before = await readRunLog(logFile);
  assert.equal(before.status, 'started', 'a killed run has no summary');
  const finished = new Set(before.cases.map((c) => c.case.id));
  assert.ok(finished.size >= 5 && finished.size < rows, `finished ${finished.size}`);

  server.requests.length = 0;
  const resumed = await cli(['run', ws.evalFile, '--no-cache', '--resume', 'latest']).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  const afterResume = await readRunLog(logFile);
  assert.equal(afterResume.summary?.status, 'success');
  assert.equal(afterResume.cases.length, rows);
  assert.equal(new Set(afterResume.cases.map((c) => c.case.id)).size, rows);
  for (const request of server.requests) {
    const row = /landmark number (\d+)\?/.exec(request.text)?.[1];
    assert.ok(!finished.has(`noise/${row}/noise=0`), `finished case ${row} was called again`);
  }
});
