// Row keys: every row of a dataset is named apart, in every format, and a taken id is reported at both rows' lines.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readDataset } from '../../../src/core/data/readDataset.js';
import type { DatasetItem } from '../../../src/core/data/readDataset.js';
import { rowKey } from '../../../src/core/data/rowIds.js';
import { collect, tempFile } from './tempFiles.js';

interface Read {
  keys: string[];
  lines: number[];
  /** Each problem as "line: message". */
  problems: string[];
}

async function read(file: string): Promise<Read> {
  const items: DatasetItem[] = await collect(readDataset(file));
  const rows = items.flatMap((item) => (item.ok ? [item] : []));
  assert.equal(rows.length, items.length, 'every record is a row');
  return {
    keys: rows.map((item) => rowKey(item.row)),
    lines: rows.map((item) => item.row.ref.line),
    problems: rows.flatMap((item) => (item.problems ?? []).map((p) => `${p.position.line}: ${p.message}`)),
  };
}

/** The lines the problems name, in order. */
const problemLines = (r: Read) => r.problems.map((p) => Number(p.split(':')[0]));

function assertNamedApart(r: Read, rows: number): void {
  assert.equal(r.keys.length, rows);
  assert.equal(new Set(r.keys).size, rows, `keys ${JSON.stringify(r.keys)}`);
}

test('JSONL: three rows with id 7 keep three names, the later ones suffixed by their line, each collision told at both lines', async () => {
  const file = tempFile('same.jsonl', ['{"id": 7, "q": "a"}', '{"id": 7, "q": "b"}', '{"id": "7", "q": "c"}'].join('\n'));
  const r = await read(file);
  assertNamedApart(r, 3);
  assert.deepEqual(r.keys, ['7', '7@line2', '7@line3']);
  assert.deepEqual(problemLines(r), [1, 2, 1, 3]);
  assert.equal(r.problems[0], '1: this row has id "7"; the row at line 2 has the same name (id "7"), so that row\'s cases are named "7@line2"');
  assert.equal(r.problems[1], '2: this row has id "7", the same name as the row at line 1 (id "7"); its cases are named "7@line2" instead');
  const again = await read(file);
  assert.deepEqual(again.keys, r.keys, 'the same file names its rows the same way on every read');
});

test('a numeric id equal to an earlier id-less row\'s position, and a position equal to an earlier id, are both collisions', async () => {
  // Line 1 has no id (position 0); line 2 says id 0. Line 3 says id 3; line 4 has no id and is at position 3.
  const file = tempFile('positions.jsonl', ['{"q": "a"}', '{"id": 0, "q": "b"}', '{"id": 3, "q": "c"}', '{"q": "d"}'].join('\n'));
  const r = await read(file);
  assertNamedApart(r, 4);
  assert.deepEqual(r.keys, ['0', '0@line2', '3', '3@line4']);
  assert.deepEqual(problemLines(r), [1, 2, 3, 4]);
  assert.equal(r.problems[0], '1: this row has no id, so it is named by its position 0; the row at line 2 has the same name (id "0"), so that row\'s cases are named "0@line2"');
  assert.equal(r.problems[3], '4: this row has no id, so it is named by its position 3, the same name as the row at line 3 (id "3"); its cases are named "3@line4" instead');
});

test('CSV: empty id cells are no id (each row named by its position), and a filled id equal to a position collides', async () => {
  const file = tempFile('empty.csv', ['id,q', ',a', ',b', ' ,c', '1,d'].join('\n'));
  const r = await read(file);
  assertNamedApart(r, 4);
  assert.deepEqual(r.keys, ['0', '1', '2', '1@line5']);
  assert.deepEqual(problemLines(r), [3, 5]);
});

test('CSV: duplicate ids on lines after a multi-line cell are told at their own lines', async () => {
  const file = tempFile('dup.csv', ['id,q', 'x,"two', 'lines"', 'x,b'].join('\n'));
  const r = await read(file);
  assert.deepEqual(r.keys, ['x', 'x@line4']);
  assert.deepEqual(problemLines(r), [2, 4]);
});

