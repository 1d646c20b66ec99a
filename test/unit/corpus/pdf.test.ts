// PDF documents in a corpus, read from real PDFs (test/fixtures/pdf, printed by Chromium, encrypted by qpdf): the
// pages' text in order with the page each chunk is on, chunk ranges that map back to that text, an encrypted, broken
// or image-only PDF named and skipped while the other files are read, the page limit and cancel between pages, the
// text cache, an incremental re-index that re-chunks only the PDF that changed, reading each version once; and
// through the real CLI (dist/cli.js), `rag-inspector index` and a rag run on a folder with PDFs.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, beforeEach, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { buildIndex } from '../../../src/core/corpus/build.js';
import { chunkDocument } from '../../../src/core/corpus/chunker.js';
import type { CorpusDocument } from '../../../src/core/corpus/contract.js';
import { readCorpus } from '../../../src/core/corpus/documents.js';
import { pdfText } from '../../../src/core/corpus/pdf.js';
import { PdfTextCache } from '../../../src/core/corpus/pdfTextCache.js';
import { InputError } from '../../../src/core/errors.js';
import { tokenizerFor } from '../../../src/core/prompt/tokens.js';
import type { IndexSpec } from '../../../src/core/retrieval/indexSpec.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { RagCaseParams } from '../../../src/core/suites/rag/cases.js';

const FIXTURES = path.resolve('test/fixtures/pdf');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));
const o200k = tokenizerFor('openai:gpt-4o');

const roots: string[] = [];
let folder: string;
beforeEach(() => {
  const root = mkdtempSync(path.join(tmpdir(), 'corpus-pdf-'));
  roots.push(root);
  folder = path.join(root, 'docs');
  mkdirSync(folder);
});
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const put = (name: string, from: string) => copyFileSync(path.join(FIXTURES, from), path.join(folder, name));

async function readReport(): Promise<CorpusDocument> {
  put('report.pdf', 'report.pdf');
  const { documents, problems } = await readCorpus({ folder, include: [], exclude: [] });
  assert.deepEqual(problems, []);
  return documents[0]!;
}

describe('a PDF read as a document', () => {
  it('is the text of its pages in order, each page anchored where its text starts', async () => {
    const document = await readReport();
    assert.equal(document.file, 'report.pdf');
    const pages = document.extracted?.pages;
    assert.deepEqual(pages?.map(([, page]) => page), [1, 2, 3]);
    const [first, second, third] = pages!.map(([offset]) => offset);
    assert.equal(first, 0);
    assert.ok(document.text.slice(first, second).startsWith('Harbour lighthouse'), document.text);
    assert.ok(document.text.slice(second, third).startsWith('Keepers'), document.text);
    assert.ok(document.text.slice(third).startsWith('Repairs'), document.text);
    assert.match(document.text.slice(second, third), /last head\nkeeper was Marta Ellingsen/);
    // A paragraph (lower than one line's height further down) starts after a blank line; lines within it do not.
    assert.match(document.text, /report\n\nThe north harbour lighthouse/);
    assert.match(document.text, /in 1874 from\ngranite/);
  });

  it('is cut into chunks that map back to the text and name their pages and lines', async () => {
    const document = await readReport();
    const lines = document.text.split('\n');
    for (const size of [24, 100]) {
      const chunks = chunkDocument(document, { by: 'tokens', size, overlap: size === 24 ? 6 : 0 }, o200k);
      assert.ok(chunks.length > 1);
      for (const chunk of chunks) {
        assert.equal(chunk.text, document.text.slice(chunk.startChar, chunk.endChar));
        const [firstLine, lastLine] = [chunk.text.split('\n')[0]!, chunk.text.split('\n').at(-1)!];
        assert.ok(lines[chunk.startLine - 1]!.includes(firstLine), `${chunk.id} starts on line ${chunk.startLine}`);
        assert.ok(lines[chunk.endLine - 1]!.includes(lastLine), `${chunk.id} ends on line ${chunk.endLine}`);
      }
      const pageOf = (words: string) => {
        const chunk = chunks.find((c) => c.text.includes(words));
        assert.ok(chunk, words);
        return [chunk.startPage, chunk.endPage];
      };
      if (size === 24) {
        assert.deepEqual(pageOf('built in 1874'), [1, 1]);
        assert.deepEqual(pageOf('Marta Ellingsen'), [2, 2]);
        assert.deepEqual(pageOf('310,000'), [3, 3]);
      } else {
        assert.ok(chunks.some((chunk) => chunk.startPage! < chunk.endPage!), 'a chunk larger than a page spans two');
      }
    }
  });

  it('an encrypted, a broken and an image-only PDF are each named and skipped; the other files are read', async () => {
    put('report.pdf', 'report.pdf');
    put('encrypted.pdf', 'encrypted.pdf');
    put('scan.pdf', 'scan.pdf');
    writeFileSync(path.join(folder, 'broken.pdf'), fixture('report.pdf').subarray(0, 900));
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe ferry leaves at nine.\n');
    const { documents, problems } = await readCorpus({ folder, include: [], exclude: [] });
    assert.deepEqual(documents.map((d) => d.file), ['notes.md', 'report.pdf']);
    const said = new Map(problems.map((p) => [path.basename(p.position.file), p]));
    assert.deepEqual([...said.keys()].sort(), ['broken.pdf', 'encrypted.pdf', 'scan.pdf']);
    for (const problem of problems) assert.ok(problem instanceof InputError && path.isAbsolute(problem.position.file));
    assert.match(said.get('encrypted.pdf')!.format(), /encrypted\.pdf: is encrypted .*password.* — save a copy without the password, or exclude it/);
    assert.match(said.get('scan.pdf')!.format(), /scan\.pdf: has no text layer .* — OCR it first/);
    assert.match(said.get('broken.pdf')!.format(), /broken\.pdf: cannot be read as a PDF \(.+\) — check that it opens in a PDF viewer/);
  });

  it('reads at most the page limit, saying how many pages were left', async () => {
    const read = await pdfText(fixture('report.pdf'), '/docs/report.pdf', { maxPages: 2 });
    assert.deepEqual(read.extracted.pages?.map(([, page]) => page), [1, 2]);
    assert.doesNotMatch(read.text, /Repairs/);
    assert.deepEqual(read.problems.map((p) => p.format()), ['/docs/report.pdf: has 3 pages: only the first 2 were read — split it into parts of at most 2 pages, or exclude it']);
  });

  it('a cancel is honoured between pages', async () => {
    const controller = new AbortController();
    const seen: number[] = [];
    await assert.rejects(
      pdfText(fixture('report.pdf'), 'report.pdf', { signal: controller.signal, onPage: (page) => {
        seen.push(page);
        controller.abort();
      } }),
      (error: Error) => error.name === 'AbortError',
    );
    assert.deepEqual(seen, [1], 'no page is read after the cancel');
  });
});

