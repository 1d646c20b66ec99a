// Scoring rules: the tolerant document-number rule, SQuAD normalisation, refusals, and B on multi-answer data.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../src/core/model.js';
import { documentLabel, findCitations } from '../../../src/core/suites/ifrag/citations.js';
import { ifragCaseParams, ifragExpected } from '../../../src/core/suites/ifrag/cases.js';
import { findAlias, findRefusal, squadNormalise } from '../../../src/core/suites/ifrag/normalise.js';
import { DEFAULT_REFUSAL } from '../../../src/core/suites/ifrag/params.js';
import { PARIS_ROW, TOKYO_ROW, build, dataset, find, score } from './builders.js';

const cited = (response: string, idFormat = '[Document {n}]', count = 10) => findCitations(response, idFormat, count).citations.map((c) => c.number);

describe('the document-number rule', () => {
  it('accepts "Document 3", "[Document 3]", "Doc 3", "doc. #3", "Document ID: 3", any case', () => {
    for (const text of ['Document 3', 'see [Document 3].', 'Doc 3', 'doc. #3', 'Document ID: 3', 'DOCUMENT 3', '(document [3])']) {
      assert.deepEqual(cited(text), [3], text);
    }
  });

  it('reads lists after a plural or singular word, and several citations', () => {
    assert.deepEqual(cited('Documents 2 and 5 agree'), [2, 5]);
    assert.deepEqual(cited('Docs 2, 5 & 7'), [2, 5, 7]);
    assert.deepEqual(cited('[Document 1] and [Document 4]'), [1, 4]);
  });

  it('cites nothing for a bare number, a longer word, or "Doc 1" inside "Doc 12"', () => {
    assert.deepEqual(cited('It is 3.'), []);
    assert.deepEqual(cited('The documentation 3 says'), []);
    assert.deepEqual(findCitations('Doc 12', 'Doc {n}', 12).citations.map((c) => c.number), [12]);
  });

  it('reports a number that names no document, but ignores a year listed after a real one', () => {
    assert.deepEqual(findCitations('Document 12', '[Document {n}]', 10).unknown, [12]);
    const reading = findCitations('Document 2, 1969 was the year', '[Document {n}]', 10);
    assert.deepEqual(reading.citations.map((c) => c.number), [2]);
    assert.deepEqual(reading.unknown, []);
  });

  it('matches a format without a word exactly, and the format\'s own word', () => {
    assert.deepEqual(cited('答えは東京です【3】', '【{n}】'), [3]);
    assert.deepEqual(cited('see passage 4', 'Passage {n}'), [4]);
    assert.equal(documentLabel('【{n}】', 3), '【3】');
  });
});

describe('normalisation', () => {
  it('SQuAD normalize_answer: lowercase, punctuation, articles, whitespace', () => {
    assert.equal(squadNormalise('The  U.S.A., an Ally!'), 'usa ally');
  });

  it('rgb is a plain lowercase substring; squad ignores punctuation and articles', () => {
    assert.equal(findAlias('It is the U.S.A.', ['USA'], 'rgb'), undefined);
    assert.equal(findAlias('It is the U.S.A.', ['USA'], 'squad'), 'USA');
    assert.equal(findAlias('Visit The Hague', ['Hague'], 'rgb'), 'Hague');
    assert.equal(findAlias('anything', ['The'], 'squad'), undefined, 'an alias that normalises to nothing never matches');
  });

  it('the refusal sentence, with or without its period, in any case', () => {
    assert.equal(findRefusal('I cannot answer the question due to the insufficient information in the documents.', [DEFAULT_REFUSAL], 'rgb'), DEFAULT_REFUSAL);
    assert.equal(findRefusal('i cannot answer the question due to the insufficient information in the documents', [DEFAULT_REFUSAL], 'rgb'), DEFAULT_REFUSAL);
    assert.equal(findRefusal('Insufficient information.', [DEFAULT_REFUSAL], 'rgb'), undefined);
  });
});

