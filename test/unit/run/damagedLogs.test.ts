// Damaged and forged run logs: a header whose run id is a path, lines of the wrong shape, bytes that are not UTF-8,
// a missing text line, a log appended to by two processes at once. Every reader (readRunLog, the streamed reader that
// reports and tables use, the index the inspector uses) skips each bad line and reports it at its number, keeps every
// other case exactly as written, and never throws a raw TypeError or RangeError.
import assert from 'node:assert/strict';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import { writeReports } from '../../../src/core/report/writeReports.js';
import { listRuns, readCaseLines, readRunLog, RunLogWriter, scanRunLog } from '../../../src/core/run/runLog.js';
import type { CaseLine, NewRunHeader, RunLogProblem } from '../../../src/core/run/runLog.js';

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-damaged-logs-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

function header(runId: string): NewRunHeader {
  return {
    runId,
    createdAt: '2026-11-22T12:43:05.000Z',
    tool: { name: 'rag-inspector', version: '0.1.0' },
    spec: { file: '/w/rgb.eval.yaml', hash: 'ab12', name: 'damaged' },
    inputs: [{ kind: 'dataset', file: '/w/en.json', hash: 'cd34' }],
    models: ['m:a'],
    seed: 42,
  };
}

function evalCase(id: string, params: Record<string, unknown> = { noise: 0.4 }): EvalCase {
  return {
    id, suiteId: 'rgb-noise', method: 'rgb', testbed: 'noise_robustness', row: { file: '/w/en.json', line: 3, index: 2 }, question: `Capital of France? (${id})`,
    documents: [{ id: 'd0', role: 'positive', text: `Paris is the capital of France, as every atlas of ${id} says, and has been for a long time.`, spans: [] }],
    expected: ['Paris'], params, variables: {}, messages: [{ role: 'user', content: `Capital of France? (${id})` }],
  };
}

/** Each case its own second, so no timestamp is shared between lines and each can be changed in its own line. */
function result(caseId: string, second: number): CaseResult {
  const at = (s: number) => `2026-11-22T12:44:${String(s).padStart(2, '0')}.000Z`;
  return {
    caseId, modelKey: 'm:a', status: 'success', attempts: 1, pass: true,
    scores: [{ metric: 'accuracy', value: 1, pass: true }],
    response: { text: 'Paris', usage: { inputTokens: 50, outputTokens: 2 }, latencyMs: 300, cached: false },
    startedAt: at(second), finishedAt: at(second + 1),
  };
}

async function streamed(file: string): Promise<CaseLine[]> {
  const lines: CaseLine[] = [];
  for await (const line of readCaseLines(await scanRunLog(file))) lines.push(line);
  return lines;
}

async function indexed(file: string): Promise<CaseLine[]> {
  const index = await RunLogIndex.build(file);
  const entries = await index.readEntries(index.entries.keys());
  return [...entries.values()].map((entry) => ({ type: 'case', case: entry.evalCase, result: entry.result }));
}

/** Every reader: the same cases and problems, whatever the damage. */
async function readEveryWay(file: string): Promise<{ cases: CaseLine[]; problems: RunLogProblem[] }> {
  const log = await readRunLog(file);
  assert.deepEqual(await streamed(file), log.cases, 'the streamed reader reads what readRunLog reads');
  assert.deepEqual(await indexed(file), log.cases, 'the index reads what readRunLog reads');
  assert.deepEqual((await RunLogIndex.build(file)).problems, log.problems, 'the index reports what readRunLog reports');
  return { cases: log.cases, problems: log.problems };
}

function problemAt(problems: readonly RunLogProblem[], line: number, pattern: RegExp): void {
  assert.ok(problems.some((p) => p.line === line && p.severity === 'error' && pattern.test(p.message)), `a problem at line ${line} matching ${pattern}: ${JSON.stringify(problems)}`);
}

