// Reading a corpus folder: which files (globs, hidden folders, links), in what order, with what hash; HTML as text
// whose chunks name the source lines they came from; JSONL documents with a bad line said and the others read.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chunkDocument } from '../../../src/core/corpus/chunker.js';
import type { CorpusDocument } from '../../../src/core/corpus/contract.js';
import { expandBraces, listCorpusFiles, readCorpus } from '../../../src/core/corpus/documents.js';
import { htmlText } from '../../../src/core/corpus/html.js';
import { InputError } from '../../../src/core/errors.js';
import { tokenizerFor } from '../../../src/core/prompt/tokens.js';

const o200k = tokenizerFor('openai:gpt-4o');
let root: string;
let folder: string;
const write = (name: string, content: string | Buffer) => {
  const file = path.join(folder, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};
const selection = (include: string[] = [], exclude: string[] = []) => ({ folder, include, exclude });

const PAGE = [
  '<!doctype html>',
  '<html>',
  '<head><title>Ignored title</title>',
  '<style>body { color: red }</style>',
  '<script>var hidden = "never shown";</script>',
  '</head>',
  '<body>',
  '<h1>Tide tables</h1>',
  '<p>The harbour &amp; the   estuary',
  '   flood twice a day.</p>',
  '<!-- a comment is not text -->',
  '<h2>Spring tides</h2>',
  '<p>At new and full moon the range is largest;',
  'neap tides come between.</p>',
  '<ul><li>High water: 06:12</li>',
  '<li>Low water: 12:25</li></ul>',
  '<pre>station  height',
  'A        4.2 m</pre>',
  '<p>Caf&eacute; by the quay &mdash; open daily.</p>',
  '</body>',
  '</html>',
  '',
].join('\n');

before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'corpus-documents-'));
  folder = path.join(root, 'corpus');
  mkdirSync(folder);
  write('b.md', '# B\n\nSecond by name.\n');
  write('a.txt', 'First by name.\n');
  write('guide/intro.markdown', '# Intro\n');
  write('guide/page.html', PAGE);
  write('guide/old.htm', '<p>Old page.</p>');
  write('notes.csv', 'not,a,document\n');
  write('.rag-inspector/index/abc/chunks.jsonl', '{"text": "an index of our own"}\n');
  write('.git/HEAD', 'ref: refs/heads/main\n');
  write('node_modules/pkg/readme.md', '# vendored\n');
  write('drafts/wip.md', '# Draft\n');
  write('docs.jsonl', [
    '{"id": "tides-1", "title": "Tide basics", "text": "Tides rise and fall twice a day."}',
    '{"id": "tides-2", "text": "Spring tides follow new and full moons."',
    '',
    '{"id": null, "text": "No id here, still a document."}',
    '["not", "an", "object"]',
    '{"id": "tides-1", "text": "A second document with the first one\'s id."}',
    '{"id": 7, "title": "Numbers", "text": "Ids may be numbers."}',
    '{"title": "No text"}',
  ].join('\n'));
  writeFileSync(path.join(root, 'outside.md'), '# Outside the corpus\n');
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('which files are documents', () => {
  it('the default globs, sorted by path; hidden folders and node_modules are not walked', async () => {
    const { files, problems } = await listCorpusFiles(selection());
    assert.deepEqual(problems, []);
    assert.deepEqual(files, ['a.txt', 'b.md', 'docs.jsonl', 'drafts/wip.md', 'guide/intro.markdown', 'guide/old.htm', 'guide/page.html']);
  });

  it('include and exclude globs relative to the folder, braces expanded', async () => {
    assert.deepEqual(expandBraces('**/*.{md,markdown}'), ['**/*.md', '**/*.markdown']);
    const { files } = await listCorpusFiles(selection(['**/*.{md,markdown}', './*.txt'], ['drafts/**']));
    assert.deepEqual(files, ['a.txt', 'b.md', 'guide/intro.markdown']);
  });

  it('a link inside the folder is read under its own name; one leaving the folder is refused, the rest still read', async () => {
    const linked = path.join(folder, 'linked');
    mkdirSync(linked);
    try {
      symlinkSync(path.join(folder, 'b.md'), path.join(linked, 'same-as-b.md'));
      symlinkSync(path.join(root, 'outside.md'), path.join(linked, 'escape.md'));
      symlinkSync(root, path.join(linked, 'up'));
      const read = await readCorpus(selection(['linked/**']));
      assert.deepEqual(read.documents.map((d) => d.file), ['linked/same-as-b.md']);
      assert.equal(read.documents[0]?.text, '# B\n\nSecond by name.\n');
      const messages = read.problems.map((p) => p.format()).sort();
      assert.equal(messages.length, 2);
      assert.match(messages[0] as string, /linked\/escape\.md: is a link to .*outside\.md, outside the corpus folder: not read/);
      assert.match(messages[1] as string, /linked\/up: is a link to .*, outside the corpus folder/);
    } finally {
      rmSync(linked, { recursive: true, force: true });
    }
  });

  it('a named pipe or a file that is not UTF-8 is said, and the other files are read', async () => {
    const odd = path.join(folder, 'odd');
    mkdirSync(odd);
    try {
      execFileSync('mkfifo', [path.join(odd, 'pipe.md')]);
      writeFileSync(path.join(odd, 'latin1.txt'), Buffer.from('first line\ncaf\xe9\n', 'latin1'));
      writeFileSync(path.join(odd, 'good.md'), 'Good.\n');
      const read = await readCorpus(selection(['odd/*']));
      assert.deepEqual(read.documents.map((d) => d.file), ['odd/good.md']);
      const messages = read.problems.map((p) => p.format()).sort();
      assert.match(messages[0] as string, /odd\/latin1\.txt:2: file is not UTF-8 — re-save it as UTF-8/);
      assert.match(messages[1] as string, /odd\/pipe\.md: the file is a named pipe, not a file/);
    } finally {
      rmSync(odd, { recursive: true, force: true });
    }
  });

  it('reports progress file by file, and stops when cancelled', async () => {
    const seen: string[] = [];
    await readCorpus(selection(['*.md', '*.txt']), { onProgress: (p) => seen.push(`${p.done}/${p.total}${p.file ? ` ${p.file}` : ''}`) });
    assert.deepEqual(seen, ['0/2 a.txt', '1/2 b.md', '2/2']);
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(readCorpus(selection(), { signal: controller.signal }), { name: 'AbortError' });
  });

  it('a missing folder or one selecting nothing is an error, not an empty corpus', async () => {
    await assert.rejects(readCorpus({ folder: path.join(root, 'nope'), include: [], exclude: [] }), (error: unknown) => error instanceof InputError && /does not exist/.test(error.message));
    await assert.rejects(readCorpus(selection(['**/*.pdf'])), (error: unknown) => error instanceof InputError && /no file in the corpus folder matches \*\*\/\*\.pdf/.test(error.message));
  });
});

