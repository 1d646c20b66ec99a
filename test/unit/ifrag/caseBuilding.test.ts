// Case building: k passages, the three data kinds, seeded and reproducible sampling, stable ids, skipped kinds, sources.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { EvalCase } from '../../../src/core/model.js';
import { ifragCaseParams, ifragExpected } from '../../../src/core/suites/ifrag/cases.js';
import { passagePoolOf, poolFromRows } from '../../../src/core/suites/ifrag/pool.js';
import { randomOrder } from '../../../src/core/suites/ifrag/randomOrder.js';
import { mulberry32 } from '../../../src/core/random.js';
import { TOKYO_ROW, build, dataset, datasetRow, fillerRows } from './builders.js';

const all = { instruction: 'A' };
const count = (c: EvalCase, role: string) => c.documents.filter((d) => d.role === role).length;

describe('documents per case', () => {
  const { rows, pool } = dataset([TOKYO_ROW, { ...TOKYO_ROW, id: 'two-passages', passages: ['Tokyo is the capital.', 'The Diet sits in Tokyo.'] }]);

  it('one case per kind, k documents each: evidence plus irrelevant passages from other rows', () => {
    const cases = build(rows[0]!, pool, all);
    assert.deepEqual(cases.map((c) => c.id), ['ifrag-test/tokyo/factual', 'ifrag-test/tokyo/counterfactual', 'ifrag-test/tokyo/multi']);
    assert.deepEqual(cases.map((c) => c.testbed), ['factual', 'counterfactual', 'multi']);
    for (const evalCase of cases) assert.equal(evalCase.documents.length, 10);
    const [factual, counterfactual, multi] = cases as [EvalCase, EvalCase, EvalCase];
    assert.deepEqual([count(factual, 'positive'), count(factual, 'counterfactual'), count(factual, 'negative')], [1, 0, 9]);
    assert.deepEqual([count(counterfactual, 'positive'), count(counterfactual, 'counterfactual'), count(counterfactual, 'negative')], [0, 1, 9]);
    assert.deepEqual([count(multi, 'positive'), count(multi, 'counterfactual'), count(multi, 'negative')], [1, 1, 8]);
    for (const doc of factual.documents.filter((d) => d.role === 'negative')) {
      assert.match(doc.source ?? '', /^rows\[\d+\]\.passages\[\d+\]$/);
      assert.ok(!doc.text.includes('Tokyo'));
    }
  });

  it('gold answers: the true one, the counterfactual one, or both with their helpful documents', () => {
    const [factual, counterfactual, multi] = build(rows[0]!, pool, all) as [EvalCase, EvalCase, EvalCase];
    assert.deepEqual(ifragExpected(factual).gold.map((g) => [g.source, g.aliases]), [['factual', ['Tokyo']]]);
    assert.deepEqual(ifragExpected(counterfactual).gold.map((g) => [g.source, g.aliases]), [['counterfactual', ['Kyoto']]]);
    const gold = ifragExpected(multi).gold;
    assert.deepEqual(gold.map((g) => g.source), ['factual', 'counterfactual']);
    assert.equal(multi.documents.find((d) => d.id === gold[0]!.helpful[0])?.role, 'positive');
    assert.equal(multi.documents.find((d) => d.id === gold[1]!.helpful[0])?.role, 'counterfactual');
    assert.equal(ifragCaseParams(multi).helpfulLabels.length, 2);
  });

  it('the kinds of a row share one draw: factual and counterfactual show the same irrelevant passages', () => {
    const [factual, counterfactual, multi] = build(rows[0]!, pool, all) as [EvalCase, EvalCase, EvalCase];
    const irrelevant = (c: EvalCase) => ifragCaseParams(c).irrelevantSources.map((s) => `${s.rowIndex}/${s.passageIndex}`).sort();
    assert.deepEqual(irrelevant(factual), irrelevant(counterfactual));
    assert.equal(irrelevant(multi).length, 8);
    for (const source of irrelevant(multi)) assert.ok(irrelevant(factual).includes(source));
  });

  it('labels follow idFormat in display order; template variables carry them', () => {
    const [factual] = build(rows[0]!, pool, { instruction: 'B', kinds: ['factual'], idFormat: 'Passage #{n}' });
    const p = ifragCaseParams(factual!);
    assert.deepEqual(p.documentLabels.slice(0, 3), ['Passage #1', 'Passage #2', 'Passage #3']);
    const documents = factual!.variables.documents as { id: string; number: number; label: string }[];
    assert.deepEqual(documents[4], { ...documents[4], id: 'd4', number: 5, label: 'Passage #5' });
    const helpfulIndex = factual!.documents.findIndex((d) => d.role === 'positive');
    assert.deepEqual(p.helpfulLabels, [`Passage #${helpfulIndex + 1}`]);
  });

  it('more evidence than k: all evidence is shown and nothing irrelevant', () => {
    const [, , multi] = build(rows[1]!, pool, { instruction: 'A', k: 2 });
    assert.equal(multi!.documents.length, 3);
    assert.equal(ifragCaseParams(multi!).irrelevant, 0);
  });
});

