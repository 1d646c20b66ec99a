// JSON array, CSV/TSV and YAML datasets, plus the file-level errors (unknown type, missing file) and hashing.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { test } from 'node:test';
import { readDataset } from '../../../src/core/data/readDataset.js';
import type { DatasetItem } from '../../../src/core/data/readDataset.js';
import { hashFile } from '../../../src/core/data/hash.js';
import { elementOffsets } from '../../../src/core/data/jsonArray.js';
import { collect, tempDir, tempFile } from './tempFiles.js';

const FIXTURES = path.resolve(__dirname, '../../fixtures/bad-inputs');

function summary(items: DatasetItem[]): unknown[] {
  return items.map((item) => (item.ok ? [item.row.ref.line, item.row.ref.index, item.row.data] : item.error.format()));
}

test('a JSON array gives each element the line it starts on', async () => {
  const file = tempFile('array.json', [
    '[',
    '  {"q": "a, [not a bracket]"},',
    '  {',
    '    "q": "b",',
    '    "docs": [{"t": "}"}]',
    '  },',
    '',
    '  {"q": "c"}, {"q": "d"}',
    ']',
  ].join('\n'));
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [
    [2, 0, { q: 'a, [not a bracket]' }],
    [3, 1, { q: 'b', docs: [{ t: '}' }] }],
    [8, 2, { q: 'c' }],
    [8, 3, { q: 'd' }],
  ]);
});

test('element offsets skip escaped quotes inside strings', () => {
  const text = '[ "a\\"]", {"k": "\\\\"} ,3]';
  assert.deepEqual(elementOffsets(text), [2, 10, 23]);
});

test('a non-object array element is an error for that element only', async () => {
  const file = tempFile('mixed.json', '[\n  {"q": 1},\n  "oops",\n  {"q": 3}\n]\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [
    [2, 0, { q: 1 }],
    `${file}:3: element 1 is a string, not an object — a .json dataset is an array of objects ([{…}, {…}]) or JSON Lines (one object per line)`,
    [4, 2, { q: 3 }],
  ]);
});

test('invalid JSON in an array file is one error at the line and column of the problem', async () => {
  const file = tempFile('invalid.json', '[\n  {"q": 1},\n  {"q": 2,}\n]\n');
  const items = await collect(readDataset(file));
  const [only] = items;
  assert.equal(items.length, 1);
  assert.ok(only && !only.ok);
  assert.deepEqual(only.error.position, { file, line: 3, column: 11 });
});

test('a .json file holding one pretty-printed object is explained', async () => {
  const file = tempFile('object.json', '{\n  "rows": []\n}\n');
  const [item] = await collect(readDataset(file));
  assert.ok(item && !item.ok);
  assert.match(item.error.message, /holds an object, not an array of rows/);
});

test('CSV: header gives the keys, each record keeps its start line, JSON-looking cells are parsed', async () => {
  const file = tempFile('rows.csv', [
    'query,answer,note',
    'q1,"[""Tampa"", ""Florida""]",plain',
    '',
    '"multi',
    'line","{""a"": 1}",[not json',
    '',
    '',
    'q3,x,',
  ].join('\r\n'));
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [
    [2, 0, { query: 'q1', answer: ['Tampa', 'Florida'], note: 'plain' }],
    [4, 1, { query: 'multi\nline', answer: { a: 1 }, note: '[not json' }],
    [8, 2, { query: 'q3', answer: 'x', note: '' }],
  ]);
});

test('a ragged CSV row is an error naming its line; the others still load', async () => {
  const file = path.join(FIXTURES, 'ragged.csv');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [
    [2, 0, { query: 'first', answer: 'a' }],
    `${file}:3: row has 3 fields, the header has 2 — add or remove delimiters so every row has one field per header column; quote fields that contain the delimiter`,
    [4, 2, { query: 'third', answer: 'c' }],
  ]);
});

