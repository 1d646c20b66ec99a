// Chunking: every chunk is the exact slice of the document its range names, with the right lines and token count,
// over many sizes and overlaps on real text; heading paths; overlap; Chinese and Japanese text cut between characters.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { chunkDocument, checkChunking } from '../../../src/core/corpus/chunker.js';
import type { Chunk, CorpusDocument } from '../../../src/core/corpus/contract.js';
import { markdownSections } from '../../../src/core/corpus/markdownSections.js';
import { tokenOffsets } from '../../../src/core/corpus/tokenOffsets.js';
import { positionAt } from '../../../src/core/data/textPosition.js';
import { tokenizerFor } from '../../../src/core/prompt/tokens.js';
import type { Tokenizer } from '../../../src/core/prompt/tokens.js';
import type { ChunkingSpec } from '../../../src/core/retrieval/indexSpec.js';

const o200k = tokenizerFor('openai:gpt-4o');
const cl100k = tokenizerFor('openai:gpt-4');

/**
 * A byte-level tokenizer (a token per UTF-8 byte) whose decoder is not streaming: a lone byte of a multi-byte
 * character decodes to U+FFFD, as many tokenizers' decoders do (gpt-tokenizer's gives '' and completes it later).
 */
const bytes: Tokenizer = {
  name: 'o200k_base',
  approximate: true,
  encode: (text) => [...Buffer.from(text, 'utf8')],
  decode: (tokens) => Buffer.from(tokens).toString('utf8'),
  count: (text) => Buffer.byteLength(text, 'utf8'),
};

const REPO = path.resolve(__dirname, '../../..');
const realMarkdown = readFileSync(path.join(REPO, 'ARCHITECTURE.md'), 'utf8').slice(0, 6_000);

// Written for this test: Chinese and Japanese prose with characters outside the BMP (𠮷, 𩸽), rare ones BPE splits
// into several tokens (鬱, 龘, 齉), emoji sequences (a family joined by ZWJ, a skin tone, a flag) and a combining mark.
const CJK = [
  '# 森の記録',
  '',
  '鬱蒼とした森の奥で、𠮷田さんは古い地図を広げた。𩸽の干物を焼く匂いが漂ってくる。👨‍👩‍👧 家族で来た登山者が道を尋ねた。',
  '「この先に龘という字の看板があります」と彼女は答えた。👍🏽 ありがとう！',
  '',
  '## 中文段落',
  '',
  '在遥远的山谷里，有一座古老的图书馆。馆长每天清晨都会打开窗户，让阳光照进书架之间。齉鼻子的学徒在角落里抄写经文。🇯🇵🇨🇳 国旗挂在门口。',
  '他说：“知识就像河流，永远不会停止。”Café au lait は e\u0301 と書くこともある。',
  '',
].join('\n');

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STARTS_INSIDE_CHARACTER = /^[\p{M}\u200D\u{1F3FB}-\u{1F3FF}]/u;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemes = (text: string) => [...segmenter.segment(text)].length;

const doc = (text: string, file = 'docs/guide.md'): CorpusDocument => ({ file, text, contentHash: 'test' });

/** Everything a chunk list must satisfy, whatever the settings. */
function assertChunksExact(document: CorpusDocument, chunks: Chunk[], chunking: ChunkingSpec, tokenizer: Tokenizer, label: string): void {
  let previous: Chunk | undefined;
  const boundaries = [...tokenOffsets(document.text, tokenizer).starts];
  // The line of every character, counted one by one (positionAt for each chunk is quadratic over thousands of chunks).
  const lineAt = new Int32Array(document.text.length);
  for (let i = 0, line = 1; i < document.text.length; i++) {
    lineAt[i] = line;
    if (document.text[i] === '\n') line++;
  }
  assert.equal(lineAt[document.text.length - 1], positionAt(document.text, document.text.length - 1).line);
  for (const chunk of chunks) {
    const where = `${label} ${chunk.id}`;
    assert.equal(chunk.text, document.text.slice(chunk.startChar, chunk.endChar), where);
    assert.equal(chunk.id, `${document.file}#${chunk.startChar}-${chunk.endChar}`, where);
    assert.equal(chunk.file, document.file);
    assert.equal(chunk.startLine, lineAt[chunk.startChar], where);
    assert.equal(chunk.endLine, lineAt[chunk.endChar - 1], where);
    assert.equal(chunk.tokens, tokenizer.count(chunk.text), where);
    assert.ok(chunk.text.trim() === chunk.text && chunk.text !== '', `${where}: no blank ends`);
    assert.ok(!LONE_SURROGATE.test(chunk.text), `${where}: no half of a surrogate pair`);
    assert.ok(!STARTS_INSIDE_CHARACTER.test(chunk.text), `${where}: does not start inside a character`);
    // Over the size only when nothing smaller can be cut: one character as a reader sees it, or one token of the text
    // that takes more once the space before it is left out (" distract" is one token, "distract" three).
    if (chunk.tokens > chunking.size) {
      const inside = boundaries.filter((at) => at > chunk.startChar && at < chunk.endChar);
      assert.ok(graphemes(chunk.text) === 1 || inside.length === 0, `${where}: ${chunk.tokens} tokens > ${chunking.size}`);
    }
    if (previous) {
      assert.ok(chunk.startChar > previous.startChar && chunk.endChar > previous.endChar, `${where}: in order, each adding text`);
      if (chunking.overlap === 0 && chunking.by === 'tokens') assert.ok(chunk.startChar >= previous.endChar, `${where}: no overlap asked, none given`);
    }
    previous = chunk;
  }
  // Nothing lost: every non-blank character is in some chunk.
  const covered = new Uint8Array(document.text.length);
  for (const chunk of chunks) covered.fill(1, chunk.startChar, chunk.endChar);
  for (let i = 0; i < document.text.length; i++) {
    if (!covered[i] && /\S/.test(document.text[i] as string)) assert.fail(`${label}: character ${i} (${JSON.stringify(document.text.slice(i, i + 20))}) is in no chunk`);
  }
}

