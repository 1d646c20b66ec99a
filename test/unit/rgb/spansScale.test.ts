// Answer spans of large passages: the searchable form costs a few bytes per character, and the spans are exactly those
// of the per-character reference on the real RGB data and on awkward text.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import type { DocumentRole, Span } from '../../../src/core/model.js';
import type { AnswerParts } from '../../../src/core/suites/rgb/rows.js';
import { documentSpans, responseSpans } from '../../../src/core/suites/rgb/spans.js';
import { describeExit, runBoundedChild } from '../boundedChild.js';
import { RGB_DATA } from '../testData.js';

const EXAMPLES_RGB = path.resolve(__dirname, '../../../examples/rgb');

/** The straightforward form: per-character arrays of original ranges, the text built a character at a time. */
function referenceNormalise(original: string, dropSpaces: boolean): { text: string; startOf: number[]; endOf: number[] } {
  const out = { text: '', startOf: [] as number[], endOf: [] as number[] };
  let index = 0;
  for (const char of original) {
    const start = index;
    index += char.length;
    if (dropSpaces && char === ' ') continue;
    const lowered = char.toLowerCase();
    out.text += lowered;
    for (let k = 0; k < lowered.length; k++) {
      out.startOf.push(start);
      out.endOf.push(index);
    }
  }
  return out;
}

function referenceSpans(original: string, dropSpaces: boolean, alternatives: Iterable<string>, kind: Span['kind']): Span[] {
  const haystack = referenceNormalise(original, dropSpaces);
  const spans: Span[] = [];
  for (const alternative of new Set(alternatives)) {
    const needle = referenceNormalise(alternative, false).text;
    if (needle.length === 0) continue;
    for (let at = haystack.text.indexOf(needle); at !== -1; at = haystack.text.indexOf(needle, at + needle.length)) {
      const start = haystack.startOf[at] as number;
      const end = haystack.endOf[at + needle.length - 1] as number;
      spans.push({ kind, start, end, text: original.slice(start, end), label: alternative });
    }
  }
  return spans;
}

const byPosition = (a: Span, b: Span): number => a.start - b.start || a.end - b.end;

function referenceDocumentSpans(text: string, role: DocumentRole, answer: AnswerParts, fake?: AnswerParts): Span[] {
  const spans = referenceSpans(text, false, answer.flat(), 'answer');
  if (role === 'counterfactual' && fake) spans.push(...referenceSpans(text, false, fake.flat(), 'counterfactual'));
  return spans.sort(byPosition);
}

function referenceResponseSpans(response: string, answer: AnswerParts, language: 'en' | 'zh', fake?: AnswerParts): Span[] {
  const spans = referenceSpans(response, language === 'zh', answer.flat(), 'answer');
  if (fake) spans.push(...referenceSpans(response, language === 'zh', fake.flat(), 'counterfactual'));
  return spans.sort(byPosition);
}

function answerParts(value: unknown): AnswerParts | undefined {
  if (typeof value === 'string') return [[value]];
  if (!Array.isArray(value)) return undefined;
  return value.map((part) => (Array.isArray(part) ? part.map(String) : [String(part)]));
}

const strings = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.flatMap(strings) : []);

interface Checked {
  name: string;
  language: 'en' | 'zh';
  answer: AnswerParts;
  fake?: AnswerParts;
  passages: { role: DocumentRole; text: string }[];
}

function realRows(): Checked[] {
  const files = [
    ...['en_fact.json', 'zh_fact.json', 'zh_refine.sample60.json'].map((name) => path.join(RGB_DATA, name)),
    ...['en.jsonl', 'en_int.jsonl', 'en_fact.jsonl', 'zh.jsonl'].map((name) => path.join(EXAMPLES_RGB, name)),
  ];
  const rows: Checked[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8').split('\n').forEach((line, index) => {
      if (!line.trim()) return;
      const row = JSON.parse(line) as Record<string, unknown>;
      const answer = answerParts(row.answer);
      if (!answer) return;
      rows.push({
        name: `${path.basename(file)}:${index + 1}`,
        language: path.basename(file).startsWith('zh') ? 'zh' : 'en',
        answer,
        fake: answerParts(row.fakeanswer),
        passages: [
          ...strings(row.positive).map((text) => ({ role: 'positive' as const, text })),
          ...strings(row.negative).map((text) => ({ role: 'negative' as const, text })),
          ...strings(row.positive_wrong).map((text) => ({ role: 'counterfactual' as const, text })),
        ],
      });
    });
  }
  return rows;
}

describe('answer spans of large passages', () => {
  it('are those of the per-character reference on every passage of the real RGB data, as documents and as responses', () => {
    const rows = realRows();
    assert.ok(rows.length > 300);
    let found = 0;
    for (const row of rows) {
      for (const [i, { role, text }] of row.passages.entries()) {
        const spans = documentSpans(text, role, row.answer, row.fake);
        found += spans.length;
        assert.deepEqual(spans, referenceDocumentSpans(text, role, row.answer, row.fake), `${row.name} passage ${i}`);
        assert.deepEqual(responseSpans(text, row.answer, row.language, row.fake), referenceResponseSpans(text, row.answer, row.language, row.fake), `${row.name} passage ${i} as a response`);
      }
    }
    assert.ok(found > 1000, `${found} spans found`);
  });

  it('are those of the reference on text whose lowercase changes length, astral characters, lone surrogates and spaces', () => {
    const text = 'İSTANBUL İstanbul ΟΔΟΣ οδος 𝔸𝔹 \ud800x \udc00 Paris 🗼 PARIS  186.35 万 ';
    const answer: AnswerParts = [['i̇stanbul', 'ΟΔΟΣ', 'οδοσ'], ['paris'], ['𝔸𝔹'], ['\ud800x'], ['186.35万']];
    for (const language of ['en', 'zh'] as const) {
      assert.deepEqual(responseSpans(text, answer, language), referenceResponseSpans(text, answer, language), language);
    }
    assert.deepEqual(documentSpans(text, 'counterfactual', answer, [['x']]), referenceDocumentSpans(text, 'counterfactual', answer, [['x']]));
    assert.ok(responseSpans(text, answer, 'zh').length >= 6);
  });

  it('of a 10 MB passage fit in a 512 MB heap, as a document and as a zh response', async () => {
    const code = `
      const { documentSpans, responseSpans } = require('./src/core/suites/rgb/spans.ts');
      const block = 'The Parliament of Australia sits in Canberra, chosen over Sydney and Melbourne. 澳大利亚的首都是 堪培拉。\\n';
      const passage = block.repeat(Math.ceil(10_485_760 / block.length));
      const answer = [['Canberra', '堪培拉'], ['Australia']];
      const asDocument = documentSpans(passage, 'counterfactual', answer, [['Sydney']]).length;
      const asResponse = responseSpans(passage, answer, 'zh', [['首都是堪培拉']]).length;
      console.log(JSON.stringify({ length: passage.length, blocks: Math.ceil(10_485_760 / block.length), asDocument, asResponse }));
    `;
    const exit = await runBoundedChild(code, { heapMb: 512, timeoutMs: 300_000 });
    assert.equal(exit.code, 0, describeExit(exit));
    const result = JSON.parse(exit.stdout) as { length: number; blocks: number; asDocument: number; asResponse: number };
    assert.ok(result.length >= 10_485_760);
    assert.equal(result.asDocument, 4 * result.blocks);
    assert.equal(result.asResponse, 4 * result.blocks);
  });
});
