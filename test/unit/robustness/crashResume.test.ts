// The CLI SIGKILLed at several points (after the header, mid-write of a case line, mid-write of the summary, during a resume), then --resume: nothing lost, nothing called twice.
// test/unit/cli/cli.test.ts covers the plain kill-mid-run-then-resume; these are the other places a crash can land.
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { caseIdOf, correctAnswers, countBy, createWorkspace, evalYaml, fixtureModel, rawLogLines, rgbRows, rowOf, seededRandom } from './builders.js';
import { parseLogLines } from '../../../src/core/run/runLog.js';
import type { Workspace } from './builders.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { runCli, startCli } from './cliProcess.js';

let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  server.addRule(correctAnswers());
});
after(() => server.close());
beforeEach(() => server.setLatency(0));

function workspace(rowCount: number, concurrency = 2): Workspace {
  return createWorkspace({ rows: rgbRows(rowCount), evalYaml: () => evalYaml({ models: [fixtureModel(server.openaiBaseUrl, 'crash-model')], concurrency, timeoutMs: 10_000, maxRetries: 2 }) });
}

function logFileOf(ws: Workspace): string | undefined {
  const dir = path.join(ws.dir, '.rag-inspector', 'runs');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
  return files.length === 1 ? path.join(dir, files[0]!) : undefined;
}

function completeLines(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean);
}

/** Waits until the log holds `caseLines` finished cases (0: just the header), then SIGKILLs the CLI. */
async function killWhen(args: string[], ws: Workspace, caseLines: number): Promise<string> {
  const { child, done } = await startCli(args);
  const file = await waitFor(() => {
    const found = logFileOf(ws);
    if (!found) return undefined;
    const lines = completeLines(found);
    return lines.length >= 1 && lines.filter((l) => l.includes('"type":"case"')).length >= caseLines ? found : undefined;
  }, `${caseLines} case lines`);
  child.kill('SIGKILL');
  const exit = await done;
  assert.equal(exit.signal, 'SIGKILL', 'the run was killed, not finished');
  return file;
}

/** Cuts the log inside its last line, as a crash while writing that line leaves it; returns the bytes kept of the line. */
function cutLastLine(file: string, choose: (lineBytes: number) => number): number {
  const bytes = readFileSync(file);
  assert.equal(bytes.at(-1), 0x0a);
  const start = bytes.lastIndexOf(0x0a, bytes.length - 2) + 1;
  const lineBytes = bytes.length - 1 - start;
  const kept = choose(lineBytes);
  assert.ok(kept >= 1 && kept <= lineBytes, `cut inside the line (${kept} of ${lineBytes})`);
  truncateSync(file, start + kept);
  return kept;
}

/** The rows the server was asked about, from the request with sequence number `fromSeq` on. */
function rowsCalledSince(fromSeq: number): number[] {
  // The preflight's model listing (GET /v1/models) asks about no row.
  return server.requests.filter((r: RecordedRequest) => r.seq >= fromSeq && r.api !== 'models' && r.api !== 'props').map((r) => rowOf(r)!).sort((a, b) => a - b);
}

const nextSeq = () => server.requests.length;

async function finishedCases(file: string): Promise<Set<string>> {
  return new Set((await readRunLog(file)).cases.map((c) => c.case.id));
}

/** The log after the final resume: every case once, a success summary counting each once. */
function assertComplete(file: string, rowCount: number, stdout: string): void {
  const lines = rawLogLines(file);
  const counts = countBy(lines.filter((l) => l.type === 'case'), (l) => (l.case as { id: string }).id);
  assert.deepEqual([...counts.keys()].sort(), rgbRows(rowCount).map((r) => caseIdOf(r.id)).sort(), 'every case is in the log');
  assert.deepEqual([...counts.values()].filter((n) => n !== 1), [], 'no case is logged twice');
  const summary = lines.at(-1) as { type: string; status: string; totals: { cases: number; success: number; passed: number } };
  assert.equal(summary.type, 'summary');
  assert.equal(summary.status, 'success');
  assert.deepEqual([summary.totals.cases, summary.totals.success, summary.totals.passed], [rowCount, rowCount, rowCount]);
  assert.match(stdout, new RegExp(`Cases: ${rowCount} \\(${rowCount} passed`));
}

test('killed right after the header: --resume <log> runs every case once', async (t) => {
  const rowCount = 8;
  const ws = workspace(rowCount);
  t.after(() => ws.cleanup());
  // No answer comes for seconds, so the kill lands after the header and before any case. Without the pre-run check,
  // which would hold the header back until its own slow answer, by when the first cases have theirs.
  server.setLatency(5000);
  const file = await killWhen(['run', ws.evalFile, '--no-cache', '--no-preflight'], ws, 0);
  assert.equal((await readRunLog(file)).cases.length, 0, 'no case finished before the kill');
  server.setLatency(0);

  const from = nextSeq();
  const resumed = await runCli(['run', ws.evalFile, '--no-cache', '--resume', file]);
  assert.equal(resumed.code, 0, resumed.stderr);
  assert.deepEqual(rowsCalledSince(from), rgbRows(rowCount).map((r) => r.id), 'each case called once');
  assertComplete(file, rowCount, resumed.stdout);
});

