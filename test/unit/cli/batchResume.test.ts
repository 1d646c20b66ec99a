// Batch mode as a user runs it: `run --batch` killed after its batch was submitted, then `--resume latest` collects that
// batch; the server's record shows one submission and no interactive call.
import type { ChildProcess } from 'node:child_process';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { startCli } from '../robustness/cliProcess.js';

let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  answerLandmarks(server, 4);
});
after(async () => {
  await server.close();
});

// The built CLI in a child process (robustness/cliProcess.ts), so a test can kill it mid-run.
const cli = (args: string[]) => startCli(args, { ...process.env as Record<string, string>, CI: 'true' });

/** The child's stderr as it arrives (startCli hands it over only at exit); attached right after the start, before any output. */
function liveStderr(child: ChildProcess): { text: string } {
  const seen = { text: '' };
  child.stderr?.on('data', (chunk: Buffer) => {
    seen.text += chunk.toString();
  });
  return seen;
}

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

test('Anthropic: run --batch prints the batch as plain lines, is killed after submitting, and --resume collects it without a second POST', async (t) => {
  const evalYaml = () => fixtureEvalYaml(server.anthropicBaseUrl).replace('provider: openai-compatible\n    model: fixture-model', 'provider: anthropic\n    model: claude-haiku-4-5\n    batch: true');
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml });
  t.after(() => ws.cleanup());
  server.setBatchProcessingMs(60 * 60_000);
  const env = { ...process.env as Record<string, string>, CI: 'true', ANTHROPIC_API_KEY: 'sk-ant-cli-batch-test' };

  const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
  const { child, done } = await startCli(['run', ws.evalFile, '--no-preflight'], env);
  const stderr = liveStderr(child);
  const logFile = await waitFor(() => {
    const files = existsSync(runsDir) ? readdirSync(runsDir).filter((f) => f.endsWith('.jsonl')) : [];
    const file = files[0] && path.join(runsDir, files[0]);
    return file && readFileSync(file, 'utf8').includes('"type":"batch"') ? file : undefined;
  }, 'the batch line in the run log');
  const killed = await readRunLog(logFile);
  const batchId = killed.batches[0]?.batchId ?? '';
  // The first poll's line comes right after the submission's; the kill waits for both.
  await waitFor(() => (/in progress, 0 of 4 done/.test(stderr.text) ? true : undefined), 'the in-progress line');
  child.kill('SIGKILL');
  const first = await done;
  assert.match(first.stderr, new RegExp(`batch ${batchId} \\(anthropic:claude-haiku-4-5\\): submitted, 4 requests`));
  assert.equal(killed.cases.length, 0);
  assert.equal(killed.batches.length, 1);
  assert.equal(posts('/v1/messages/batches'), 1);

  server.setBatchProcessingMs(0);
  const resumed = await (await startCli(['run', ws.evalFile, '--no-preflight', '--format', 'json', '--resume', 'latest'], env)).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, new RegExp(`batch ${batchId} \\(anthropic:claude-haiku-4-5\\): ended, 4 of 4 done`));
  assert.doesNotMatch(resumed.stderr, /submitted/);
  const log = await readRunLog(logFile);
  assert.equal(log.summary?.status, 'success');
  assert.deepEqual(log.cases.map((c) => c.result.response?.text).sort(), ['Answer0.', 'Answer1.', 'Answer2.', 'Answer3.']);
  assert.equal(posts('/v1/messages/batches'), 1, 'the resumed run submitted nothing');
  assert.equal(posts('/v1/messages'), 0);
  assert.equal(log.batches.length, 1);
});

test('explain of a batched run killed after submitting its variants, then explain again: the batch is collected from the variant log, never submitted again', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  server.setBatchProcessingMs(0);
  const run = await (await cli(['run', ws.evalFile, '--batch', '--no-preflight', '--format', 'json'])).done;
  assert.equal(run.code, 0, run.stderr);
  const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
  const runLog = path.join(runsDir, readdirSync(runsDir).find((f) => f.endsWith('.jsonl')) ?? '');
  const caseId = (await readRunLog(runLog)).cases[0]?.case.id ?? '';
  const batchesOfRun = posts('/v1/batches');

  // The variants' batch stays in progress until the first explain is gone.
  server.setBatchProcessingMs(60 * 60_000);
  const variantLog = path.join(ws.dir, '.rag-inspector', 'explanations', path.basename(runLog));
  const { child, done } = await cli(['explain', runLog, '--case', caseId]);
  const stderr = liveStderr(child);
  await waitFor(() => (existsSync(variantLog) && readFileSync(variantLog, 'utf8').includes('"type":"batch"') ? true : undefined), 'the batch line in the variant log');
  await waitFor(() => (/batch batch-fixture-\d+ \(openai-compatible:fixture-model\): submitted/.test(stderr.text) ? true : undefined), 'the batch printed');
  child.kill('SIGKILL');
  await done;
  assert.equal(posts('/v1/batches'), batchesOfRun + 1);

  server.setBatchProcessingMs(0);
  const again = await (await cli(['explain', runLog, '--case', caseId])).done;
  assert.equal(again.code, 0, again.stderr);
  assert.equal(posts('/v1/batches'), batchesOfRun + 1, 'the second explain submitted nothing');
  assert.equal(posts('/v1/chat/completions'), 0);
  const logged = await readRunLog(variantLog);
  assert.equal(logged.batches.length, 1);
  // The variant in the original order is the run's own request, from the cache; every other one came from the batch.
  assert.equal(logged.cases.filter((line) => line.result.response?.cached !== true).length, logged.batches[0]?.requests.length, 'each variant answered from the one batch');
});