describe('scores on built cases', () => {
  const { rows, pool } = dataset([TOKYO_ROW, PARIS_ROW]);
  const labelOf = (evalCase: EvalCase, docId: string) => documentLabel(ifragCaseParams(evalCase).idFormat, evalCase.documents.findIndex((d) => d.id === docId) + 1);

  it('over-refusal: the refusal sentence on an answerable case, as its own informative score', async () => {
    const [factual] = build(rows[0]!, pool, { instruction: 'A', kinds: ['factual'] });
    const scores = await score(factual!, 'I cannot answer the question due to the insufficient information in the documents.', { instruction: 'A' });
    assert.equal(find(scores, 'correct').label, 'refused');
    const refusal = find(scores, 'over_refusal');
    assert.equal(refusal.value, 1);
    assert.equal(refusal.pass, undefined);
    assert.equal(find(await score(factual!, 'Tokyo.', { instruction: 'A' }), 'over_refusal').value, 0);
  });

  it('a custom refusal list replaces the default', async () => {
    const [factual] = build(rows[0]!, pool, { instruction: 'A', kinds: ['factual'] });
    const raw = { instruction: 'A', refusal: ['no idea'] };
    assert.equal(find(await score(factual!, 'No idea, sorry.', raw), 'over_refusal').value, 1);
    assert.equal(find(await score(factual!, 'I cannot answer the question due to the insufficient information in the documents.', raw), 'over_refusal').value, 0);
  });

  it('B on multi-answer data pairs the answer with its own evidence', async () => {
    const [multi] = build(rows[1]!, pool, { instruction: 'B', kinds: ['multi'] });
    const [paris, lyon] = ifragExpected(multi!).gold;
    const parisDoc = labelOf(multi!, paris!.helpful[0]!);
    const lyonDoc = labelOf(multi!, lyon!.helpful[0]!);
    const raw = { instruction: 'B' };
    assert.equal(find(await score(multi!, `Paris ${parisDoc}`, raw), 'correct').value, 1);
    assert.equal(find(await score(multi!, `Lyon ${lyonDoc}`, raw), 'correct').value, 1);
    const crossed = find(await score(multi!, `Paris ${lyonDoc}`, raw), 'correct');
    assert.equal(crossed.value, 0);
    assert.equal(crossed.label, 'wrong-citation');
    assert.match(crossed.explanation ?? '', /\(helpful\)/, 'the cited document is helpful, just not for the answer given');
  });

  it('A on multi-answer data accepts either answer; C needs both', async () => {
    const [multiA] = build(rows[1]!, pool, { instruction: 'A', kinds: ['multi'] });
    assert.equal(find(await score(multiA!, 'Lyon', { instruction: 'A' }), 'correct').value, 1);
    const [multiC] = build(rows[1]!, pool, { instruction: 'C', kinds: ['multi'] });
    assert.equal(find(await score(multiC!, 'Lyon', { instruction: 'C' }), 'correct').value, 0);
    assert.equal(find(await score(multiC!, 'lyon, paris', { instruction: 'C' }), 'correct').value, 1);
  });

  it('counterfactual data: the gold answer is the substituted one', async () => {
    const [, counterfactual] = build(rows[0]!, pool, { instruction: 'A' });
    assert.equal(find(await score(counterfactual!, 'Kyoto', { instruction: 'A' }), 'correct').value, 1);
    assert.equal(find(await score(counterfactual!, 'Tokyo', { instruction: 'A' }), 'correct').value, 0);
  });

  it('a citation of a missing document is named; an uncited answer under B points at nothing', async () => {
    const [factual] = build(rows[0]!, pool, { instruction: 'B', kinds: ['factual'] });
    const missing = find(await score(factual!, 'Tokyo, Document 42', { instruction: 'B' }), 'correct');
    assert.equal(missing.label, 'missing-citation');
    assert.match(missing.explanation ?? '', /cites document 42, which the case does not have/);
    assert.deepEqual(missing.evidence, []);
  });

  it('a cited document without the answer span is evidence as a whole', async () => {
    const [factual] = build(rows[0]!, pool, { instruction: 'B', kinds: ['factual'] });
    const other = factual!.documents.findIndex((d) => d.role === 'negative');
    const scoreB = find(await score(factual!, `Tokyo [Document ${other + 1}]`, { instruction: 'B' }), 'correct');
    const doc = factual!.documents[other]!;
    assert.deepEqual(scoreB.evidence, [{ documentId: doc.id, start: 0, end: doc.text.length, text: doc.text }]);
  });
});
