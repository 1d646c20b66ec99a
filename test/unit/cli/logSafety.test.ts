// Run logs as hostile or damaged input to the CLI, in child processes as a user runs it: a forged run id writes
// nothing outside the workspace, a log kept elsewhere gets its reports under its own folder, two processes never
// write one log, and `explain` on a log with no readable case fails clearly.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { runCli, startCli } from '../robustness/cliProcess.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import type { Workspace } from '../engine/workspace.js';

let server: FixtureServer;
let root: string;

before(async () => {
  server = await startFixtureServer();
  answerLandmarks(server, 30);
  root = mkdtempSync(path.join(tmpdir(), 'rag-log-safety-'));
});
after(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

function runsOf(ws: Workspace): string[] {
  const dir = path.join(ws.dir, '.rag-inspector', 'runs');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(dir, f)) : [];
}

/** A finished run of four cases in a workspace two folders below `root/<name>`. */
async function finishedRun(name: string): Promise<{ ws: Workspace; logFile: string; outer: string }> {
  const outer = path.join(root, name);
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  // Moved under `outer/inner/` so what lands above the workspace can be seen.
  const inner = path.join(outer, 'inner');
  mkdirSync(inner, { recursive: true });
  const moved = path.join(inner, 'ws');
  for (const file of ['data.jsonl', 'test.eval.yaml']) {
    mkdirSync(moved, { recursive: true });
    copyFileSync(path.join(ws.dir, file), path.join(moved, file));
  }
  ws.cleanup();
  const workspace: Workspace = { ...ws, dir: moved, evalFile: path.join(moved, 'test.eval.yaml'), datasetFile: path.join(moved, 'data.jsonl') };
  const run = await runCli(['run', workspace.evalFile, '--no-cache', '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const [logFile] = runsOf(workspace);
  assert.ok(logFile);
  return { ws: workspace, logFile, outer };
}

test('a forged run id ("../../../escape/pwned") in a log header: report and --resume refuse it at line 1 and write nothing outside the workspace', async () => {
  const { ws, logFile, outer } = await finishedRun('forged');
  const lines = readFileSync(logFile, 'utf8').split('\n');
  const runId = (JSON.parse(lines[0]!) as { runId: string }).runId;
  lines[0] = lines[0]!.replace(`"runId":"${runId}"`, '"runId":"../../../escape/pwned"');
  writeFileSync(logFile, lines.join('\n'));
  const before = readdirSync(outer).sort();

  const report = await runCli(['report', logFile, '--format', 'json']);
  assert.equal(report.code, 2, report.stderr);
  assert.match(report.stderr, new RegExp(`${path.basename(logFile).replace(/\./g, '\\.')}:1: .*runId "\\.\\./\\.\\./\\.\\./escape/pwned" is not a run id`));
  const resume = await runCli(['run', ws.evalFile, '--resume', logFile, '--no-cache', '--format', 'json']);
  assert.equal(resume.code, 2, resume.stderr);
  assert.match(resume.stderr, /is not a run id/);

  assert.deepEqual(readdirSync(outer).sort(), before, 'nothing new beside the workspace folder');
  assert.ok(!existsSync(path.join(outer, 'inner', 'escape')) && !existsSync(path.join(outer, 'escape')), 'no escape folder');
});

test('report of a log kept outside .rag-inspector/runs/ writes under the log\'s own folder, never above it', async () => {
  const { logFile, outer } = await finishedRun('outside');
  const kept = path.join(outer, 'x', 'y', 'run.jsonl');
  mkdirSync(path.dirname(kept), { recursive: true });
  copyFileSync(logFile, kept);
  const report = await runCli(['report', kept, '--format', 'json']);
  assert.equal(report.code, 0, report.stderr);
  const runId = (JSON.parse(readFileSync(kept, 'utf8').split('\n')[0]!) as { runId: string }).runId;
  assert.ok(existsSync(path.join(outer, 'x', 'y', '.rag-inspector', 'reports', runId, 'report.json')), report.stdout);
  assert.ok(!existsSync(path.join(outer, '.rag-inspector')), 'nothing written three folders up');
  assert.ok(!existsSync(path.join(outer, 'x', '.rag-inspector')));
});

test('two writers of one log: a --resume while the run still runs is refused with its pid; once that process is gone its lock is stale and the resume finishes the run', async (t) => {
  const rows = 24;
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl).replace('concurrency: 4', 'concurrency: 2') });
  t.after(() => ws.cleanup());
  // Slow enough that the first run is still running when the second process has started (whatever the machine's load).
  server.setLatency(1500);
  t.after(() => server.setLatency(0));

  const first = await startCli(['run', ws.evalFile, '--no-cache', '--format', 'json']);
  const logFile = await waitFor(() => {
    const [file] = runsOf(ws);
    return file && readFileSync(file, 'utf8').split('\n').filter((l) => l.includes('"type":"case"')).length >= 2 ? file : undefined;
  }, 'two cases in the first run\'s log', 30_000);
  const second = await runCli(['run', ws.evalFile, '--no-cache', '--resume', logFile, '--format', 'json']);
  assert.equal(first.child.exitCode, null, 'the first run was still running');
  first.child.kill('SIGKILL');
  await first.done;
  server.setLatency(0);
  assert.equal(second.code, 2, second.stderr);
  assert.match(second.stderr, new RegExp(`being written by another RAG Inspector process \\(pid ${first.child.pid}\\b`));
  assert.match(second.stderr, /wait for that run to finish/);
  assert.ok(existsSync(`${logFile}.lock`), 'the killed run left its lock');
  assert.equal(readFileSync(logFile, 'utf8').split('\n').filter((l) => l.includes('"type":"resume"')).length, 0, 'the refused resume wrote nothing');

  const third = await runCli(['run', ws.evalFile, '--no-cache', '--resume', logFile, '--format', 'json']);
  assert.equal(third.code, 0, third.stderr);
  const log = await readRunLog(logFile);
  assert.deepEqual(log.problems, []);
  assert.equal(log.summary?.status, 'success');
  assert.equal(new Set(log.cases.map((c) => c.case.id)).size, rows);
  assert.ok(!existsSync(`${logFile}.lock`), 'released when the run ended');
});

test('explain on a log whose every case line is damaged: a clear error naming the line, exit 2', async () => {
  const { logFile } = await finishedRun('explain');
  const lines = readFileSync(logFile, 'utf8').split('\n').map((l) => (l.startsWith('{"type":"case"') ? '{"type":"case","case":{},"result":{}}' : l));
  writeFileSync(logFile, lines.join('\n'));
  const explain = await runCli(['explain', logFile, '--failed', '--format', 'json']);
  assert.equal(explain.code, 2, explain.stdout + explain.stderr);
  assert.match(explain.stderr, /no case of this run log can be read: \d+ damaged line\(s\)/);
  assert.doesNotMatch(explain.stdout, /0 cases/);
});
