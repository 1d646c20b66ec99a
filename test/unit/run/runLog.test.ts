// Run log: create/append/read, crash mid-line and resume, finished keys, redaction, format checks, listing.
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { caseKey } from '../../../src/core/model.js';
import { listRuns, newRunId, readRunLog, RUN_LOG_FORMAT, RunLogWriter } from '../../../src/core/run/runLog.js';
import type { NewRunHeader, SummaryLine } from '../../../src/core/run/runLog.js';

function header(runId: string): NewRunHeader {
  return {
    runId,
    createdAt: '2026-11-22T12:43:05.000Z',
    tool: { name: 'rag-inspector', version: '0.1.0' },
    spec: { file: '/w/rgb.eval.yaml', hash: 'ab12', name: 'RGB smoke' },
    inputs: [{ kind: 'dataset', file: '/w/en.json', hash: 'cd34' }],
    models: ['openai:gpt-4o-mini'],
    seed: 42,
  };
}

function evalCase(id: string, answerText = 'Paris'): EvalCase {
  return {
    id, suiteId: 'rgb-noise', method: 'rgb', row: { file: '/w/en.json', line: 3, index: 2 }, question: 'Capital of France?',
    documents: [{ id: 'd0', role: 'positive', text: `${answerText} is the capital.`, spans: [] }],
    expected: [answerText], params: { noise: 0.4 }, variables: {}, messages: [{ role: 'user', content: 'Capital of France?' }],
  };
}

function result(caseId: string, modelKey = 'openai:gpt-4o-mini', text = 'Paris'): CaseResult {
  return {
    caseId, modelKey, status: 'success', attempts: 1, scores: [{ metric: 'accuracy', value: 1, pass: true }], pass: true,
    response: { text, usage: { inputTokens: 50, outputTokens: 2 }, latencyMs: 300, cached: false },
    startedAt: '2026-11-22T12:43:06.000Z', finishedAt: '2026-11-22T12:43:07.000Z',
  };
}

function summary(status: SummaryLine['status'] = 'success'): Omit<SummaryLine, 'type'> {
  return {
    status, finishedAt: '2026-11-22T12:50:00.000Z', totals: { cases: 2, success: 2, error: 0, passed: 2, failed: 0, modelCalls: 2, cacheHits: 0, judgeCalls: 0, inputTokens: 100, outputTokens: 4 },
    reports: [], thresholds: [], problems: [],
  };
}

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-runlog-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

async function rejectsWithInputError(promise: Promise<unknown>, file: string, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof InputError, `expected an InputError, got ${String(error)}`);
    assert.equal(error.position.file, file);
    assert.equal(error.position.line, 1);
    assert.match(error.message, message);
    return true;
  });
}

describe('newRunId', () => {
  it('is sortable by time, safe in file names, and distinct within a second', () => {
    const id = newRunId(new Date('2026-11-22T12:43:05.678Z'), '3f9a1c');
    assert.equal(id, '2026-11-22T12-43-05Z-3f9a1c');
    const later = newRunId(new Date('2026-11-22T12:43:06.001Z'));
    assert.ok(later > id);
    assert.match(later, /^[0-9A-Za-z-]+$/);
    assert.notEqual(newRunId(new Date(0)), newRunId(new Date(0)));
  });
});

