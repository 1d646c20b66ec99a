// Every run log format through every reader: logs written by the format-1, format-2 and format-3 writers (committed
// fixtures, the same RGB and needle run) read to the same cases by readRunLog, the streamed reader and the index.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { caseKey } from '../../../src/core/model.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import { readCaseLines, readRunLog, RunLogWriter, scanRunLog } from '../../../src/core/run/runLog.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';

const FIXTURES = path.join(__dirname, 'fixtures');
const FORMAT_1 = path.join(FIXTURES, 'format1.jsonl');
const FORMAT_2 = path.join(FIXTURES, 'format2.jsonl');
const FORMAT_3 = path.join(FIXTURES, 'format3.jsonl');

let root: string;
before(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'rag-runlog-formats-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

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

describe('run log formats', () => {
  for (const [name, file] of [['format 1', FORMAT_1], ['format 2', FORMAT_2], ['format 3', FORMAT_3]] as const) {
    it(`${name}: readRunLog, the streamed reader and the index read the same cases, without problems`, async () => {
      const whole = await readRunLog(file);
      assert.deepEqual(whole.problems, []);
      assert.equal(whole.cases.length, 8);
      assert.deepEqual(await streamed(file), whole.cases);
      assert.deepEqual(await indexed(file), whole.cases);
    });
  }

  it('the two formats hold the same cases: documents, prompts as sent and variables', async () => {
    const [one, two] = await Promise.all([readRunLog(FORMAT_1), readRunLog(FORMAT_2)]);
    assert.equal(one.header.format, 1);
    assert.equal(two.header.format, 2);
    assert.deepEqual(two.cases.map((c) => c.case), one.cases.map((c) => c.case));
    const needle = two.cases.find((c) => c.case.id === 'needle/L=500/d=50')!.case;
    assert.ok(needle.messages[1]!.content.includes('The best thing to do in San Francisco'));
    assert.ok((await readFile(FORMAT_2)).length < (await readFile(FORMAT_1)).length);
  });

  it('format 3 holds the same cases as formats 1 and 2, and the results and summary of the run it was written from, in fewer bytes', async () => {
    // format3.jsonl is format2.jsonl's run written again by the format-3 writer; format1.jsonl is another run of it.
    const [one, two, three] = await Promise.all([readRunLog(FORMAT_1), readRunLog(FORMAT_2), readRunLog(FORMAT_3)]);
    assert.equal(three.header.format, 3);
    assert.deepEqual(three.cases.map((c) => c.case), one.cases.map((c) => c.case));
    assert.deepEqual(three.cases, two.cases);
    assert.deepEqual(three.summary, two.summary);
    assert.ok((await readFile(FORMAT_3)).length < (await readFile(FORMAT_2)).length);
  });

  it('a format-1 log resumed by this version stays format 1: the new lines are plain and every reader reads them', async () => {
    const file = path.join(root, 'resumed.jsonl');
    await copyFile(FORMAT_1, file);
    const first = (await readRunLog(FORMAT_1)).cases[0]!;
    const writer = await RunLogWriter.reopen(file);
    const again = { ...first.case, id: 'noise/0/again' };
    writer.appendCase({ case: again, result: { ...first.result, caseId: again.id } });
    writer.close();
    const text = await readFile(file, 'utf8');
    assert.ok(!text.includes('"type":"text"') && !text.includes('"$t"') && !text.includes('"type":"shared"'), 'no format-2 or format-3 lines in a format-1 log');
    const log = await readRunLog(file);
    const key = caseKey(again.id, first.result.modelKey);
    assert.deepEqual(log.cases.find((c) => caseKey(c.case.id, c.result.modelKey) === key)?.case, again);
    assert.deepEqual(await streamed(file), log.cases);
    assert.deepEqual(await indexed(file), log.cases);
  });

  it('a format-2 log resumed: the texts the new cases need are written again after the resume line, and read', async () => {
    const file = path.join(root, 'resumed2.jsonl');
    await copyFile(FORMAT_2, file);
    const needle = (await readRunLog(FORMAT_2)).cases.find((c) => c.case.id === 'needle/L=500/d=50')!;
    const writer = await RunLogWriter.reopen(file);
    const again = { ...needle.case, id: 'needle/again' };
    writer.appendCase({ case: again, result: { ...needle.result, caseId: again.id } });
    writer.close();
    assert.ok(!(await readFile(file, 'utf8')).includes('"type":"shared"'), 'a format-2 log stays format 2');
    const log = await readRunLog(file);
    assert.deepEqual(log.cases.find((c) => c.case.id === 'needle/again')?.case, again);
    assert.deepEqual(await streamed(file), log.cases);
    assert.deepEqual(await indexed(file), log.cases);
  });

  it('a format-2 log whose text line is gone: every reader reports the cases that need it at their lines and reads the rest', async () => {
    const file = path.join(root, 'cut.jsonl');
    const lines = (await readFile(FORMAT_2, 'utf8')).split('\n');
    const haystack = lines.findIndex((l) => l.startsWith('{"type":"text"') && l.includes('Bread on a Weeknight'));
    assert.ok(haystack > 0);
    lines.splice(haystack, 1);
    await writeFile(file, lines.join('\n'));
    const log = await readRunLog(file);
    assert.equal(log.cases.length, 4, 'the RGB cases are still read');
    assert.equal(log.problems.filter((p) => p.severity === 'error').length, 4, 'each needle case is a problem');
    assert.ok(log.problems.every((p) => p.severity !== 'error' || /text \S+ is not in the run log/.test(p.message)), JSON.stringify(log.problems));
    // The streamed reader (reports, tables, explain) and the index leave out the same cases and keep the rest.
    assert.deepEqual(await streamed(file), log.cases);
    assert.deepEqual(await indexed(file), log.cases);
    assert.deepEqual((await RunLogIndex.build(file)).problems, log.problems);
  });
});
