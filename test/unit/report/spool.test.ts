// The spool a one-pass report writer keeps what waits for the totals in: past its memory bound it moves to a
// temporary file in the folder given, reads back in order (whole, or line by line, multi-byte characters across read
// boundaries included) and leaves nothing behind once disposed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Spool } from '../../../src/core/report/spool.js';
import { StringSink, writeFileStreaming } from '../../../src/core/report/textSink.js';

test('a spool larger than its memory bound goes to a file beside the reports and reads back the same text', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-spool-'));
  try {
    const spool = new Spool(dir);
    const lines: string[] = [];
    // ~6 M characters, with 3-byte characters so reads split them.
    for (let i = 0; i < 60_000; i++) lines.push(`${i} ${'é€'.repeat(i % 50)} ${'x'.repeat(i % 7)}`);
    for (const line of lines) await spool.write(`${line}\n`);
    assert.equal(readdirSync(dir).length, 1, 'the spool moved to a file in the folder given');
    const read: string[] = [];
    for await (const line of spool.lines()) read.push(line);
    assert.deepEqual(read, lines);
    const sink = new StringSink();
    await spool.copyTo(sink);
    assert.equal(sink.toString(), `${lines.join('\n')}\n`);
    // Into a report file, the spooled file's bytes copied as they are (reads of 1 MB split the 3-byte characters), then
    // what is still in memory.
    await spool.write('the last part, in memory: é€\n');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'rag-spool-out-')), 'report.txt');
    await writeFileStreaming(file, async (out) => {
      await out.write('before ');
      await spool.copyTo(out);
      await out.write('after');
    });
    assert.equal(readFileSync(file, 'utf8'), `before ${lines.join('\n')}\nthe last part, in memory: é€\nafter`);
    // Its lines joined by another character (the HTML report's case details, joined by commas), in a file and in memory.
    await writeFileStreaming(file, (out) => spool.copyTo(out, ','));
    assert.equal(readFileSync(file, 'utf8'), `${lines.join(',')},the last part, in memory: é€,`);
    const joined = new StringSink();
    await spool.copyTo(joined, ',');
    assert.equal(joined.toString(), `${lines.join(',')},the last part, in memory: é€,`);
    rmSync(path.dirname(file), { recursive: true, force: true });
    await spool.dispose();
    assert.deepEqual(readdirSync(dir), [], 'nothing left once disposed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
