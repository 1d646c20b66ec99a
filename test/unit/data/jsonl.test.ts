// JSON Lines reading: streamed rows with their lines, bad lines reported in place, encoding and size limits.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { readDataset } from '../../../src/core/data/readDataset.js';
import type { DatasetItem } from '../../../src/core/data/readDataset.js';
import { RGB_DATA } from '../testData.js';
import { collect, tempFile } from './tempFiles.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/bad-inputs');

function rows(items: DatasetItem[]) {
  return items.flatMap((item) => (item.ok ? [item.row] : []));
}

function errors(items: DatasetItem[]) {
  return items.flatMap((item) => (item.ok ? [] : [item.error]));
}

test('reads each JSONL line as a row with its 1-based line and index, skipping blank lines', async () => {
  const file = tempFile('rows.jsonl', '{"q": "a"}\n\n{"q": "b", "n": [1, 2]}\r\n   \n{"q": "c"}');
  const items = await collect(readDataset(file));
  assert.deepEqual(rows(items), [
    { ref: { file, line: 1, index: 0 }, data: { q: 'a' }, key: '0' },
    { ref: { file, line: 3, index: 1 }, data: { q: 'b', n: [1, 2] }, key: '1' },
    { ref: { file, line: 5, index: 2 }, data: { q: 'c' }, key: '2' },
  ]);
});

test('.ndjson is JSON Lines too, and a UTF-8 BOM is ignored', async () => {
  const file = tempFile('rows.ndjson', '\uFEFF{"q": "a"}\n{"q": "b"}\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(rows(items).map((row) => row.data), [{ q: 'a' }, { q: 'b' }]);
});

test('a relative path is reported as absolute', async () => {
  const file = tempFile('relative.jsonl', '{"q": 1}\n');
  const items = await collect(readDataset(path.relative(process.cwd(), file)));
  assert.equal(rows(items)[0]?.ref.file, file);
});

test('malformed lines mid-file are reported at their line and column while the others load', async () => {
  const file = path.join(FIXTURES, 'broken-lines.jsonl');
  const items = await collect(readDataset(file));
  assert.deepEqual(rows(items).map((row) => [row.ref.line, row.ref.index, row.data.query]), [[1, 0, 'one'], [5, 3, 'five']]);
  const [trailingComma, notObject] = errors(items);
  assert.deepEqual(trailingComma?.position, { file, line: 2, column: 17 });
  assert.match(trailingComma!.message, /invalid JSON: Expected double-quoted property name/);
  assert.deepEqual(notObject?.position, { file, line: 4, column: 1 });
  assert.match(notObject!.message, /an array, not a JSON object/);
});

test('the column of an unexpected token is found even when V8 gives only a snippet', async () => {
  const file = tempFile('snippet.jsonl', '{"query": "a long enough line", "answer": tru, "x": 1}\n{"a": undefined}\n');
  const [first, second] = errors(await collect(readDataset(file)));
  assert.deepEqual(first?.position, { file, line: 1, column: 46 });
  assert.deepEqual(second?.position, { file, line: 2, column: 7 });
});

test('a file that is not UTF-8 stops at the first bad line with a clear error', async () => {
  const file = path.join(FIXTURES, 'latin1.jsonl');
  const items = await collect(readDataset(file));
  assert.equal(items.length, 2);
  assert.deepEqual(rows(items).map((row) => row.data.query), ['ok 1']);
  const error = errors(items)[0]!;
  assert.deepEqual(error.position, { file, line: 2 });
  assert.equal(error.format(), `${file}:2: file is not UTF-8 — re-save it as UTF-8`);
});

test('a bad byte far into a large file names its line', async () => {
  const good = '{"q": "row"}\n'.repeat(20_000);
  const file = tempFile('late-bad.jsonl', Buffer.concat([Buffer.from(good), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]));
  const items = await collect(readDataset(file));
  assert.equal(rows(items).length, 20_000);
  assert.deepEqual(errors(items)[0]?.position, { file, line: 20_001 });
});

test('a 20 MB single line is read without crashing', async () => {
  const file = path.join(tmpdir(), `rag-inspector-long-line-${process.pid}.jsonl`);
  const long = 'x'.repeat(20 * 1024 * 1024);
  writeFileSync(file, `{"q": "short"}\n{"q": "${long}"}\n{"q": "after"}\n`);
  try {
    const items = await collect(readDataset(file));
    assert.deepEqual(items.map((item) => item.ok && item.row.ref.line), [1, 2, 3]);
    const big = rows(items)[1]!.data.q as string;
    assert.equal(big.length, long.length);
  } finally {
    rmSync(file, { force: true });
  }
});

test('.json whose first line is a whole object is read as JSON Lines (RGB files)', async () => {
  const file = tempFile('rgb-like.json', '{"id": 0, "query": "q0"}\n{"id": 1, "query": "q1"}\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(rows(items).map((row) => [row.ref.line, row.data.id]), [[1, 0], [2, 1]]);
});

for (const [name, count] of [['en_fact.json', 100], ['zh_fact.json', 100], ['zh_refine.sample60.json', 60]] as const) {
  test(`the real RGB file ${name} loads with every row ok`, async () => {
    const file = path.join(RGB_DATA, name);
    const items = await collect(readDataset(file));
    assert.equal(errors(items).length, 0);
    const loaded = rows(items);
    assert.equal(loaded.length, count);
    assert.deepEqual(loaded.map((row) => row.ref.line), Array.from({ length: count }, (_, i) => i + 1));
    for (const row of loaded) assert.equal(typeof row.data.query, 'string');
  });
}

test('an aborted signal stops the reading', async () => {
  const file = tempFile('abort.jsonl', '{"q": 1}\n{"q": 2}\n{"q": 3}\n');
  const controller = new AbortController();
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const item of readDataset(file, { signal: controller.signal })) {
      if (item.ok) seen.push(item.row.ref.line);
      controller.abort();
    }
  }, { name: 'AbortError' });
  assert.deepEqual(seen, [1]);
});