describe('chunk ranges map back to the exact source text', () => {
  const sizes = [1, 2, 3, 5, 8, 13, 21, 34, 64, 100, 256, 512];
  for (const by of ['tokens', 'heading'] as const) {
    it(`by ${by}: real Markdown, ${sizes.length} sizes × 4 overlaps, two encodings`, () => {
      for (const tokenizer of [o200k, cl100k]) {
        for (const size of sizes) {
          for (const overlap of [...new Set([0, 1, Math.floor(size / 4), size - 1])].filter((o) => o < size)) {
            const chunking = { by, size, overlap };
            const document = doc(realMarkdown, 'ARCHITECTURE.md');
            const chunks = chunkDocument(document, chunking, tokenizer);
            assert.ok(chunks.length > 0);
            assertChunksExact(document, chunks, chunking, tokenizer, `${tokenizer.name} ${by} ${size}/${overlap}`);
          }
        }
      }
    });
  }

  it('Chinese and Japanese text with emoji and characters outside the BMP: never half a character', () => {
    for (const tokenizer of [o200k, cl100k, bytes]) {
      for (const by of ['tokens', 'heading'] as const) {
        for (let size = 1; size <= 40; size++) {
          for (const overlap of [0, Math.floor(size / 3), size - 1]) {
            const document = doc(CJK, '日本語/森.md');
            const chunks = chunkDocument(document, { by, size, overlap }, tokenizer);
            assertChunksExact(document, chunks, { by, size, overlap }, tokenizer, `${tokenizer === bytes ? 'bytes' : tokenizer.name} ${by} ${size}/${overlap}`);
          }
        }
      }
    }
  });

  it('CRLF line ends count lines the same', () => {
    const text = realMarkdown.slice(0, 3000).replace(/\n/g, '\r\n');
    const document = doc(text);
    assertChunksExact(document, chunkDocument(document, { by: 'tokens', size: 40, overlap: 8 }, o200k), { by: 'tokens', size: 40, overlap: 8 }, o200k, 'crlf');
  });
});

describe('where chunks are cut', () => {
  const english = 'The quick brown fox jumps over the lazy dog. Interoperability considerations notwithstanding, extraordinarily long words appear. '.repeat(30);

  it('ends chunks between words, not inside one', () => {
    for (const size of [16, 24, 50, 100]) {
      const chunks = chunkDocument(doc(english), { by: 'tokens', size, overlap: Math.floor(size / 4) }, o200k);
      for (const chunk of chunks) {
        // Ends after a word (or its punctuation) with a space or the end after it; starts at a word after a space.
        assert.match(english.slice(chunk.endChar, chunk.endChar + 1), /^\s?$/, `size ${size}: ${chunk.id} ends inside a word: …${english.slice(chunk.endChar - 10, chunk.endChar + 10)}`);
        assert.match(english.slice(Math.max(0, chunk.startChar - 1), chunk.startChar + 1), /^\s?\w$/, `size ${size}: ${chunk.id} starts inside a word: ${english.slice(chunk.startChar - 10, chunk.startChar + 10)}…`);
      }
    }
  });

  it('prefers a paragraph break near the size limit', () => {
    const paragraph = 'One short sentence here. ';
    const text = `${paragraph.repeat(6).trim()}\n\n${paragraph.repeat(6).trim()}`;
    const firstParagraphTokens = o200k.count(paragraph.repeat(6).trim());
    const chunks = chunkDocument(doc(text), { by: 'tokens', size: firstParagraphTokens + 3, overlap: 0 }, o200k);
    assert.equal(chunks[0]?.text, paragraph.repeat(6).trim());
  });

  it('consecutive chunks share about `overlap` tokens', () => {
    const overlap = 10;
    const chunks = chunkDocument(doc(english), { by: 'tokens', size: 40, overlap }, o200k);
    assert.ok(chunks.length > 5);
    for (let i = 1; i < chunks.length; i++) {
      const [a, b] = [chunks[i - 1] as Chunk, chunks[i] as Chunk];
      assert.ok(b.startChar < a.endChar, `${b.id} overlaps ${a.id}`);
      const shared = o200k.count(english.slice(b.startChar, a.endChar));
      assert.ok(shared >= overlap - 1 && shared <= overlap + 10, `${b.id}: ${shared} tokens shared, ${overlap} asked`);
    }
  });

  it('a document that fits is one chunk, trimmed; a blank one gives none', () => {
    const chunks = chunkDocument(doc('\n\n  Just this.  \n'), { by: 'tokens', size: 100, overlap: 0 }, o200k);
    assert.deepEqual(chunks.map((c) => [c.text, c.startChar, c.startLine]), [['Just this.', 4, 3]]);
    assert.deepEqual(chunkDocument(doc(' \n\t\n'), { by: 'tokens', size: 100, overlap: 0 }, o200k), []);
  });

  it('refuses settings no chunking can honour', () => {
    assert.throws(() => checkChunking({ by: 'tokens', size: 0, overlap: 0 }), /size/);
    assert.throws(() => checkChunking({ by: 'tokens', size: 10, overlap: 10 }), /overlap/);
    assert.throws(() => chunkDocument(doc('x'), { by: 'tokens', size: 10, overlap: -1 }, o200k), /overlap/);
  });
});