describe('seeded sampling', () => {
  const { rows, pool } = dataset([TOKYO_ROW], fillerRows(20));

  it('is reproducible: the same run seed gives the same documents in the same order', () => {
    assert.deepEqual(build(rows[0]!, pool, all), build(rows[0]!, pool, all));
  });

  it('another run seed gives another draw or order, and records both seeds', () => {
    const a = build(rows[0]!, pool, all, { seed: 1 })[0]!;
    const b = build(rows[0]!, pool, all, { seed: 2 })[0]!;
    assert.notDeepEqual(a.documents.map((d) => d.source), b.documents.map((d) => d.source));
    assert.equal(a.seed, ifragCaseParams(a).orderSeed);
    assert.notEqual(ifragCaseParams(a).sampleSeed, ifragCaseParams(b).sampleSeed);
  });

  it('does not depend on the suite: instructions A, B and C show the model the same documents', () => {
    const a = build(rows[0]!, pool, { instruction: 'A' }, { suiteId: 'suite-a' });
    const b = build(rows[0]!, pool, { instruction: 'B' }, { suiteId: 'suite-b' });
    assert.deepEqual(a.map((c) => c.documents), b.map((c) => c.documents));
    assert.deepEqual(b.map((c) => c.id), ['suite-b/tokyo/factual', 'suite-b/tokyo/counterfactual', 'suite-b/tokyo/multi']);
  });

  it('ids are stable: without an id the row index names the case', () => {
    const { id: _id, ...noId } = TOKYO_ROW;
    const [factual] = build(datasetRow(noId, 7), pool, { instruction: 'A', kinds: ['factual'] });
    assert.equal(factual!.id, 'ifrag-test/7/factual');
  });

  it('passes over other rows\' passages that mention this row\'s answers, and counts them', () => {
    const mentioning = { id: 'rival', question: 'Where is the Diet?', answer: 'Chiyoda', passages: ['The Diet building in Tokyo is in Chiyoda.', 'Kyoto has many temples.'] };
    const small = dataset([TOKYO_ROW, mentioning], fillerRows(2, 2));
    const [factual] = build(small.rows[0]!, small.pool, { instruction: 'A', kinds: ['factual'] });
    const p = ifragCaseParams(factual!);
    assert.equal(p.available, 6);
    assert.equal(p.passedOver, 2);
    assert.equal(p.irrelevant, 4);
    assert.equal(p.requestedIrrelevant, 9);
    assert.ok(factual!.documents.every((d) => !d.text.includes('Diet') && !d.text.includes('temples')));
  });

  it('randomOrder is a permutation, the same for the same generator state', () => {
    const order = [...randomOrder(50, mulberry32(7))];
    assert.deepEqual([...order].sort((x, y) => x - y), Array.from({ length: 50 }, (_, i) => i));
    assert.deepEqual(order, [...randomOrder(50, mulberry32(7))]);
    assert.notDeepEqual(order, [...randomOrder(50, mulberry32(8))]);
  });
});