describe('RunLogWriter and readRunLog', () => {
  it('writes a header, case lines and a summary that read back as written, each line on disk when append returns', async () => {
    const dir = path.join(root, 'roundtrip');
    const writer = await RunLogWriter.create(dir, header('run-a'));
    writer.appendCase({ case: evalCase('c1'), result: result('c1') });
    const midRun = await readRunLog(writer.file);
    assert.equal(midRun.cases.length, 1, 'a finished case was not on disk when appendCase returned');
    writer.appendCase({ case: evalCase('c2'), result: result('c2') });
    writer.appendSummary(summary());
    writer.close();

    const log = await readRunLog(path.join(dir, 'run-a.jsonl'));
    assert.deepEqual(log.header, { ...header('run-a'), type: 'header', format: RUN_LOG_FORMAT, status: 'started' });
    assert.deepEqual(log.cases.map((c) => c.result.caseId), ['c1', 'c2']);
    assert.deepEqual(log.cases[0]!.case, evalCase('c1'));
    assert.equal(log.status, 'success');
    assert.deepEqual(log.summary, { ...summary(), type: 'summary' });
    assert.deepEqual(log.problems, []);
    const text = await readFile(writer.file, 'utf8');
    // Shared lines (format 3: key lists and repeated strings written once) come before the case lines using them.
    const own = text.split('\n').filter((line) => !line.startsWith('{"type":"shared"'));
    assert.equal(own.length, 5, 'header + 2 cases + summary + final newline');
  });

  it('refuses to overwrite an existing run and to append after close', async () => {
    const dir = path.join(root, 'exclusive');
    const writer = await RunLogWriter.create(dir, header('run-x'));
    writer.close();
    await assert.rejects(RunLogWriter.create(dir, header('run-x')), /EEXIST/);
    assert.throws(() => writer.appendCase({ case: evalCase('c1'), result: result('c1') }), /closed/);
    await assert.rejects(RunLogWriter.create(dir, header('../escape')), TypeError);
  });

  it('keys finished (case, model) pairs for resume, the latest line winning', async () => {
    const dir = path.join(root, 'keys');
    const writer = await RunLogWriter.create(dir, header('run-k'));
    writer.appendCase({ case: evalCase('c1'), result: result('c1', 'openai:a', 'first') });
    writer.appendCase({ case: evalCase('c1'), result: result('c1', 'anthropic:b') });
    writer.appendCase({ case: evalCase('c1'), result: result('c1', 'openai:a', 'second') });
    writer.close();
    const log = await readRunLog(writer.file);
    assert.deepEqual(log.finished, new Set([caseKey('c1', 'openai:a'), caseKey('c1', 'anthropic:b')]));
    assert.equal(caseKey('c1', 'openai:a'), 'c1\u0000openai:a');
    assert.equal(log.cases.length, 2);
    assert.equal(log.cases[0]!.result.response?.text, 'second');
    assert.equal(log.status, 'started');
  });

  it('reads a crash mid-line as a warning, then reopen truncates the fragment and resumes', async () => {
    const dir = path.join(root, 'crash');
    const writer = await RunLogWriter.create(dir, header('run-c'));
    writer.appendCase({ case: evalCase('c1'), result: result('c1') });
    writer.appendCase({ case: evalCase('c2'), result: result('c2') });
    writer.close();
    const complete = (await readFile(writer.file, 'utf8')).split('\n').length - 1;
    await appendFile(writer.file, '{"type":"case","case":{"id":"c3","suiteId":"rgb-no');

    const interrupted = await readRunLog(writer.file);
    assert.equal(interrupted.status, 'started');
    assert.equal(interrupted.cases.length, 2);
    assert.deepEqual(interrupted.problems, [{ severity: 'warning', line: complete + 1, message: 'the last line was cut short (the run was interrupted while writing it); ignored' }]);

    const resumed = await RunLogWriter.reopen(writer.file);
    resumed.appendCase({ case: evalCase('c3'), result: result('c3') });
    resumed.appendSummary(summary());
    resumed.close();

    const text = await readFile(writer.file, 'utf8');
    assert.doesNotMatch(text, /rgb-no[^i]/, 'the fragment survived the reopen');
    const log = await readRunLog(writer.file);
    assert.deepEqual(log.problems, []);
    assert.deepEqual(log.cases.map((c) => c.case.id), ['c1', 'c2', 'c3']);
    assert.equal(log.resumes.length, 1);
    assert.equal(log.status, 'success');
  });

  it('treats a summary followed by a resume as not finished', async () => {
    const dir = path.join(root, 'resume-after-summary');
    const writer = await RunLogWriter.create(dir, header('run-r'));
    writer.appendSummary(summary('cancelled'));
    writer.close();
    assert.equal((await readRunLog(writer.file)).status, 'cancelled');
    (await RunLogWriter.reopen(writer.file)).close();
    const log = await readRunLog(writer.file);
    assert.equal(log.status, 'started');
    assert.equal(log.summary, undefined);
  });

  it('reports a damaged middle line as an error problem and keeps reading', async () => {
    const dir = path.join(root, 'damaged');
    const writer = await RunLogWriter.create(dir, header('run-d'));
    writer.close();
    await appendFile(writer.file, 'garbage\n');
    const w2 = await RunLogWriter.reopen(writer.file);
    w2.appendCase({ case: evalCase('c1'), result: result('c1') });
    w2.close();
    const log = await readRunLog(writer.file);
    assert.deepEqual(log.problems, [{ severity: 'error', line: 2, message: 'not valid JSON; the line was skipped' }]);
    assert.equal(log.cases.length, 1);
  });

  it('redacts strings that look like API keys from every line', async () => {
    const dir = path.join(root, 'redact');
    const openai = 'sk-proj-Ab3dEf6hIj9kLmN0pQrStUvWxYz_12345';
    const anthropic = 'sk-ant-api03-Zz9yXw8vUt7sRq6pOn5mLk4jIh3gFe2dCb1a-AAAA';
    const writer = await RunLogWriter.create(dir, { ...header('run-s'), spec: { file: '/w/x.eval.yaml', hash: 'h', name: `leaked ${openai}` } });
    const leaky = result('c1', 'openai:gpt-4o-mini', `My key is ${anthropic}.\n${openai} and task-based-evaluation-of-retrieval-systems or sk-learn stay.`);
    writer.appendCase({ case: evalCase('c1'), result: leaky });
    writer.close();
    const text = await readFile(writer.file, 'utf8');
    assert.doesNotMatch(text, /Ab3dEf6hIj9k|Zz9yXw8vUt7s/);
    const log = await readRunLog(writer.file);
    assert.equal(log.cases[0]!.result.response?.text, 'My key is [redacted].\n[redacted] and task-based-evaluation-of-retrieval-systems or sk-learn stay.');
    assert.equal(log.header.spec.name, 'leaked [redacted]');
  });

  it('refuses a log from a newer format, a foreign file and an empty file, naming the file and line 1', async () => {
    const newer = path.join(root, 'newer.jsonl');
    await writeFile(newer, `${JSON.stringify({ ...header('n'), type: 'header', format: 4, status: 'started' })}\n`);
    await rejectsWithInputError(readRunLog(newer), newer, /format 4, written by a newer RAG Inspector/);
    await rejectsWithInputError(RunLogWriter.reopen(newer), newer, /newer RAG Inspector/);

    const foreign = path.join(root, 'foreign.jsonl');
    await writeFile(foreign, '{"type":"case","case":{"id":"c1"}}\n');
    await rejectsWithInputError(readRunLog(foreign), foreign, /not a RAG Inspector run log/);

    const empty = path.join(root, 'empty.jsonl');
    await writeFile(empty, '');
    await rejectsWithInputError(readRunLog(empty), empty, /empty/);
    await rejectsWithInputError(RunLogWriter.reopen(empty), empty, /empty/);
  });
});

