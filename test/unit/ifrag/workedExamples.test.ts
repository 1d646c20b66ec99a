// METHODS.md §4 worked examples, to the digit, through the suite's own expandRow → score → report.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { ifragCaseParams } from '../../../src/core/suites/ifrag/cases.js';
import { ifragSuite } from '../../../src/core/suites/ifrag/suite.js';
import { PARIS_ROW, TOKYO_ROW, build, dataset, find, params, result, score } from './builders.js';

const { rows, pool } = dataset([TOKYO_ROW, PARIS_ROW]);
const [tokyo, paris] = rows;

async function correctOf(evalCase: EvalCase, response: string, raw: Record<string, unknown>): Promise<{ value: number | null; label?: string; explanation?: string }> {
  return find(await score(evalCase, response, raw), 'correct');
}

describe('instruction A (gold answer present, lowercase substring)', () => {
  const raw = { instruction: 'A', kinds: ['factual'] };
  const [factual] = build(tokyo!, pool, raw);

  it('"The capital is tokyo." → 1, "Kyoto" → 0', async () => {
    assert.equal((await correctOf(factual!, 'The capital is tokyo.', raw)).value, 1);
    const kyoto = await correctOf(factual!, 'Kyoto', raw);
    assert.equal(kyoto.value, 0);
    assert.equal(kyoto.label, 'incorrect');
  });
});

describe('instruction B with ids "Doc N" (gold answer and a helpful document ID)', () => {
  const raw = { instruction: 'B', kinds: ['factual'], k: 3, idFormat: 'Doc {n}' };
  // A run seed whose shuffle puts the evidence second, so the helpful document is "Doc 2" as in the example.
  const seed = Array.from({ length: 100 }, (_, s) => s).find((s) => ifragCaseParams(build(tokyo!, pool, raw, { seed: s })[0]!).helpfulLabels[0] === 'Doc 2');
  const [factual] = build(tokyo!, pool, raw, { seed });

  it('the helpful document is labelled "Doc 2"', () => {
    assert.notEqual(seed, undefined);
    assert.deepEqual(ifragCaseParams(factual!).helpfulLabels, ['Doc 2']);
    assert.equal(factual!.documents[1]!.role, 'positive');
  });

  it('"Tokyo (see Doc 2)" → 1, "Tokyo" → 0 (missing citation), "Doc 2 says so" → 0 (no answer)', async () => {
    const cited = await correctOf(factual!, 'Tokyo (see Doc 2)', raw);
    assert.equal(cited.value, 1);
    const bare = await correctOf(factual!, 'Tokyo', raw);
    assert.equal(bare.value, 0);
    assert.equal(bare.label, 'missing-citation');
    const noAnswer = await correctOf(factual!, 'Doc 2 says so', raw);
    assert.equal(noAnswer.value, 0);
    assert.equal(noAnswer.label, 'incorrect');
  });

  it('citing another document is a wrong citation, named in the explanation', async () => {
    const wrong = await correctOf(factual!, 'Tokyo (see Doc 1)', raw);
    assert.equal(wrong.value, 0);
    assert.equal(wrong.label, 'wrong-citation');
    assert.match(wrong.explanation ?? '', /cites Doc 1 \(not helpful\); helpful: Doc 2/);
  });

  it('the score points at the cited document\'s answer span', async () => {
    const correct = find(await score(factual!, 'Tokyo (see Doc 2)', raw), 'correct');
    assert.deepEqual(correct.evidence, [{ documentId: 'd1', start: 0, end: 5, text: 'Tokyo' }]);
    const spans = (correct.details as { responseSpans: { kind: string; text: string }[] }).responseSpans;
    assert.deepEqual(spans.map((s) => [s.kind, s.text]), [['answer', 'Tokyo'], ['citation', 'Doc 2']]);
  });
});

describe('instruction C (all gold answers) and accuracy', () => {
  const raw = { instruction: 'C', kinds: ['multi'] };
  const [multi] = build(paris!, pool, raw);
  const responses = ['Paris and Lyon', 'Paris'];

  it('gold is both answers on multi-answer data', () => {
    assert.deepEqual(ifragCaseParams(multi!).kind, 'multi');
    assert.equal(multi!.documents.filter((d) => d.role === 'positive').length, 1);
    assert.equal(multi!.documents.filter((d) => d.role === 'counterfactual').length, 1);
  });

  it('"Paris and Lyon" → 1, "Paris" → 0 (partial); accuracy 0.5', async () => {
    const results: CaseResult[] = [];
    const cases = new Map<string, EvalCase>();
    for (const [i, response] of responses.entries()) {
      const evalCase = { ...multi!, id: `${multi!.id}#${i}` };
      cases.set(evalCase.id, evalCase);
      results.push(result(evalCase.id, 'm:one', await score(evalCase, response, raw)));
    }
    assert.deepEqual(results.map((r) => find(r.scores, 'correct').value), [1, 0]);
    assert.equal(find(results[1]!.scores, 'correct').label, 'partial');
    const report = ifragSuite.report(cases, results, params(raw), 'ifrag-test');
    assert.equal(report.metrics.find((m) => m.name === 'accuracy')?.value, 0.5);
    assert.equal(report.metrics.find((m) => m.name === 'accuracy@multi')?.value, 0.5);
    const cell = report.tables[0]!.rows[0]!.cells[0]!;
    assert.equal(cell.value, 0.5);
    assert.equal(cell.n, 2);
  });
});