test('killed while writing a case line (log cut at a random byte of its last line): the cut case reruns, finished ones do not', async (t) => {
  const rowCount = 16;
  const random = seededRandom(7);
  const ws = workspace(rowCount);
  t.after(() => ws.cleanup());
  server.setLatency(150);
  const file = await killWhen(['run', ws.evalFile, '--no-cache'], ws, 5);
  const cutCase = (parseLogLines(completeLines(file)).at(-1) as { case: { id: string } }).case.id;
  const kept = cutLastLine(file, (length) => 1 + Math.floor(random() * length));
  const finished = await finishedCases(file);
  assert.ok(!finished.has(cutCase), `the case whose line was cut after ${kept} bytes is not finished`);
  assert.ok(finished.size >= 4 && finished.size < rowCount, `finished ${finished.size}`);
  server.setLatency(0);

  const from = nextSeq();
  const resumed = await runCli(['run', ws.evalFile, '--no-cache', '--resume', 'latest']);
  assert.equal(resumed.code, 0, resumed.stderr);
  const called = rowsCalledSince(from).map((row) => caseIdOf(row));
  assert.deepEqual(called.filter((id) => finished.has(id)), [], 'no finished case was called again');
  assert.deepEqual(called, [...new Set(called)], 'no case was called twice');
  assert.equal(called.length, rowCount - finished.size, 'every unfinished case was called');
  assert.ok(called.includes(cutCase));
  assertComplete(file, rowCount, resumed.stdout);
});

test('killed while writing the summary (cut at several byte offsets of its line): --resume calls nothing and writes a summary counting each case once', async (t) => {
  const rowCount = 6;
  const random = seededRandom(11);
  const ws = workspace(rowCount);
  t.after(() => ws.cleanup());
  const first = await runCli(['run', ws.evalFile, '--no-cache']);
  assert.equal(first.code, 0, first.stderr);
  const file = logFileOf(ws)!;

  // All but the newline, the first byte only, then a seeded random byte: each a crash during the summary write.
  const cuts: ((length: number) => number)[] = [(length) => length, () => 1, (length) => 1 + Math.floor(random() * length)];
  for (const cut of cuts) {
    assert.equal(rawLogLines(file).at(-1)?.type, 'summary');
    const kept = cutLastLine(file, cut);
    const before = await readRunLog(file);
    assert.equal(before.status, 'started', `a cut summary (${kept} bytes kept) is not a finished run`);
    assert.equal(before.cases.length, rowCount);

    const from = nextSeq();
    const resumed = await runCli(['run', ws.evalFile, '--no-cache', '--resume', 'latest']);
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.deepEqual(rowsCalledSince(from), [], `no case called again after a summary cut at ${kept} bytes`);
    assertComplete(file, rowCount, resumed.stdout);
    const report = JSON.parse(readFileSync(path.join(ws.dir, '.rag-inspector', 'reports', before.header.runId, 'report.json'), 'utf8')) as { cases: unknown[]; totals: { cases: number } };
    assert.deepEqual([report.cases.length, report.totals.cases], [rowCount, rowCount]);
  }
});

test('killed during a resume too: a second --resume still ends with every case once and no finished case called again', async (t) => {
  const rowCount = 20;
  const ws = workspace(rowCount);
  t.after(() => ws.cleanup());
  server.setLatency(150);
  const file = await killWhen(['run', ws.evalFile, '--no-cache'], ws, 4);
  const afterFirst = await finishedCases(file);

  let from = nextSeq();
  await killWhen(['run', ws.evalFile, '--no-cache', '--resume', 'latest'], ws, afterFirst.size + 4);
  const calledInSecond = rowsCalledSince(from).map((row) => caseIdOf(row));
  assert.deepEqual(calledInSecond.filter((id) => afterFirst.has(id)), [], 'the first resume called no finished case');
  const afterSecond = await finishedCases(file);
  assert.ok(afterSecond.size > afterFirst.size && afterSecond.size < rowCount, `finished ${afterFirst.size}, then ${afterSecond.size}`);
  server.setLatency(0);

  from = nextSeq();
  const last = await runCli(['run', ws.evalFile, '--no-cache', '--resume', 'latest']);
  assert.equal(last.code, 0, last.stderr);
  const calledInLast = rowsCalledSince(from).map((row) => caseIdOf(row));
  assert.deepEqual(calledInLast.filter((id) => afterSecond.has(id)), [], 'the second resume called no finished case');
  assert.deepEqual([...new Set(calledInLast)].length, rowCount - afterSecond.size, 'every unfinished case was called');
  assert.equal(calledInLast.length, rowCount - afterSecond.size, 'and once');
  assertComplete(file, rowCount, last.stdout);
  assert.equal(rawLogLines(file).filter((l) => l.type === 'resume').length, 2);
});