describe('documents', () => {
  it('Markdown and text as written, with the sha256 of the bytes; the same order on every read', async () => {
    const first = await readCorpus(selection(['*.md', '*.txt']));
    const again = await readCorpus(selection(['*.md', '*.txt']));
    assert.deepEqual(first, again);
    const b = first.documents.find((d) => d.file === 'b.md') as CorpusDocument;
    assert.equal(b.text, '# B\n\nSecond by name.\n');
    assert.equal(b.contentHash, createHash('sha256').update(readFileSync(path.join(folder, 'b.md'))).digest('hex'));
    assert.equal(b.extracted, undefined);
  });

  it('HTML: the readable text only, headings as Markdown headings', () => {
    const { text } = htmlText(PAGE);
    assert.equal(text, [
      '# Tide tables',
      '',
      'The harbour & the estuary flood twice a day.',
      '',
      '## Spring tides',
      '',
      'At new and full moon the range is largest; neap tides come between.',
      '',
      'High water: 06:12',
      'Low water: 12:25',
      '',
      'station  height',
      'A        4.2 m',
      '',
      'Café by the quay — open daily.',
    ].join('\n'));
  });

  it('HTML: every chunk names the source lines its text came from', async () => {
    const { documents } = await readCorpus(selection(['guide/page.html']));
    const page = documents[0] as CorpusDocument;
    const sourceLines = PAGE.split('\n');
    for (const size of [1, 2, 3, 5, 8, 13, 40]) {
      for (const by of ['tokens', 'heading'] as const) {
        const chunks = chunkDocument(page, { by, size, overlap: Math.floor(size / 3) }, o200k);
        assert.ok(chunks.length > 0);
        for (const chunk of chunks) {
          assert.equal(chunk.text, page.text.slice(chunk.startChar, chunk.endChar));
          // Each word of the chunk (entities decoded, heading marks aside) is on one of the lines it names, in order.
          const source = sourceLines.slice(chunk.startLine - 1, chunk.endLine).join('\n').replace(/&amp;/g, '&').replace(/&eacute;/g, 'é').replace(/&mdash;/g, '—');
          let from = 0;
          for (const word of chunk.text.split(/\s+/).filter((w) => w !== '' && !/^#+$/.test(w))) {
            const at = source.indexOf(word, from);
            assert.ok(at >= 0, `${by} ${size}: "${word}" of ${JSON.stringify(chunk.text)} is not on lines ${chunk.startLine}–${chunk.endLine}`);
            from = at + word.length;
          }
        }
      }
    }
    // And precisely: the second paragraph spans source lines 13–14, the list items are on 15 and 16.
    const byHeading = chunkDocument(page, { by: 'heading', size: 200, overlap: 0 }, o200k);
    assert.deepEqual(byHeading.map((c) => [c.heading, c.startLine, c.endLine]), [['Tide tables', 8, 10], ['Tide tables › Spring tides', 12, 19]]);
    const small = chunkDocument(page, { by: 'tokens', size: 4, overlap: 0 }, o200k);
    // A word's chunk names its line: "Low water" is on 16, "neap" on 14, "quay" (after an entity) on 19.
    for (const [word, line] of [['Low water', 16], ['neap', 14], ['quay', 19]] as const) {
      const holding = small.filter((c) => c.text.includes(word));
      assert.equal(holding.length, 1, word);
      assert.ok((holding[0]?.startLine as number) <= line && (holding[0]?.endLine as number) >= line && (holding[0]?.endLine as number) - (holding[0]?.startLine as number) <= 1, `${word}: ${JSON.stringify(holding[0])}`);
    }
  });

  it('JSONL: one document per line; a bad line is said with file:line and how to fix it, the others are read', async () => {
    const { documents, problems } = await readCorpus(selection(['docs.jsonl']));
    const jsonl = documents[0] as CorpusDocument;
    assert.equal(jsonl.file, 'docs.jsonl');
    assert.deepEqual(jsonl.extracted?.records?.map((r) => [r.line, r.id, r.title, jsonl.text.slice(r.start, r.end)]), [
      [1, 'tides-1', 'Tide basics', 'Tide basics\n\nTides rise and fall twice a day.'],
      [4, undefined, undefined, 'No id here, still a document.'],
      [7, '7', 'Numbers', 'Numbers\n\nIds may be numbers.'],
    ]);
    const file = path.join(folder, 'docs.jsonl');
    assert.deepEqual(problems.map((p) => [p.position.file, p.position.line]), [[file, 2], [file, 5], [file, 6], [file, 8]]);
    assert.match(problems[0]?.format() ?? '', /docs\.jsonl:2:\d+: invalid JSON: .* — each line is one document: \{"id": "…", "text": "…", "title": "…"\}/);
    assert.match(problems[1]?.message ?? '', /not a JSON object/);
    assert.match(problems[2]?.format() ?? '', /id "tides-1" is already used on line 1 — give each document its own id/);
    assert.match(problems[3]?.message ?? '', /has no "text"/);
  });

  it('JSONL: a chunk never crosses two documents, names its line and takes the title as its heading', async () => {
    const { documents } = await readCorpus(selection(['docs.jsonl']));
    const jsonl = documents[0] as CorpusDocument;
    for (const by of ['tokens', 'heading'] as const) {
      for (const size of [2, 5, 200]) {
        const chunks = chunkDocument(jsonl, { by, size, overlap: 1 }, o200k);
        for (const chunk of chunks) {
          const record = jsonl.extracted?.records?.find((r) => chunk.startChar >= r.start && chunk.endChar <= r.end);
          assert.ok(record, `${chunk.id} lies within one document`);
          assert.equal(chunk.startLine, record.line);
          assert.equal(chunk.endLine, record.line);
          assert.equal(chunk.heading, record.title ?? record.id);
        }
        if (size === 200) assert.equal(chunks.length, 3);
      }
    }
  });
});
