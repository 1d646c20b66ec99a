// Run log index: the same header, summary, problems and cases as readRunLog, byte ranges that read back each case, growth, replacement.
import assert from 'node:assert/strict';
import { appendFile, mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { InputError } from '../../../src/core/errors.js';
import type { CaseEntry, CaseResult, EvalCase } from '../../../src/core/model.js';
import { caseListItem, failureTitle, flippedItemRows, flippedRows, shortReason } from '../../../src/core/report/caseItems.js';
import { failureMessage } from '../../../src/core/report/runData.js';
import { readRunLog, RunLogWriter } from '../../../src/core/run/runLog.js';
import type { NewRunHeader, SummaryLine } from '../../../src/core/run/runLog.js';
import { scanLines } from '../../../src/core/run/jsonLines.js';
import { RunLogIndex, digestOf, readEntry } from '../../../src/core/report/runLogIndex.js';
import { caseKey, isFailure } from '../../../src/core/model.js';

const EXAMPLE = path.resolve(__dirname, '../../../examples/rgb/rgb-example.eval.yaml');

function header(runId: string, name = 'RGB smoke'): NewRunHeader {
  return {
    runId,
    createdAt: '2026-11-22T12:43:05.000Z',
    tool: { name: 'rag-inspector', version: '0.1.0' },
    spec: { file: '/w/rgb.eval.yaml', hash: 'ab12', name },
    inputs: [{ kind: 'dataset', file: '/w/en.json', hash: 'cd34' }],
    models: ['m:a', 'm:b'],
    seed: 42,
  };
}

function evalCase(id: string, question = 'Capital of France?'): EvalCase {
  return {
    id, suiteId: 'rgb-noise', method: 'rgb', testbed: 'noise_robustness', row: { file: '/w/en.json', line: 3, index: 2 }, question, template: '/w/qa.prompt',
    documents: [{ id: 'd0', role: 'positive', text: 'Paris is the capital.', spans: [] }, { id: 'd1', role: 'negative', text: 'Lyon.', spans: [] }],
    expected: ['Paris'], params: { noise: 0.4 }, variables: {}, messages: [{ role: 'user', content: question }],
  };
}

function result(caseId: string, modelKey: string, pass: boolean, text = 'Paris'): CaseResult {
  return {
    caseId, modelKey, status: 'success', attempts: 1, pass,
    scores: [{ metric: 'accuracy', value: pass ? 1 : 0, pass, ...(pass ? {} : { label: 'incorrect', explanation: 'no answer part found' }) }],
    response: { text, usage: { inputTokens: 50, outputTokens: 2 }, latencyMs: 300, cached: false },
    startedAt: '2026-11-22T12:43:06.000Z', finishedAt: '2026-11-22T12:43:07.000Z',
  };
}

function errored(caseId: string, modelKey: string): CaseResult {
  return { caseId, modelKey, status: 'error', attempts: 3, scores: [], error: { stage: 'model', kind: 'http', message: '503 from upstream', status: 503 }, startedAt: 'a', finishedAt: 'b' };
}

function summary(status: SummaryLine['status'] = 'success'): Omit<SummaryLine, 'type'> {
  return {
    status, finishedAt: '2026-11-22T12:50:00.000Z', totals: { cases: 2, success: 2, error: 0, passed: 1, failed: 1, modelCalls: 2, cacheHits: 0, judgeCalls: 0, inputTokens: 100, outputTokens: 4 },
    reports: [], thresholds: [], problems: [{ file: '/w/en.json', line: 9, message: 'bad row' }],
  };
}

/** Everything readRunLog says about a log, compared field by field with the index (and every case read back by offset). */
async function assertSameAsReadRunLog(index: RunLogIndex): Promise<void> {
  const log = await readRunLog(index.file);
  assert.deepEqual(index.header, log.header);
  assert.deepEqual(index.summary, log.summary);
  assert.equal(index.status, log.status);
  assert.equal(index.resumes, log.resumes.length);
  assert.deepEqual(index.problems, log.problems);
  const keys = log.cases.map((line) => caseKey(line.case.id, line.result.modelKey));
  assert.deepEqual([...index.entries.keys()], keys, 'the same (case, model) pairs in the same order');
  const full = await index.readEntries(keys);
  for (const line of log.cases) {
    const key = caseKey(line.case.id, line.result.modelKey);
    const entry = index.entries.get(key)!;
    assert.deepEqual(entry.item, caseListItem(line.case, line.result));
    assert.deepEqual(entry.row, line.case.row);
    assert.equal(entry.template, line.case.template);
    assert.equal(entry.reason, shortReason(line.result));
    assert.equal(entry.errorStage, line.result.error?.stage);
    assert.deepEqual(full.get(key), { evalCase: line.case, result: line.result });
    const digest = digestOf(entry);
    assert.equal(digest.failure, failureMessage(line.result));
    assert.equal(isFailure(digest.result), isFailure(line.result));
    assert.equal(failureTitle(digest, true), `${failureTitle({ evalCase: line.case, result: line.result, reason: shortReason(line.result) }, true)}`);
    assert.deepEqual([digest.evalCase.id, digest.evalCase.suiteId, digest.evalCase.question, digest.evalCase.row, digest.evalCase.template, digest.result.error?.stage], [line.case.id, line.case.suiteId, line.case.question, line.case.row, line.case.template, line.result.error?.stage]);
  }
}

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-runlog-index-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('RunLogIndex', () => {
  it('indexes a real run of the RGB example exactly as readRunLog reads it', async () => {
    const workspaceDir = path.join(root, 'example');
    const outcome = await runEvaluation(EXAMPLE, { signal: new AbortController().signal, credentials: { apiKey: async () => undefined }, workspaceDir, noCache: true });
    const index = await RunLogIndex.build(outcome.logFile);
    assert.ok(index.entries.size > 50, `${index.entries.size} cases`);
    assert.equal(index.entries.size, outcome.totals.cases);
    assert.ok([...index.entries.values()].some((e) => e.item.pass === false), 'the example has failures to index');
    await assertSameAsReadRunLog(index);
  });

  it('keeps the later line of a duplicated (case, model) at the place of the first, and reads back errors and multi-byte text', async () => {
    const dir = path.join(root, 'duplicates');
    const writer = await RunLogWriter.create(dir, header('dup'));
    writer.appendCase({ case: evalCase('c1', 'Hauptstadt von Österreich? 日本'), result: result('c1', 'm:a', false) });
    writer.appendCase({ case: evalCase('c1'), result: result('c1', 'm:b', true) });
    writer.appendCase({ case: evalCase('c2'), result: errored('c2', 'm:a') });
    writer.appendCase({ case: evalCase('c1', 'Hauptstadt von Österreich? 日本'), result: result('c1', 'm:a', true, 'Wien — 日本') });
    writer.appendSummary(summary());
    writer.close();
    const index = await RunLogIndex.build(writer.file);
    assert.deepEqual([...index.entries.keys()], [caseKey('c1', 'm:a'), caseKey('c1', 'm:b'), caseKey('c2', 'm:a')]);
    assert.equal(index.entries.get(caseKey('c1', 'm:a'))?.item.pass, true);
    assert.equal((await readEntry(index, caseKey('c1', 'm:a')))?.result.response?.text, 'Wien — 日本');
    assert.equal(index.entries.get(caseKey('c2', 'm:a'))?.errorStage, 'model');
    assert.equal(await readEntry(index, caseKey('nope', 'm:a')), undefined);
    await assertSameAsReadRunLog(index);
  });

  it('reports bad lines, unknown types and a cut-short last line as readRunLog does, and picks the line up once it is finished', async () => {
    const dir = path.join(root, 'cut');
    const writer = await RunLogWriter.create(dir, header('cut'));
    writer.appendCase({ case: evalCase('c1'), result: result('c1', 'm:a', true) });
    writer.close();
    await appendFile(writer.file, '{not json\n\n{"type":"mystery"}\n{"type":"case","case":{}}\n');
    const whole = `${JSON.stringify({ type: 'case', case: evalCase('c2'), result: result('c2', 'm:a', false) })}\n`;
    await appendFile(writer.file, whole.slice(0, 40));
    const index = await RunLogIndex.build(writer.file);
    assert.equal(index.entries.size, 1);
    assert.match(index.problems.at(-1)!.message, /cut short/);
    await assertSameAsReadRunLog(index);

    await appendFile(writer.file, whole.slice(40));
    assert.equal(await index.update(), true);
    assert.equal(index.entries.get(caseKey('c2', 'm:a'))?.item.pass, false);
    assert.ok(!index.problems.some((p) => /cut short/.test(p.message)));
    await assertSameAsReadRunLog(index);
  });

  it('follows a resume: the earlier summary is dropped, the reopened log truncates the fragment, later cases and summary are added', async () => {
    const dir = path.join(root, 'resume');
    const first = await RunLogWriter.create(dir, header('res'));
    first.appendCase({ case: evalCase('c1'), result: result('c1', 'm:a', false) });
    first.appendSummary(summary('cancelled'));
    first.close();
    await appendFile(first.file, '{"type":"case","case":{"id":"c');
    const index = await RunLogIndex.build(first.file);
    assert.equal(index.status, 'cancelled');

    const resumed = await RunLogWriter.reopen(first.file);
    assert.equal(await index.update(), true);
    assert.equal(index.summary, undefined, 'a resume clears the summary before it');
    assert.equal(index.status, 'started');
    assert.equal(index.resumes, 1);
    await assertSameAsReadRunLog(index);

    resumed.appendCase({ case: evalCase('c2'), result: result('c2', 'm:a', true) });
    resumed.appendCase({ case: evalCase('c1'), result: result('c1', 'm:a', true) });
    resumed.appendSummary(summary('success'));
    resumed.close();
    await index.update();
    assert.equal(index.status, 'success');
    assert.equal(index.entries.get(caseKey('c1', 'm:a'))?.item.pass, true);
    await assertSameAsReadRunLog(index);
  });

  it('extends from the last indexed byte when the log grows, without reading the lines before it again', async () => {
    const dir = path.join(root, 'growth');
    const writer = await RunLogWriter.create(dir, header('grow'));
    for (let i = 0; i < 50; i += 1) writer.appendCase({ case: evalCase(`c${i}`), result: result(`c${i}`, 'm:a', i % 3 !== 0) });
    const index = await RunLogIndex.build(writer.file);
    assert.equal(index.entries.size, 50);
    assert.equal(await index.update(), false, 'nothing changed');

    // Blank out an already indexed case line, keeping its length: a full re-read would now report it and lose c10.
    const c10 = index.entries.get(caseKey('c10', 'm:a'))!;
    const handle = await open(writer.file, 'r+');
    await handle.write(Buffer.alloc(c10.length, 0x20), 0, c10.length, c10.offset);
    await handle.close();

    for (let i = 50; i < 80; i += 1) writer.appendCase({ case: evalCase(`c${i}`), result: result(`c${i}`, 'm:b', true) });
    writer.appendSummary(summary());
    writer.close();
    const [a, b] = await Promise.all([index.update(), index.update()]);
    assert.equal(a, true);
    assert.equal(b, true, 'concurrent updates share one pass');
    assert.equal(index.entries.size, 80);
    assert.ok(index.entries.has(caseKey('c10', 'm:a')), 'line 12 was not read again');
    assert.deepEqual(index.problems, []);
    assert.equal(index.status, 'success');
    await assert.rejects(readEntry(index, caseKey('c10', 'm:a')), (error: unknown) => error instanceof InputError && error.position.line === c10.line && /not the one indexed/.test(error.message));
  });

  it('starts over when the log shrank or its header changed (the file was replaced)', async () => {
    const dir = path.join(root, 'replaced');
    const writer = await RunLogWriter.create(dir, header('rep'));
    for (let i = 0; i < 5; i += 1) writer.appendCase({ case: evalCase(`c${i}`), result: result(`c${i}`, 'm:a', true) });
    writer.close();
    const index = await RunLogIndex.build(writer.file);
    assert.equal(index.entries.size, 5);

    const text = await readFile(writer.file, 'utf8');
    const lines = text.split('\n');
    // Up to the second case line (shared lines come before the case lines using them).
    const second = lines.findIndex((line, i) => line.startsWith('{"type":"case"') && lines.slice(0, i).some((l) => l.startsWith('{"type":"case"')));
    await truncate(writer.file, Buffer.byteLength(`${lines.slice(0, second + 1).join('\n')}\n`));
    await index.update();
    assert.deepEqual([...index.entries.keys()], [caseKey('c0', 'm:a'), caseKey('c1', 'm:a')]);
    await assertSameAsReadRunLog(index);

    // Same length or longer, another header: another run written over this path.
    const other = await RunLogWriter.create(path.join(root, 'other'), header('rep', 'Another eval'));
    for (let i = 0; i < 8; i += 1) other.appendCase({ case: evalCase(`x${i}`), result: result(`x${i}`, 'm:b', false) });
    other.close();
    await writeFile(writer.file, await readFile(other.file));
    await index.update();
    assert.equal(index.header.spec.name, 'Another eval');
    assert.equal(index.entries.size, 8);
    assert.ok(!index.entries.has(caseKey('c0', 'm:a')));
    await assertSameAsReadRunLog(index);
  });

  it('rejects an empty log, a foreign first line and a cut-short header with readRunLog\'s errors', async () => {
    const cases: [string, string, RegExp][] = [
      ['empty.jsonl', '', /is empty/],
      ['foreign.jsonl', '{"hello":1}\n', /not a RAG Inspector run log/],
      ['newer.jsonl', '{"type":"header","format":99,"runId":"x"}\n', /newer RAG Inspector/],
      ['cut.jsonl', '{"type":"header","form', /header was cut short/],
    ];
    for (const [name, content, message] of cases) {
      const file = path.join(root, name);
      await writeFile(file, content);
      const expected = await readRunLog(file).then(() => undefined, (error: unknown) => error);
      assert.ok(expected instanceof InputError);
      await assert.rejects(RunLogIndex.build(file), (error: unknown) => {
        assert.ok(error instanceof InputError, `${name}: ${String(error)}`);
        assert.equal(error.format(), expected.format());
        assert.match(error.message, message);
        return true;
      });
    }
  });
});

describe('flippedItemRows', () => {
  it('lists the same rows as flippedRows over full cases, reading only the flipped pairs', async () => {
    const entry = (id: string, model: string, pass: boolean | 'error'): CaseEntry => ({ evalCase: evalCase(id), result: pass === 'error' ? errored(id, model) : result(id, model, pass, `${id} ${pass}`) });
    const before = [entry('a', 'm:a', true), entry('b', 'm:a', false), entry('c', 'm:a', true), entry('d', 'm:a', 'error')];
    const after = [entry('d', 'm:a', true), entry('a', 'm:a', true), entry('b', 'm:a', true), entry('c', 'm:a', false), entry('e', 'm:a', false)];
    const byKey = (entries: CaseEntry[]) => new Map(entries.map((e) => [caseKey(e.evalCase.id, e.result.modelKey), e]));
    const items = (entries: CaseEntry[]) => new Map(entries.map((e) => [caseKey(e.evalCase.id, e.result.modelKey), caseListItem(e.evalCase, e.result)]));
    const read: string[][] = [];
    const rows = await flippedItemRows(items(before), items(after).values(), async (side, keys) => {
      read.push([side, ...keys]);
      const source = byKey(side === 'before' ? before : after);
      return new Map(keys.map((k) => [k, source.get(k)!]));
    });
    assert.deepEqual(rows, flippedRows(byKey(before), after));
    assert.deepEqual(rows.map((r) => r.caseId), ['d', 'b', 'c']);
    assert.deepEqual(read.map((r) => r.length), [4, 4], 'one read per side, of the three flipped pairs');
  });
});

describe('scanLines', () => {
  it('gives each complete line its byte offset and length, across chunk borders, and leaves a trailing fragment out', async () => {
    const long = 'é'.repeat(700_000); // 1.4 MB: spans the 1 MB read chunk
    const parts = ['a', '', long, 'ü∑', 'tail-without-newline'];
    const file = path.join(root, 'scan.txt');
    await writeFile(file, parts.join('\n'));
    const handle = await open(file, 'r');
    try {
      const lines = [];
      for await (const line of scanLines(handle, 0, (await handle.stat()).size)) lines.push(line);
      assert.deepEqual(lines.map((l) => l.text), parts.slice(0, -1));
      assert.deepEqual(lines.map((l) => l.number), [1, 2, 3, 4]);
      const bytes = await readFile(file);
      for (const line of lines) assert.equal(bytes.toString('utf8', line.offset, line.offset + line.length), line.text);
      const fromThird = [];
      for await (const line of scanLines(handle, lines[2]!.offset, bytes.length, 3)) fromThird.push(line);
      assert.deepEqual(fromThird.map((l) => [l.number, l.offset]), [[3, lines[2]!.offset], [4, lines[3]!.offset]]);
    } finally {
      await handle.close();
    }
  });
});