describe('listRuns', () => {
  it('lists newest first with the status from the tail, without needing the case lines', async () => {
    const dir = path.join(root, 'list');
    const finished = await RunLogWriter.create(dir, header('2026-11-20T08-00-00Z-aaaaaa'));
    finished.appendCase({ case: evalCase('c1'), result: result('c1') });
    // A summary larger than the 64 KB read chunk makes the tail scan cross chunk boundaries.
    finished.appendSummary({ ...summary(), reports: [{ suiteId: 's', method: 'rgb', tables: [], metrics: [], notes: ['x'.repeat(200_000)] }] });
    finished.close();

    const interrupted = await RunLogWriter.create(dir, header('2026-11-22T09-00-00Z-bbbbbb'));
    interrupted.appendCase({ case: evalCase('c1'), result: result('c1') });
    interrupted.close();
    await appendFile(interrupted.file, '{"type":"summary","status":"succ');

    const cancelled = await RunLogWriter.create(dir, header('2026-11-21T10-00-00Z-cccccc'));
    cancelled.appendSummary(summary('cancelled'));
    cancelled.close();
    await writeFile(path.join(dir, '2026-11-19T00-00-00Z-dddddd.jsonl'), 'not json\n');
    await writeFile(path.join(dir, 'notes.txt'), 'ignored');

    const runs = await listRuns(dir);
    assert.deepEqual(runs.map((r) => [r.runId, r.status]), [
      ['2026-11-22T09-00-00Z-bbbbbb', 'started'],
      ['2026-11-21T10-00-00Z-cccccc', 'cancelled'],
      ['2026-11-20T08-00-00Z-aaaaaa', 'success'],
      ['2026-11-19T00-00-00Z-dddddd', 'unreadable'],
    ]);
    assert.equal(runs[0]!.header?.spec.name, 'RGB smoke');
    assert.equal(runs[2]!.summary?.totals.cases, 2);
    assert.match(runs[3]!.problem ?? '', /dddddd\.jsonl:1: not a RAG Inspector run log/);
  });

  it('returns nothing for a folder that does not exist yet', async () => {
    assert.deepEqual(await listRuns(path.join(root, 'missing')), []);
  });
});
