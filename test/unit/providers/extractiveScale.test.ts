// The extractive baseline on long prompts: word segments are counted piece by piece (linear in the prompt's length)
// with the same counts as one pass over the whole text on the bundled examples and the real benchmark data.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { approximateTokens, termsOf } from '../../../src/core/providers/extractive.js';
import { mulberry32 } from '../../../src/core/random.js';
import { describeExit, runBoundedChild } from '../boundedChild.js';
import { PG_HAYSTACK, RGB_DATA } from '../testData.js';

const EXAMPLES = path.resolve(__dirname, '../../../examples');
const WORDS = new Intl.Segmenter(undefined, { granularity: 'word' });

/** What the counts were before: one Intl.Segmenter pass over the whole text. */
function wholeTextTokens(text: string): number {
  let count = 0;
  for (const segment of WORDS.segment(text)) if (segment.segment.trim() !== '') count += 1;
  return count;
}

function wholeTextTerms(text: string): string[] {
  const terms: string[] = [];
  for (const segment of WORDS.segment(text.normalize('NFKC').toLowerCase())) if (segment.isWordLike) terms.push(segment.segment);
  return terms;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(txt|md|jsonl|yaml|json)$/u.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Every string of a JSON value, joined by newlines as a prompt would list passages. */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

/** The texts a prompt is made of: each example file whole, each haystack essay whole, each RGB record's passages. */
function realTexts(): { name: string; text: string }[] {
  const texts = [...filesUnder(EXAMPLES), ...filesUnder(PG_HAYSTACK)].map((file) => ({ name: file, text: readFileSync(file, 'utf8') }));
  for (const file of filesUnder(RGB_DATA).filter((name) => name.endsWith('.json'))) {
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      if (line.trim()) texts.push({ name: `${file}:${index + 1}`, text: stringsOf(JSON.parse(line)).join('\n') });
    });
  }
  return texts;
}

describe('extractive baseline on long prompts', () => {
  it('counts the same tokens and terms as one pass over the whole text, on the examples and the real RGB and haystack data', () => {
    const texts = realTexts();
    assert.ok(texts.filter(({ text }) => text.length > 4 * 1024).length > 50, 'enough texts longer than a piece');
    const isTerm = new Map<string, boolean>();
    const termAlone = (term: string): boolean => {
      if (!isTerm.has(term)) isTerm.set(term, termsOf(term).length > 0);
      return isTerm.get(term) === true;
    };
    for (const { name, text } of texts) {
      assert.equal(approximateTokens(text), wholeTextTokens(text), name);
      // The stop words are dropped the same way on both sides: a segment alone is a term unless it is one.
      assert.deepEqual(termsOf(text), wholeTextTerms(text).filter(termAlone), name);
    }
  });

  it('counts the same tokens and terms as the segmenter on any ASCII text (read without it) and on text mixing in other scripts', () => {
    const random = mulberry32(29);
    // Every ASCII character, letters, digits and spaces more often (and those that may join a word: ' , . : ; _), and
    // characters the word rules treat specially: combining marks, joiners, other spaces, CJK, emoji, flags, Hebrew.
    const others = ['é', 'e\u0301', '\u0301', '\u200d', '\u200b', '\u00a0', '\u3000', '’', '文档', 'カタカナ', '👍', '🇫🇷', 'ש', '"', '\u2028'];
    const alphabet = [...Array.from({ length: 128 }, (_, code) => String.fromCharCode(code)), ...'aZ19  \n.,\':;_'.split(''), ...others];
    for (let n = 0; n < 50_000; n++) {
      let text = '';
      const length = 1 + Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      assert.equal(approximateTokens(text), wholeTextTokens(text), JSON.stringify(text));
      assert.deepEqual(termsOf(text), wholeTextTerms(text).filter((term) => termsOf(term).length > 0), JSON.stringify(text));
    }
  });

  it('answers a 1 MB prompt (killed after a generous bound if it slows down with length)', async () => {
    const code = `
      const { ExtractiveProvider } = require('./src/core/providers/extractive.ts');
      const essay = require('node:fs').readFileSync(${JSON.stringify(path.join(PG_HAYSTACK, 'worked.txt'))}, 'utf8');
      const context = essay.repeat(Math.ceil(1_048_576 / essay.length));
      const messages = [{ role: 'user', content: 'Document:\\n' + context + '\\n\\nQuestion:\\nWhat did the author work on before college?' }];
      new ExtractiveProvider().complete({ model: 'bm25', messages }, { signal: new AbortController().signal }).then((response) => {
        console.log(JSON.stringify({ length: context.length, inputTokens: response.usage.inputTokens, answered: response.text.length > 0 }));
      });
    `;
    const exit = await runBoundedChild(code, { heapMb: 512, timeoutMs: 180_000 });
    assert.equal(exit.code, 0, describeExit(exit));
    const result = JSON.parse(exit.stdout) as { length: number; inputTokens: number; answered: boolean };
    assert.ok(result.length >= 1_048_576);
    assert.ok(result.inputTokens > result.length / 10, 'tokens counted over the whole prompt');
    assert.ok(result.answered);
  });
});