describe('the PDF text cache', () => {
  it('a PDF read once is taken from the cache by its bytes\' hash, with what was said about it', async () => {
    const cache = new PdfTextCache(path.join(path.dirname(folder), 'pdf-text'));
    const bytes = fixture('report.pdf');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const first = await cache.text(hash, '/a/report.pdf', () => pdfText(bytes, '/a/report.pdf', { maxPages: 2 }));
    const again = await cache.text(hash, '/b/report.pdf', () => assert.fail('read again'));
    assert.equal(again.text, first.text);
    assert.deepEqual(again.extracted, first.extracted);
    assert.deepEqual(again.problems.map((p) => p.format()), ['/b/report.pdf: has 3 pages: only the first 2 were read — split it into parts of at most 2 pages, or exclude it']);
  });

  it('readCorpus takes a PDF\'s text from the cache; a damaged entry is read again', async () => {
    put('report.pdf', 'report.pdf');
    const cache = new PdfTextCache(path.join(path.dirname(folder), 'pdf-text'));
    const [read] = (await readCorpus({ folder, include: [], exclude: [] }, { pdfCache: cache })).documents;
    const entry = path.join(cache.dir, read!.contentHash.slice(0, 2), `${read!.contentHash}.json`);
    const kept = JSON.parse(readFileSync(entry, 'utf8')) as { text: string; pages: unknown };
    assert.equal(kept.text, read!.text);
    writeFileSync(entry, JSON.stringify({ ...kept, text: 'Planted in the cache.', pages: [[0, 1]] }));
    const [cached] = (await readCorpus({ folder, include: [], exclude: [] }, { pdfCache: cache })).documents;
    assert.equal(cached!.text, 'Planted in the cache.', 'not read from the PDF again');
    writeFileSync(entry, '{"format": 1, "text": 7}');
    const [reread] = (await readCorpus({ folder, include: [], exclude: [] }, { pdfCache: cache })).documents;
    assert.equal(reread!.text, read!.text);
  });
});