/** The command a cancelled run printed to finish it, as arguments for the CLI (the bundle's own path dropped). */
function printedResume(stderr: string): string[] {
  const command = /cancelled: finish it with {2}(.+)$/m.exec(stderr)?.[1];
  assert.ok(command, `no resume command in:\n${stderr}`);
  const words = command.split(' ');
  assert.equal(words[0], 'node');
  assert.match(words[1] ?? '', /cli\.cjs$/);
  return words.slice(2);
}

test('run --batch cancelled with Ctrl-C mid-batch, then the printed command: batch mode restored, the finished items kept, one new batch of only the rest', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  // Items are processed one by one over the delay: the first poll sees part of the batch done.
  server.setBatchProcessingMs(16_000);
  const batchesBefore = new Set(server.batches.batches.keys());

  const { child, done } = await cli(['run', ws.evalFile, '--batch', '--no-preflight']);
  const stderr = liveStderr(child);
  await waitFor(() => (/in progress, [1-3] of 4 done/.test(stderr.text) ? true : undefined), 'the batch partly done', 40_000);
  child.kill('SIGINT');
  const cancelled = await done;
  assert.equal(cancelled.code, 130, cancelled.stderr);
  const [first] = [...server.batches.batches.values()].filter((b) => !batchesBefore.has(b.id));
  assert.equal(first?.status, 'cancelled');
  const finishedByFirst = first?.counts.completed ?? 0;
  assert.ok(finishedByFirst >= 1 && finishedByFirst < 4, `the cancelled batch answered ${finishedByFirst} of 4`);
  const args = printedResume(cancelled.stderr);
  assert.ok(!args.includes('--batch'), 'the printed command needs no --batch: the run log says it');

  server.setBatchProcessingMs(0);
  const chatBefore = posts('/v1/chat/completions');
  const resumed = await (await cli([...args, '--format', 'json'])).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /batch mode, as the run was started: its batches are collected and the rest goes in new batches \(--no-batch asks interactively\)/);
  const created = [...server.batches.batches.values()].filter((b) => !batchesBefore.has(b.id));
  assert.equal(created.length, 2, 'one new batch');
  assert.equal(created[1]?.counts.total, 4 - finishedByFirst, 'only the requests the cancelled batch had not answered');
  assert.equal(posts('/v1/chat/completions'), chatBefore, 'nothing asked interactively');
  const log = await readRunLog(path.join(ws.dir, '.rag-inspector', 'runs', `${args[args.indexOf('--resume') + 1]}.jsonl`));
  assert.equal(log.summary?.status, 'success');
  assert.deepEqual(log.cases.map((c) => c.result.response?.text).sort(), ['Answer0.', 'Answer1.', 'Answer2.', 'Answer3.']);
});

test('run --batch killed with kill -9, then --resume without --batch: batch mode restored from the run log and the batch collected; --no-batch is refused with --batch', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
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
  assert.equal((await readRunLog(logFile)).header.batch, true);
  const batchPosts = posts('/v1/batches');
  const chatBefore = posts('/v1/chat/completions');

  server.setBatchProcessingMs(0);
  const runId = path.basename(logFile, '.jsonl');
  const resumed = await (await cli(['run', ws.evalFile, '--no-preflight', '--format', 'json', '--resume', runId])).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.match(resumed.stderr, /batch mode, as the run was started/);
  assert.equal(posts('/v1/batches'), batchPosts, 'the batch was collected, not submitted again');
  assert.equal(posts('/v1/chat/completions'), chatBefore, 'nothing asked interactively');
  const log = await readRunLog(logFile);
  assert.equal(log.summary?.status, 'success');
  assert.equal(log.cases.length, 4);

  const both = await (await cli(['run', ws.evalFile, '--batch', '--no-batch'])).done;
  assert.equal(both.code, 2);
  assert.match(both.stderr, /--batch and --no-batch contradict each other/);
});

test('--no-batch on the resume of a batched run asks the rest interactively and says nothing of batch mode', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  server.setBatchProcessingMs(16_000);
  const { child, done } = await cli(['run', ws.evalFile, '--batch', '--no-preflight']);
  const stderr = liveStderr(child);
  await waitFor(() => (/submitted, 4 requests/.test(stderr.text) ? true : undefined), 'the batch submitted', 40_000);
  child.kill('SIGINT');
  const cancelled = await done;
  assert.equal(cancelled.code, 130, cancelled.stderr);
  server.setBatchProcessingMs(0);
  const batchPosts = posts('/v1/batches');
  const resumed = await (await cli([...printedResume(cancelled.stderr), '--no-batch', '--format', 'json'])).done;
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.doesNotMatch(resumed.stderr, /batch mode, as the run was started/);
  assert.equal(posts('/v1/batches'), batchPosts, 'no new batch');
  assert.match(resumed.stdout, /Cases: 4 /);
});