test('an unclosed CSV quote is reported with its line', async () => {
  const file = tempFile('unclosed.csv', 'a,b\n1,2\n\n3,"4\n5,6\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items)[0], [2, 0, { a: '1', b: '2' }]);
  const last = items.at(-1)!;
  assert.ok(!last.ok);
  // The last good record ends on line 2; the open quote is on line 4, after a blank line.
  assert.equal(last.error.position.line, 3);
  assert.match(last.error.message, /invalid CSV: a quoted field is never closed \(at or after this line\)/);
});

test('a CSV header naming a column twice is an error', async () => {
  const file = tempFile('dup.csv', 'q,q\n1,2\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [`${file}:1: the header row names column 'q' twice — the first row must name every column once, e.g. query,answer,positive`]);
});

test('TSV uses tabs and a BOM is ignored', async () => {
  const file = tempFile('rows.tsv', '\uFEFFquery\tanswer\nwho, me?\t"[""a""]"\nsaid "hi"\tb\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [[2, 0, { query: 'who, me?', answer: ['a'] }], [3, 1, { query: 'said "hi"', answer: 'b' }]]);
});

test('a CSV that is not UTF-8 names the bad line', async () => {
  const file = tempFile('latin1.csv', Buffer.concat([Buffer.from('q\nok\n'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])]));
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [[2, 0, { q: 'ok' }], `${file}:3: file is not UTF-8 — re-save it as UTF-8`]);
});

test('YAML: a list of mappings, each row at the line its item starts', async () => {
  const file = tempFile('rows.yaml', [
    '# a comment',
    '- query: first',
    '  answer: [a, b]',
    '',
    '- query: second',
    '  positive:',
    '    - doc one',
    '- just a string',
    '- &base {query: third}',
  ].join('\n'));
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [
    [2, 0, { query: 'first', answer: ['a', 'b'] }],
    [5, 1, { query: 'second', positive: ['doc one'] }],
    `${file}:8:3: list item 3 is a string, not a mapping — a YAML dataset is a list of rows, each a mapping: "- query: …\\n  answer: …"`,
    [9, 3, { query: 'third' }],
  ]);
});

test('YAML syntax errors carry line and column', async () => {
  const file = tempFile('bad.yml', '- query: ok\n  answer: a: b\n');
  const items = await collect(readDataset(file));
  const [only] = items;
  assert.equal(items.length, 1);
  assert.ok(only && !only.ok);
  assert.deepEqual(only.error.position, { file, line: 2, column: 11 });
  assert.match(only.error.message, /^invalid YAML: Nested mappings are not allowed/);
});

test('a YAML mapping at the top is explained', async () => {
  const file = tempFile('map.yaml', 'rows:\n  - query: a\n');
  const items = await collect(readDataset(file));
  assert.deepEqual(summary(items), [`${file}:1:1: the file is not a list of rows — a YAML dataset is a list of rows, each a mapping: "- query: …\\n  answer: …"`]);
});

test('unknown extension, missing file and folder are one clear error each', async () => {
  const unknown = tempFile('rows.txt', 'hello');
  const missing = path.join(tempDir(), 'nope.jsonl');
  const folder = tempDir();
  assert.deepEqual(summary(await collect(readDataset(unknown))), [
    `${unknown}: unsupported dataset file type '.txt' — use a .jsonl, .ndjson, .json, .csv, .tsv, .yaml or .yml file`,
  ]);
  assert.deepEqual(summary(await collect(readDataset(missing))), [
    `${missing}: dataset file not found — check the path (in an eval file it is relative to the eval file's folder)`,
  ]);
  assert.match(String(summary(await collect(readDataset(folder)))[0]), /is a folder, not a file/);
});

test('hashFile is the sha256 of the bytes', async () => {
  const content = Buffer.from('{"q": "héllo"}\n');
  const file = tempFile('hash.jsonl', content);
  assert.equal(await hashFile(file), createHash('sha256').update(content).digest('hex'));
});

test('a one-line JSON array in a .json file is read as an array', async () => {
  const file = tempFile('oneline.json', '[{"q": 1}, {"q": 2}]');
  assert.deepEqual(summary(await collect(readDataset(file))), [[1, 0, { q: 1 }], [1, 1, { q: 2 }]]);
});

test('a YAML file that is not UTF-8 names the bad line', async () => {
  const file = tempFile('latin1.yaml', Buffer.concat([Buffer.from('- q: ok\n- q: caf'), Buffer.from([0xe9, 0x0a])]));
  assert.deepEqual(summary(await collect(readDataset(file))), [`${file}:2: file is not UTF-8 — re-save it as UTF-8`]);
});
