// The incremental re-index decision: after one file changes only it is re-chunked; new files are changed, missing
// ones removed; a manifest of another chunker version re-chunks everything; the manifest is written atomically.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chunkDocument } from '../../../src/core/corpus/chunker.js';
import { hashCorpus, readCorpus, readCorpusDocument } from '../../../src/core/corpus/documents.js';
import { CHUNKER_VERSION, diffManifest, manifestOf, readManifest, writeManifest } from '../../../src/core/corpus/manifest.js';
import type { Manifest } from '../../../src/core/corpus/manifest.js';
import { tokenizerFor } from '../../../src/core/prompt/tokens.js';

const o200k = tokenizerFor('openai:gpt-4o');
let root: string;
let corpus: string;
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'corpus-manifest-'));
  corpus = path.join(root, 'docs');
  mkdirSync(path.join(corpus, 'guide'), { recursive: true });
  for (let i = 0; i < 6; i++) writeFileSync(path.join(corpus, 'guide', `page-${i}.md`), `# Page ${i}\n\nThe text of page ${i}.\n`);
  writeFileSync(path.join(corpus, 'faq.jsonl'), '{"id": "q1", "text": "Answer one."}\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

const selection = () => ({ folder: corpus, include: [], exclude: [] });

async function build(previous: Manifest | undefined) {
  const { documents } = await readCorpus(selection());
  const diff = diffManifest(previous, documents);
  const manifest = manifestOf(documents.map((document) => ({ document, chunkIds: chunkDocument(document, { by: 'heading', size: 64, overlap: 0 }, o200k).map((c) => c.id) })));
  return { diff, manifest };
}

describe('diffManifest', () => {
  it('a first build: every file changed', async () => {
    const { diff } = await build(undefined);
    assert.equal(diff.changed.length, 7);
    assert.deepEqual([diff.unchanged, diff.removed], [[], []]);
  });

  it('one file changed: only it is changed, the others unchanged, none removed', async () => {
    const first = await build(undefined);
    writeFileSync(path.join(corpus, 'guide', 'page-3.md'), '# Page 3\n\nRewritten.\n');
    const second = await build(first.manifest);
    assert.deepEqual(second.diff.changed.map((d) => d.file), ['guide/page-3.md']);
    assert.equal(second.diff.unchanged.length, 6);
    assert.deepEqual(second.diff.removed, []);
    // Its chunk ids are what the manifest now holds for it; the others' stay as they were.
    assert.notDeepEqual(second.manifest.files['guide/page-3.md'], first.manifest.files['guide/page-3.md']);
    assert.deepEqual(second.manifest.files['guide/page-0.md'], first.manifest.files['guide/page-0.md']);
    // Built again with nothing touched: nothing changed.
    const third = await build(second.manifest);
    assert.deepEqual([third.diff.changed, third.diff.removed], [[], []]);
  });

  it('a new file is changed, a deleted one removed; touching a file without changing its bytes changes nothing', async () => {
    const first = await build(undefined);
    writeFileSync(path.join(corpus, 'new.md'), 'New.\n');
    rmSync(path.join(corpus, 'guide', 'page-5.md'));
    writeFileSync(path.join(corpus, 'guide', 'page-1.md'), '# Page 1\n\nThe text of page 1.\n');
    const second = await build(first.manifest);
    assert.deepEqual(second.diff.changed.map((d) => d.file), ['new.md']);
    assert.deepEqual(second.diff.removed, ['guide/page-5.md']);
    assert.ok(!('guide/page-5.md' in second.manifest.files));
  });

  it('hashes alone decide too: after one file changed, only it is read and chunked again', async () => {
    const first = await build(undefined);
    const hashed = await hashCorpus(selection());
    const { documents } = await readCorpus(selection());
    assert.deepEqual(hashed.files, documents.map((d) => ({ file: d.file, contentHash: d.contentHash })));
    writeFileSync(path.join(corpus, 'faq.jsonl'), '{"id": "q1", "text": "Answer one, revised."}\n');
    const diff = diffManifest(first.manifest, (await hashCorpus(selection())).files);
    assert.deepEqual(diff.changed, [{ file: 'faq.jsonl', contentHash: diff.changed[0]?.contentHash }]);
    assert.equal(diff.unchanged.length, 6);
    const reread = await readCorpusDocument(corpus, 'faq.jsonl');
    assert.equal(reread.document?.text, 'Answer one, revised.');
    assert.equal(reread.document?.contentHash, diff.changed[0]?.contentHash);
  });

  it('a manifest of another chunker version re-chunks every file', async () => {
    const { manifest } = await build(undefined);
    const { documents } = await readCorpus(selection());
    const diff = diffManifest({ ...manifest, chunker: CHUNKER_VERSION - 1 }, documents);
    assert.equal(diff.changed.length, documents.length);
    assert.deepEqual(diff.removed, []);
  });
});

describe('manifest file', () => {
  it('written atomically and read back; none yet is no manifest; a damaged one says so', async () => {
    const { manifest } = await build(undefined);
    const file = path.join(root, 'index', 'manifest.json');
    mkdirSync(path.dirname(file), { recursive: true });
    assert.deepEqual(await readManifest(file), {});
    await writeManifest(file, manifest);
    assert.deepEqual(await readManifest(file), { manifest });
    assert.deepEqual(readdirSync(path.dirname(file)), ['manifest.json']);
    writeFileSync(file, '{"chunker": 1, "files": {"a.md": {"contentHash": 3}}}');
    assert.deepEqual(await readManifest(file), { damaged: 'has a bad entry for a.md' });
    writeFileSync(file, '{"chunker": 1, "fil');
    assert.match((await readManifest(file)).damaged ?? '', /is not JSON/);
  });
});