/** A format-3 log of three cases written by the product's writer; its lines, the last one empty. */
async function goodLog(name: string): Promise<{ file: string; lines: string[]; written: CaseLine[] }> {
  const writer = await RunLogWriter.create(path.join(root, name), header(name));
  const written: CaseLine[] = [];
  for (const [i, id] of ['c1', 'c2', 'c3'].entries()) {
    const line: CaseLine = { type: 'case', case: evalCase(id), result: result(id, i * 2) };
    writer.appendCase(line);
    written.push(line);
  }
  writer.close();
  return { file: writer.file, lines: (await readFile(writer.file, 'utf8')).split('\n'), written };
}

function lineOf(lines: readonly string[], caseId: string): number {
  const index = lines.findIndex((l) => l.startsWith('{"type":"case"') && l.includes(`(${caseId})`));
  assert.ok(index > 0, `the case line of ${caseId}`);
  return index;
}

describe('damaged run logs', () => {
  it('a header whose run id is a path is refused at line 1 by every reader, and listed as unreadable', async () => {
    const { file, lines } = await goodLog('forged');
    const forged = path.join(root, 'forged-runs', 'forged.jsonl');
    await mkdir(path.dirname(forged), { recursive: true });
    lines[0] = lines[0]!.replace('"runId":"forged"', '"runId":"../../../escape/pwned"');
    await writeFile(forged, lines.join('\n'));
    assert.ok(file !== forged);
    const refused = (error: unknown) => error instanceof InputError && error.position.line === 1 && /runId "\.\.\/\.\.\/\.\.\/escape\/pwned" is not a run id/.test(error.message);
    await assert.rejects(readRunLog(forged), refused);
    await assert.rejects(scanRunLog(forged), refused);
    await assert.rejects(RunLogIndex.build(forged), refused);
    const [listed] = await listRuns(path.dirname(forged));
    assert.equal(listed?.status, 'unreadable');
  });

  it('lines of the wrong shape are skipped and reported at their numbers; the other cases read as written', async () => {
    const { file, lines, written } = await goodLog('shapes');
    const c2 = lineOf(lines, 'c2');
    // A changed timestamp inside a packed case line (its finishedAt is stored as a delta from it).
    lines[c2] = lines[c2]!.replace('2026-11-22T12:44:02.000Z', 'yesterday at noon');
    assert.ok(lines[c2]!.includes('yesterday at noon'), 'the timestamp is in the line itself');
    const withoutDocuments = JSON.stringify({ type: 'case', case: { ...evalCase('c4'), documents: undefined }, result: result('c4', 20) });
    const badShared = JSON.stringify({ type: 'shared', id: 900, keys: 'abc' });
    const badSummary = JSON.stringify({ type: 'summary', status: 'success', finishedAt: '2026-11-22T12:50:00.000Z', totals: 'lots', reports: {}, thresholds: [], problems: [] });
    const badResume = JSON.stringify({ type: 'resume', at: 7 });
    const badText = JSON.stringify({ type: 'text', id: 5, text: ['x'] });
    const base = lines.length - 1; // the empty string after the last newline
    lines.splice(base, 0, withoutDocuments, badShared, badSummary, badResume, badText);
    await writeFile(file, `${lines.join('\n')}`);

    const { cases, problems } = await readEveryWay(file);
    assert.deepEqual(cases.map((c) => c.case.id), ['c1', 'c3']);
    assert.deepEqual(cases, [written[0], written[2]], 'the good cases read back exactly');
    problemAt(problems, c2 + 1, /case line that cannot be unpacked \(Invalid time value\)/);
    problemAt(problems, base + 1, /case\.documents is missing/);
    problemAt(problems, base + 2, /shared line whose .*keys/);
    problemAt(problems, base + 3, /summary line whose totals is not an object/);
    problemAt(problems, base + 4, /resume line whose at is not a string/);
    problemAt(problems, base + 5, /text line whose id is not a string/);
    assert.equal(problems.length, 6, JSON.stringify(problems));

    // The reports are written from what could be read, the damage listed as the run's problems.
    const run = await runDataFromLog(file);
    const out = path.join(root, 'shapes-reports');
    await writeReports(run, out, ['json', 'csv']);
    const report = JSON.parse(await readFile(path.join(out, 'report.json'), 'utf8')) as { problems: { line?: number }[] };
    assert.ok(report.problems.some((p) => p.line === base + 1), 'the skipped line is in the report');
  });

  it('a line that is not valid UTF-8 is reported at its number, not read with replacement characters', async () => {
    const { file, lines, written } = await goodLog('utf8');
    const c3 = lineOf(lines, 'c3');
    const bytes = lines.map((l) => Buffer.from(l, 'utf8'));
    const at = bytes[c3]!.indexOf('Capital');
    bytes[c3]![at] = 0xff; // a byte that never occurs in UTF-8
    await writeFile(file, Buffer.concat(bytes.flatMap((b, i) => (i < bytes.length - 1 ? [b, Buffer.from('\n')] : [b]))));
    const { cases, problems } = await readEveryWay(file);
    assert.deepEqual(cases, [written[0], written[1]]);
    problemAt(problems, c3 + 1, /not valid UTF-8/);
  });

  it('a case whose text line is gone is reported at its line; the report is still written with the other cases', async () => {
    const { file, lines, written } = await goodLog('texts');
    // Each case's passage is long enough to be a text line of its own.
    const c2Text = lines.findIndex((l) => l.startsWith('{"type":"text"') && l.includes('atlas of c2'));
    assert.ok(c2Text > 0, 'the passage of c2 is a text line');
    lines.splice(c2Text, 1);
    await writeFile(file, lines.join('\n'));
    const { cases, problems } = await readEveryWay(file);
    assert.deepEqual(cases, [written[0], written[2]]);
    problemAt(problems, lineOf(lines, 'c2') + 1, /text \S+ is not in the run log/);
    const out = path.join(root, 'texts-reports');
    const files = await writeReports(await runDataFromLog(file), out, ['json', 'csv']);
    assert.equal(files.length, 2);
    const csv = await readFile(path.join(out, 'cases.csv'), 'utf8');
    assert.ok(csv.includes('c1') && csv.includes('c3') && !csv.includes('(c2)'));
  });

  it('a log appended to by two processes at once: no case reads back with another writer\'s shared values', async () => {
    const { file, written } = await goodLog('two-writers');
    const base = await readFile(file, 'utf8');
    // Each process reopens the same log and defines the next shared id (a new key list) for its own case.
    const appendOne = async (line: CaseLine): Promise<string> => {
      await writeFile(file, base);
      const writer = await RunLogWriter.reopen(file);
      writer.appendCase(line);
      writer.close();
      return (await readFile(file, 'utf8')).slice(base.length);
    };
    const fromA: CaseLine = { type: 'case', case: evalCase('a1', { noiseRatioRequested: 0.2 }), result: result('a1', 30) };
    const fromB: CaseLine = { type: 'case', case: evalCase('b1', { passageCountWanted: 7 }), result: result('b1', 40) };
    const linesA = await appendOne(fromA);
    const linesB = await appendOne(fromB);
    await writeFile(file, base + linesA + linesB);
    const two = path.join(root, 'two-writers-copy.jsonl');
    await copyFile(file, two);

    const { cases, problems } = await readEveryWay(two);
    const byId = new Map(cases.map((c) => [c.case.id, c]));
    for (const line of [...written, fromA, fromB]) {
      const read = byId.get(line.case.id);
      if (read) assert.deepEqual(read, line, `${line.case.id} reads back as written, or not at all`);
    }
    assert.deepEqual(cases.slice(0, 4).map((c) => c.case.id), ['c1', 'c2', 'c3', 'a1'], 'what came before the second definition reads');
    assert.ok(problems.some((p) => /defined again with a different value/.test(p.message)), JSON.stringify(problems));
    assert.ok(byId.has('b1') || problems.some((p) => /defined twice with different values/.test(p.message)), 'b1 is read as written or reported');
  });
});
