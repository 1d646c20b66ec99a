// Haystack building: file order and patterns, repetition when short, a prefix when long, the cache, input errors.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { InputError } from '../../../src/core/errors.js';
import { HaystackError, globMatcher, haystackFiles, loadHaystack, tokenizeHaystack } from '../../../src/core/suites/needle/haystack.js';
import { buildCell } from '../../../src/core/suites/needle/insert.js';
import { needleSuite } from '../../../src/core/suites/needle/suite.js';
import { indexText, indexTokens } from '../../../src/core/suites/needle/tokenIndex.js';
import { haystackTokenizerFor } from '../../../src/core/suites/needle/tokenizer.js';
import type { HaystackTokenizer } from '../../../src/core/suites/needle/tokenizer.js';
import { PG_HAYSTACK, params } from './builders.js';

let dir: string;
const write = (name: string, text: string) => {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text, 'utf8');
  return file;
};

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'needle-haystack-'));
  write('b.txt', 'Second file. It follows the first, sentence after sentence.\n'.repeat(12));
  write('a.txt', 'First file. It comes first by name, and it says so again.\n'.repeat(12));
  write('notes.md', 'Not a txt file.\n');
  write('docs/guide/intro.md', 'Intro.\n');
  write('docs/guide/deep/more.md', 'More.\n');
  write('docs/top.md', 'Top.\n');
  write('empty/readme.md', 'Only markdown here.\n');
});
after(() => rmSync(dir, { recursive: true, force: true }));

const o200k = haystackTokenizerFor('openai:gpt-4o');

describe('haystack files', () => {
  it('a folder means its .txt files, sorted by path whatever the file system order', async () => {
    assert.deepEqual(await haystackFiles(dir), [path.join(dir, 'a.txt'), path.join(dir, 'b.txt')]);
  });

  it('a glob matches *, ** and ?; a plain file is itself', async () => {
    assert.deepEqual(await haystackFiles(path.join(dir, 'docs/**/*.md')), ['docs/guide/deep/more.md', 'docs/guide/intro.md', 'docs/top.md'].map((f) => path.join(dir, f)));
    assert.deepEqual(await haystackFiles(path.join(dir, 'docs/*.md')), [path.join(dir, 'docs/top.md')]);
    assert.deepEqual(await haystackFiles(path.join(dir, '?.txt')), [path.join(dir, 'a.txt'), path.join(dir, 'b.txt')]);
    assert.deepEqual(await haystackFiles(path.join(dir, 'notes.md')), [path.join(dir, 'notes.md')]);
    assert.ok(globMatcher('**/*.txt').test('x.txt') && globMatcher('**/*.txt').test('a/b/x.txt') && !globMatcher('*.txt').test('a/x.txt'));
  });

  it('a missing path is a HaystackError; the suite reports it on params.haystack', async () => {
    await assert.rejects(haystackFiles(path.join(dir, 'nowhere')), HaystackError);
    const specFile = path.join(dir, 'test.eval.yaml');
    await assert.rejects(needleSuite.generateCases!(params({ haystack: 'empty', contextLengths: [1000], depths: [50] }), { suiteId: 's', seed: 1, models: [], specFile }), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.match(error.message, /^needle params\.haystack: no \.txt files/);
      return true;
    });
  });
});

describe('tokenising the haystack', () => {
  it('a short haystack is repeated in whole passes (as the reference reads its folder again), encoded once', async () => {
    const files = await haystackFiles(dir);
    const pass = files.map((f) => readFileSync(f, 'utf8')).join('');
    let wholeEncodes = 0;
    const counting: HaystackTokenizer = { ...o200k, encode: (text) => {
      if (text.length >= pass.length) wholeEncodes++;
      return o200k.encode(text);
    } };
    const haystack = await tokenizeHaystack(files, counting, 1000, 'sentence');
    const passTokens = encode(pass);
    assert.ok(haystack.tokenCount >= 1000 && haystack.tokenCount < 1000 + passTokens.length);
    assert.equal(haystack.text, pass.repeat(haystack.text.length / pass.length));
    assert.deepEqual(encode(haystack.text), Array.from({ length: haystack.tokenCount }, (_, i) => passTokens[i % passTokens.length]), 'copied passes tokenise like the repeated text');
    assert.equal(wholeEncodes, 1, 'the pass once; the join is checked on a small window');
  });

  it('a long haystack is read and encoded only as far as the grid needs, and that prefix is exact', async () => {
    const files = readdirSync(PG_HAYSTACK).sort().map((f) => path.join(PG_HAYSTACK, f));
    const haystack = await tokenizeHaystack(files, o200k, 2000, 'sentence');
    const full = encode(files.map((f) => readFileSync(f, 'utf8')).join(''));
    assert.ok(haystack.tokenCount >= 2000 && haystack.tokenCount < full.length / 4, `kept ${haystack.tokenCount} of ${full.length}`);
    assert.deepEqual(encode(haystack.text), full.slice(0, haystack.tokenCount));
    assert.equal(haystack.starts[haystack.tokenCount], haystack.text.length);
  });

  it('two suites on the same files and tokenizer share one tokenised haystack', async () => {
    const files = await haystackFiles(dir);
    const first = await loadHaystack(files, o200k, 500, 'sentence');
    assert.equal(await loadHaystack(files, o200k, 400, 'sentence'), first);
    assert.notEqual(await loadHaystack(files, o200k, 400, 'period-token'), first, 'another boundary rule is another index');
    assert.notEqual(await loadHaystack(files, o200k, 5000, 'period-token'), first, 'a bigger grid tokenises again');
  });
});

describe('token-by-token decoding', () => {
  it('characters split across byte tokens get their text from the token that completes them; offsets stay exact', () => {
    const text = 'Tea. 🍵 Ünïcödé — 鯖 and 𝔘𝔫𝔦. Done.';
    const tokens = encode(text);
    const pieces: string[] = [];
    o200k.decodeChunks(tokens, (chunk, count) => {
      assert.equal(count, 1);
      pieces.push(chunk);
    });
    assert.equal(pieces.length, tokens.length);
    assert.ok(pieces.includes(''), 'the sample does split characters across tokens');
    assert.equal(pieces.join(''), text);
    const again: string[] = [];
    o200k.decodeChunks(tokens, (chunk) => again.push(chunk));
    assert.deepEqual(again, pieces, 'cached whole tokens give the same text the second time');

    const index = indexTokens(tokens, o200k, 'sentence');
    assert.equal(index.text, text);
    for (let i = 0; i <= tokens.length; i++) {
      const code = text.charCodeAt(index.starts[i]!);
      assert.ok(!(code >= 0xdc00 && code <= 0xdfff), `token ${i} starts inside a surrogate pair`);
    }
    const needle = indexText('[N]', o200k, 'sentence');
    const cell = buildCell(index, { contextLength: tokens.length + 3, depthPercent: 95, buffer: 0, needles: [needle] });
    assert.equal(cell.context, 'Tea. 🍵 Ünïcödé — 鯖 and 𝔘𝔫𝔦.[N] Done.', 'after the last sentence end before 95%, past the split characters');
  });
});