describe('rows', () => {
  const { pool } = dataset([]);

  it('a row without counterfactual data gives its factual case only, and says why the others were skipped', () => {
    const { counterfactual: _c, ...plain } = TOKYO_ROW;
    const cases = build(datasetRow(plain, 0), pool, all);
    assert.deepEqual(cases.map((c) => c.testbed), ['factual']);
    assert.deepEqual(ifragCaseParams(cases[0]!).skippedKinds.map((s) => s.kind), ['counterfactual', 'multi']);
    assert.match(ifragCaseParams(cases[0]!).skippedKinds[0]!.reason, /no counterfactual data/);
    const failed = build(datasetRow({ ...plain, counterfactualError: 'passage 1 still mentions the true answer "Tokyo"' }, 0), pool, all);
    assert.match(ifragCaseParams(failed[0]!).skippedKinds[0]!.reason, /generation failed for this row: passage 1 still mentions/);
  });

  it('answer aliases: any one suffices; a list is accepted', () => {
    const [factual] = build(datasetRow({ ...TOKYO_ROW, answer: ['Tokyo', 'Tōkyō'] }, 0), pool, { instruction: 'A', kinds: ['factual'] });
    assert.deepEqual(ifragExpected(factual!).gold[0]!.aliases, ['Tokyo', 'Tōkyō']);
    assert.deepEqual(factual!.documents.find((d) => d.role === 'positive')?.spans.map((s) => [s.kind, s.text]), [['answer', 'Tokyo']]);
  });

  it('a bad row is an InputError naming the field and the row\'s line', () => {
    const bad = (data: Record<string, unknown>, pattern: RegExp, raw: Record<string, unknown> = all) => {
      assert.throws(() => build(datasetRow(data, 4), pool, raw), (error: unknown) => error instanceof InputError && pattern.test(error.message) && error.position.line === 5);
    };
    bad({ ...TOKYO_ROW, question: undefined }, /"question": missing/);
    bad({ ...TOKYO_ROW, passages: [] }, /"passages": expected a non-empty list/);
    bad({ ...TOKYO_ROW, answer: [] }, /"answer": expected a string or a non-empty list/);
    bad({ ...TOKYO_ROW, counterfactual: { answer: 'Kyoto' } }, /"counterfactual.passages": missing/);
    bad({ ...TOKYO_ROW, answer: 'The' }, /"answer": "The" is empty after squad normalisation/, { instruction: 'A', normalise: 'squad' });
    assert.equal(build(datasetRow({ ...TOKYO_ROW, answer: 'The' }, 4), pool, all).length, 3, 'under rgb "The" is an ordinary answer');
  });
});

describe('the pool read from a dataset file', () => {
  it('reads JSONL, CSV (JSON cells) and YAML files, numbering rows as the dataset reader does, and rereads a changed file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'ifrag-pool-'));
    try {
      const jsonl = path.join(dir, 'data.jsonl');
      writeFileSync(jsonl, `${JSON.stringify({ id: 'a', passages: ['A one.', 'A two.'] })}\n\nnot json\n${JSON.stringify({ id: 'b', passages: ['B one.'] })}\n`);
      assert.deepEqual(passagePoolOf(jsonl).passages.map((p) => [p.rowIndex, p.rowId, p.passageIndex, p.text]), [[0, 'a', 0, 'A one.'], [0, 'a', 1, 'A two.'], [2, 'b', 0, 'B one.']]);
      writeFileSync(jsonl, `${JSON.stringify({ id: 'c', passages: ['C one, a longer passage now.'] })}\n`);
      assert.deepEqual(passagePoolOf(jsonl).passages.map((p) => p.text), ['C one, a longer passage now.']);

      const csv = path.join(dir, 'data.csv');
      writeFileSync(csv, 'id,question,passages\nx,Q?,"[""X one."",""X two.""]"\n');
      assert.deepEqual(passagePoolOf(csv).passages.map((p) => [p.rowIndex, p.text]), [[0, 'X one.'], [0, 'X two.']]);

      const yaml = path.join(dir, 'data.yaml');
      writeFileSync(yaml, '- id: y\n  passages: [Y one.]\n- id: z\n  passages: [Z one.]\n');
      assert.deepEqual(passagePoolOf(yaml).passages.map((p) => [p.rowIndex, p.text]), [[0, 'Y one.'], [1, 'Z one.']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rows whose passages are unusable add nothing', () => {
    const pool = poolFromRows([{ index: 0, data: { passages: 'not a list' } }, { index: 1, data: { passages: ['ok', 3, ''] } }]);
    assert.deepEqual(pool.passages.map((p) => p.text), ['ok']);
    assert.equal(pool.countByRow.get(1), 1);
  });
});