test('JSON array: duplicate ids are named apart and told at the lines the elements start on', async () => {
  const file = tempFile('dup.json', ['[', '  {"id": "a", "q": 1},', '  {', '    "id": "a",', '    "q": 2', '  }', ']'].join('\n'));
  const r = await read(file);
  assert.deepEqual(r.lines, [2, 3]);
  assert.deepEqual(r.keys, ['a', 'a@line3']);
  assert.deepEqual(problemLines(r), [2, 3]);
});

test('YAML: duplicate ids are named apart and told at the lines the items start on', async () => {
  const file = tempFile('dup.yaml', ['- id: 5', '  q: a', '- id: 5', '  q: b', '- q: c', '- id: 2', '  q: d'].join('\n'));
  const r = await read(file);
  assertNamedApart(r, 4);
  assert.deepEqual(r.keys, ['5', '5@line3', '2', '2@line6']);
  assert.deepEqual(problemLines(r), [1, 3, 5, 6]);
});

test('a suffixed name a row already took is not given again, and large or odd ids are named apart too', async () => {
  const file = tempFile('odd.jsonl', [
    '{"id": 7}', '{"id": "7@line3"}', '{"id": 7}',
    '{"id": 9000000000}', '{"id": 9000000000}', '{"id": "07"}', '{"id": 1.5}', '{"id": 1.5}', '{"id": -1}', '{"id": "-1"}',
    '{"id": "7@line3#2"}',
  ].join('\n'));
  const r = await read(file);
  assertNamedApart(r, 11);
  assert.deepEqual(r.keys, ['7', '7@line3', '7@line3#2', '9000000000', '9000000000@line5', '07', '1.5', '1.5@line8', '-1', '-1@line10', '7@line3#2@line11']);
  assert.match(r.problems.join('\n'), /3: this row has id "7", the same name as the row at line 1 \(id "7"\); its cases are named "7@line3#2" instead/);
  assert.match(r.problems.join('\n'), /3: this row has the name "7@line3#2" \(its own id was taken\); the row at line 11 has the same name/);
});

test('unique ids and id-less rows are named as before, with no problem', async () => {
  const file = tempFile('unique.jsonl', ['{"id": "x"}', '{"q": 1}', '{"id": 9}', '{"q": 2}'].join('\n'));
  const r = await read(file);
  assert.deepEqual(r.keys, ['x', '1', '9', '3']);
  assert.deepEqual(r.problems, []);
});

test('an id seen early, when it was kept apart from the dense positions, still collides once the file has grown past it', async () => {
  const lines = ['{"id": 100000}', ...Array.from({ length: 30_000 }, () => '{}'), '{"id": 100000}', '{"id": 29000}'];
  const r = await read(tempFile('long.jsonl', lines.join('\n')));
  assertNamedApart(r, lines.length);
  assert.deepEqual(r.keys.slice(-2), ['100000@line30002', '29000@line30003']);
  assert.deepEqual(problemLines(r), [1, 30002, 29001, 30003]);
});

test('a malformed id is the row\'s own problem, at its line; the other rows are named as usual', async () => {
  const file = tempFile('malformed.jsonl', ['{"id": {"a": 1}}', '{"id": 0}', '{"id": [1]}'].join('\n'));
  const items: DatasetItem[] = await collect(readDataset(file));
  const rows = items.flatMap((item) => (item.ok ? [item.row] : []));
  assert.throws(() => rowKey(rows[0]!), (error: Error & { position?: { line?: number } }) => /row id: expected a string or number, got a mapping/.test(error.message) && error.position?.line === 1);
  assert.throws(() => rowKey(rows[2]!), /got a list/);
  assert.equal(rowKey(rows[1]!), '0@line2', 'the malformed row holds its position until it is fixed');
});
