// Where a ranked passage came from, read from its metadata: the index's absolute path and lines, a retriever's
// absolute file or its http(s) URL; a relative file (no folder to open it in) or another scheme gives no source.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { rankedCandidates, sourceOf } from '../../../src/core/retrieval/qrels.js';

test('the index\'s metadata places a passage at its file and lines', () => {
  const file = path.resolve('docs', 'hours.md');
  const [passage] = rankedCandidates([{ id: 'hours.md#0-10', text: 'x', metadata: { file: 'hours.md', startLine: 3, endLine: 5, startChar: 0, endChar: 10, path: file } }], 1, undefined);
  assert.deepEqual(passage!.source, { file, startLine: 3, endLine: 5 });
});

test('a PDF\'s passage from the index keeps its pages beside its lines', () => {
  const file = path.resolve('docs', 'report.pdf');
  const [passage] = rankedCandidates([{ id: 'report.pdf#0-10', text: 'x', metadata: { file: 'report.pdf', startLine: 12, endLine: 19, startPage: 3, endPage: 4, startChar: 0, endChar: 10, path: file } }], 1, undefined);
  assert.deepEqual(passage!.source, { file, startLine: 12, endLine: 19, startPage: 3, endPage: 4 });
  assert.deepEqual(sourceOf({ url: 'https://docs.example/r.pdf', startPage: 2 }), { source: { url: 'https://docs.example/r.pdf' } }, 'pages place a file, not a URL');
});

test('an absolute file or a web URL from a retriever is a source; a relative file, a bad line or another scheme is not', () => {
  const absolute = path.resolve('notes.md');
  assert.deepEqual(sourceOf({ file: absolute, startLine: 2 }), { source: { file: absolute, startLine: 2 } });
  assert.deepEqual(sourceOf({ url: 'https://docs.example/page#a' }), { source: { url: 'https://docs.example/page#a' } });
  assert.deepEqual(sourceOf({ file: 'notes.md', startLine: 2 }), {});
  assert.deepEqual(sourceOf({ url: 'javascript:alert(1)' }), {});
  assert.deepEqual(sourceOf({ file: absolute, startLine: 0, endLine: 1.5 }), { source: { file: absolute } });
  assert.deepEqual(sourceOf(undefined), {});
});