describe('an index over PDFs', () => {
  const spec = (): IndexSpec => ({
    folder,
    include: [],
    exclude: [],
    chunking: { by: 'tokens', size: 32, overlap: 8 },
    search: 'bm25',
    hybrid: { weight: 0.5, rrfK: 60 },
    store: { type: 'embedded' },
  });
  const build = (stateDir: string) => buildIndex({ spec: spec(), stateDir, signal: new AbortController().signal });

  it('re-chunks only the PDF that changed', async () => {
    const stateDir = path.join(path.dirname(folder), '.rag-inspector');
    put('report.pdf', 'report.pdf');
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe ferry leaves at nine and returns at five.\n');
    const first = await build(stateDir);
    assert.deepEqual(first.summary.files, { changed: 2, unchanged: 0, removed: 0 });
    assert.ok(first.chunks.some((c) => c.file === 'report.pdf' && c.text.includes('310,000') && c.startPage === 3));

    put('report.pdf', 'report-revised.pdf');
    const second = await build(stateDir);
    assert.deepEqual(second.summary.files, { changed: 1, unchanged: 1, removed: 0 });
    assert.deepEqual(second.chunks.filter((c) => c.file === 'notes.md'), first.chunks.filter((c) => c.file === 'notes.md'));
    const report = second.chunks.filter((c) => c.file === 'report.pdf');
    assert.ok(report.some((c) => c.text.includes('295,000') && c.startPage === 3));
    assert.ok(!report.some((c) => c.text.includes('310,000')));
    // What did not change on pages 1 and 2 is cut the same.
    assert.deepEqual(report.filter((c) => c.endPage! < 3).map((c) => c.id), first.chunks.filter((c) => c.file === 'report.pdf' && c.endPage! < 3).map((c) => c.id));

    const kept = readdirSync(path.join(stateDir, 'cache', 'pdf-text'), { recursive: true }).filter((name) => String(name).endsWith('.json'));
    assert.equal(kept.length, 2, 'each version of the PDF read once, kept by its hash');

    const third = await build(stateDir);
    assert.deepEqual(third.summary.files, { changed: 0, unchanged: 2, removed: 0 });
    assert.deepEqual(third.chunks, second.chunks, 'the chunk file keeps the pages');
  });
});

describe('rag-inspector index and run on a folder with PDFs', () => {
  const CLI = path.resolve('dist/cli.js');
  /** Exit code, stdout and stderr, whether the command succeeds or not. */
  const cli = (args: string[]) => promisify(execFile)(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', CI: '1' } })
    .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));

  function evalFile(): string {
    put('report.pdf', 'report.pdf');
    put('scan.pdf', 'scan.pdf');
    writeFileSync(path.join(folder, 'notes.md'), '# Notes\n\nThe ferry to the island leaves at nine.\n');
    const lab = path.dirname(folder);
    writeFileSync(path.join(lab, 'questions.jsonl'), '{"id": "q1", "question": "Who was the last head keeper of the lighthouse?", "answer": "Marta Ellingsen"}\n');
    const file = path.join(lab, 'pdf.eval.yaml');
    writeFileSync(file, `version: 1
models:
  - { provider: extractive, model: bm25 }
index:
  folder: docs
  chunking: { by: tokens, size: 48, overlap: 8 }
  search: bm25
suites:
  - { id: corpus, method: rag, dataset: questions.jsonl, params: { k: 2, candidates: 3 } }
`);
    return file;
  }

  it('index: the PDF is indexed, the one without text is an error naming it (exit 2); without it, exit 0', async () => {
    const file = evalFile();
    const first = await cli(['index', file]);
    assert.equal(first.code, 2, first.stderr);
    assert.match(first.stdout, /^index .*docs .*: 2 files changed, 0 unchanged, 0 removed; \d+ chunks$/m);
    assert.match(first.stderr, /^error: .*scan\.pdf: has no text layer \(its page is an image\): nothing to index — OCR it first/m);
    assert.match(first.stderr, /1 problem above: those files \(or lines, or pages\) are not in the index; the rest is$/m);

    unlinkSync(path.join(folder, 'scan.pdf'));
    const second = await cli(['index', file]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /: 0 files changed, 2 unchanged, 0 removed/);
  });

  it('run: the question is answered from the PDF, its passage placed at its pages; the skipped PDF is a warning', async () => {
    const file = evalFile();
    const run = await cli(['run', file, '--format', 'json']);
    assert.match(run.stderr, /warning: index: .*scan\.pdf: has no text layer/);
    const log = await readRunLog(path.join(path.dirname(file), '.rag-inspector', 'runs', `${/run (\S+):/.exec(run.stderr)![1]}.jsonl`));
    const retrieval = (log.cases[0]!.case.params as unknown as RagCaseParams).retrieval!;
    const passage = retrieval.candidates[0]!;
    assert.match(passage.id, /^report\.pdf#\d+-\d+$/);
    assert.match(log.cases[0]!.case.documents[0]!.text, /Marta Ellingsen/);
    const meta = passage.metadata as { startLine: number; endLine: number; startPage: number; endPage: number };
    assert.deepEqual(passage.source, { file: path.join(folder, 'report.pdf'), startLine: meta.startLine, endLine: meta.endLine, startPage: meta.startPage, endPage: meta.endPage });
    assert.ok(meta.startPage <= 2 && meta.endPage === 2, `the keeper is on page 2, the passage on pages ${meta.startPage}–${meta.endPage}`);
  });
});