describe('by Markdown heading', () => {
  const markdown = [
    '---',
    'title: front matter',
    '---',
    'Intro before any heading.',
    '',
    '# Install',
    '',
    'Get it.',
    '',
    '## Linux',
    '',
    '```sh',
    '# not a heading: a comment in code',
    'apt-get install thing',
    '```',
    '',
    '### Debian ###',
    'Use apt.',
    '',
    '## macOS',
    'Use brew.',
    '',
    'Usage',
    '=====',
    '',
    'Run it.',
    '#hashtag is not a heading',
  ].join('\n');

  it('gives each section its heading path', () => {
    const chunks = chunkDocument(doc(markdown), { by: 'heading', size: 200, overlap: 0 }, o200k);
    assert.deepEqual(chunks.map((c) => [c.heading, c.text.split('\n')[0], c.startLine]), [
      [undefined, '---', 1],
      ['Install', '# Install', 6],
      ['Install › Linux', '## Linux', 10],
      ['Install › Linux › Debian', '### Debian ###', 17],
      ['Install › macOS', '## macOS', 20],
      ['Usage', 'Usage', 23],
    ]);
    assert.match(chunks[2]?.text ?? '', /# not a heading/);
    assert.match(chunks.at(-1)?.text ?? '', /#hashtag is not a heading$/);
  });

  it('cuts a section longer than the size like by tokens, each piece keeping the path', () => {
    const long = `# Guide\n\n## Big\n\n${'A sentence of the big section. '.repeat(40)}\n\n## Small\n\nTiny.`;
    const chunks = chunkDocument(doc(long), { by: 'heading', size: 30, overlap: 5 }, o200k);
    const big = chunks.filter((c) => c.heading === 'Guide › Big');
    assert.ok(big.length > 3);
    assert.ok(big.every((c) => c.tokens <= 30));
    assert.equal(chunks.at(-1)?.heading, 'Guide › Small');
    assert.equal(chunks.at(-1)?.text, '## Small\n\nTiny.');
    // A section's chunks stay inside it: none reaches into the next heading.
    assert.ok(big.every((c) => !c.text.includes('## Small')));
  });

  it('sections cover the text, in order', () => {
    const sections = markdownSections(markdown);
    assert.equal(sections[0]?.start, 0);
    assert.equal(sections.at(-1)?.end, markdown.length);
    for (let i = 1; i < sections.length; i++) assert.equal(sections[i]?.start, sections[i - 1]?.end);
  });
});

describe('token offsets', () => {
  it('a partial character left in the shared decoder by another caller does not shift them', () => {
    for (const tokenizer of [o200k, cl100k]) {
      const [firstByte] = tokenizer.encode('鬱');
      assert.equal(tokenizer.decode([firstByte as number]), '', 'the decoder now holds half a character');
      const document = doc('Hello 鬱蒼とした森 world');
      const chunks = chunkDocument(document, { by: 'tokens', size: 2, overlap: 0 }, tokenizer);
      assertChunksExact(document, chunks, { by: 'tokens', size: 2, overlap: 0 }, tokenizer, tokenizer.name);
    }
  });

  it('every token start is a character boundary, and the starts rebuild the text', () => {
    for (const tokenizer of [o200k, cl100k, bytes]) {
      const { tokens, starts } = tokenOffsets(CJK, tokenizer);
      assert.equal(starts.length, tokens.length + 1);
      assert.equal(starts[tokens.length], CJK.length);
      for (let i = 1; i <= tokens.length; i++) {
        assert.ok((starts[i] as number) >= (starts[i - 1] as number));
        const at = starts[i] as number;
        const code = CJK.charCodeAt(at);
        assert.ok(!(code >= 0xdc00 && code <= 0xdfff), `${tokenizer.name}: token ${i} starts inside a surrogate pair`);
      }
    }
  });
});
