// Answer spans in documents and responses: exact offsets, case-insensitive like the scorer, zh spaces in responses only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../../src/core/model.js';
import { documentSpans, responseSpans } from '../../../src/core/suites/rgb/spans.js';
import { build, find, params, score } from './builders.js';

function assertExact(text: string, spans: readonly Span[]): void {
  for (const span of spans) assert.equal(text.slice(span.start, span.end), span.text);
}

describe('document spans', () => {
  it('every occurrence of every alternative, in any case, at exact UTF-16 offsets', () => {
    const text = 'Neil ARMSTRONG landed; later neil armstrong said: Armstrong.';
    const spans = documentSpans(text, 'positive', [['Neil Armstrong', 'Armstrong']]);
    assertExact(text, spans);
    assert.deepEqual(spans.map((s) => [s.start, s.end, s.label]), [
      [0, 14, 'Neil Armstrong'], [5, 14, 'Armstrong'], [29, 43, 'Neil Armstrong'], [34, 43, 'Armstrong'], [50, 59, 'Armstrong'],
    ]);
    assert.ok(spans.every((s) => s.kind === 'answer'));
  });

  it('counts UTF-16 units past astral characters and length-changing lowercase', () => {
    const text = '𝔸 İstanbul, then Paris 🗼 Paris';
    const spans = documentSpans(text, 'positive', [['paris'], ['İstanbul']]);
    assertExact(text, spans);
    assert.deepEqual(spans.map((s) => s.text), ['İstanbul', 'Paris', 'Paris']);
  });

  it('the fake answer is marked only in counterfactual passages', () => {
    const text = 'Held in Glendale, Arizona, not Tampa, Florida.';
    const cf = documentSpans(text, 'counterfactual', [['Tampa, Florida']], [['Glendale, Arizona']]);
    assert.deepEqual(cf.map((s) => [s.kind, s.text]), [['counterfactual', 'Glendale, Arizona'], ['answer', 'Tampa, Florida']]);
    const neg = documentSpans(text, 'negative', [['Tampa, Florida']], [['Glendale, Arizona']]);
    assert.deepEqual(neg.map((s) => s.kind), ['answer']);
  });

  it('zh documents are matched as they are: a spaced number is not the answer', () => {
    const text = '比亚迪交付186.35 万辆，另一说186.35万辆。';
    const spans = documentSpans(text, 'positive', [['186.35万']]);
    assertExact(text, spans);
    assert.deepEqual(spans.map((s) => s.text), ['186.35万']);
  });

  it('built cases carry spans that land on their document text', () => {
    const cases = build({ id: 1, query: 'q', answer: [['1313851', '131万']], positive: ['交付1313851辆，约131万辆'], negative: ['无关'] }, { testbed: 'noise_robustness', language: 'zh', noiseRates: [0] });
    const doc = cases[0]!.documents.find((d) => d.role === 'positive')!;
    assertExact(doc.text, doc.spans);
    assert.deepEqual(doc.spans.map((s) => s.label), ['1313851', '131万']);
  });
});

describe('response spans', () => {
  it('zh: found with spaces ignored, covering the original text with its space', () => {
    const response = '特斯拉交付131万辆，比亚迪交付186.35 万辆';
    const spans = responseSpans(response, [['1313851', '131万'], ['187万', '186.35万']], 'zh');
    assertExact(response, spans);
    assert.deepEqual(spans.map((s) => s.text), ['131万', '186.35 万']);
  });

  it('en: spaces matter, as in the scorer', () => {
    assert.deepEqual(responseSpans('186.35 万', [['186.35万']], 'en'), []);
  });

  it('marks a repeated fake answer in the response', () => {
    const response = 'It was in Glendale, Arizona.';
    const spans = responseSpans(response, [['Tampa, Florida']], 'en', [['Glendale, Arizona']]);
    assert.deepEqual(spans.map((s) => [s.kind, s.text]), [['counterfactual', 'Glendale, Arizona']]);
  });

  it('the correct score carries the response spans', async () => {
    const raw = { testbed: 'noise_robustness', noiseRates: [0] };
    const [evalCase] = build({ id: 2, query: 'q', answer: 'Paris', positive: ['Paris.'], negative: ['Lyon.'] }, raw);
    const correct = find(await score(evalCase!, 'It is PARIS.', params(raw)), 'correct');
    assert.deepEqual((correct.details as { responseSpans: Span[] }).responseSpans, [{ kind: 'answer', start: 6, end: 11, text: 'PARIS', label: 'Paris' }]);
  });
});
