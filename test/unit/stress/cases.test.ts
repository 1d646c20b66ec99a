// Stress case building as a pure function of (row, params, seed, pool), on hand-written rows whose answer-bearing
// passages, distractors, fake answers and positions are written out here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { DatasetRow, EvalCase } from '../../../src/core/model.js';
import { distractorBudget } from '../../../src/core/suites/stress/budget.js';
import { expandStressRow, stressCaseParams } from '../../../src/core/suites/stress/cases.js';
import { substituteAnswer } from '../../../src/core/suites/stress/counterfactual.js';
import { parseStressParams } from '../../../src/core/suites/stress/params.js';
import { drawDistractors, poolFromRows } from '../../../src/core/suites/stress/pool.js';
import type { DistractorPool } from '../../../src/core/suites/stress/pool.js';

const FILE = '/data/qa.jsonl';
const SEED = 2333;

function row(index: number, data: Record<string, unknown>): DatasetRow {
  return { ref: { file: FILE, line: index + 1, index }, data };
}

/** Row 0 is the one under test; rows 1 and 2 give the pool. */
const ROWS = [
  {
    id: 'fr', user_input: 'What is the capital of France?', reference: 'Paris',
    retrieved_contexts: ['Paris is the capital of France.', 'France borders Spain.', 'The Louvre is in paris.'],
  },
  {
    id: 'jp', user_input: 'What is the capital of Japan?', reference: 'Tokyo',
    retrieved_contexts: ['Tokyo is the capital of Japan.', 'Mount Fuji is the highest mountain in Japan.', 'Paris hosted the 1900 Olympics.'],
  },
  {
    id: 'ca', question: 'What is the capital of Canada?', ground_truth: 'Ottawa',
    contexts: ['Ottawa is the capital of Canada.', 'Canada has ten provinces.', 'Maple syrup comes from Quebec.'],
  },
];

/** The pool: every non-answer-bearing passage of every row, its own row's answer deciding. */
const POOL: DistractorPool = poolFromRows(ROWS.map((data, index) => ({ index, data })));

function build(data: Record<string, unknown>, params: Record<string, unknown>, pool = POOL, seed = SEED): EvalCase[] {
  return expandStressRow(row(0, data), parseStressParams(params, { file: '/data/x.eval.yaml' }), { suiteId: 's', seed, models: [] }, pool);
}

const texts = (c: EvalCase, role: string) => c.documents.filter((d) => d.role === role).map((d) => d.text).sort();

describe('the distractor pool', () => {
  it('holds each row\'s passages that bear none of its own answer, with their source', () => {
    assert.deepEqual(POOL.items.map((d) => d.source), [
      'rows[0].contexts[1]',
      'rows[1].contexts[1]', 'rows[1].contexts[2]',
      'rows[2].contexts[1]', 'rows[2].contexts[2]',
    ]);
  });

  it('never gives a row its own passages nor a passage mentioning its answer ("Paris hosted…" is passed over for the Paris row)', () => {
    const draw = drawDistractors(POOL, { seed: 1, rowIndex: 0, answer: [['Paris']], own: ROWS[0]!.retrieved_contexts as string[], count: 10 });
    assert.deepEqual(draw.distractors.map((d) => d.text).sort(), [
      'Canada has ten provinces.', 'Maple syrup comes from Quebec.', 'Mount Fuji is the highest mountain in Japan.',
    ]);
    assert.equal(draw.passedOver, 1);
  });
});

describe('noise robustness', () => {
  it('answer-bearing passages by RGB\'s rule (case-insensitive), distractors from other rows, RGB\'s counts (shortRows: fill)', () => {
    const [c] = build(ROWS[0]!, { testbed: 'noise_robustness', noiseRates: [0.4], passageNum: 5, shortRows: 'fill' });
    // ceil(5 × 0.4) = 2 negatives, 3 positives wanted; only 2 passages bear "Paris", so RGB grows the negatives to 3.
    assert.deepEqual(texts(c!, 'positive'), ['Paris is the capital of France.', 'The Louvre is in paris.']);
    assert.deepEqual(texts(c!, 'negative'), ['Canada has ten provinces.', 'Maple syrup comes from Quebec.', 'Mount Fuji is the highest mountain in Japan.']);
    const p = stressCaseParams(c!);
    assert.deepEqual(p.answerBearing, [0, 2]);
    assert.equal(p.effectiveNoiseRate, 0.6);
    assert.deepEqual(c!.documents.filter((d) => d.role === 'positive').map((d) => d.source).sort(), ['contexts[0]', 'contexts[2]']);
    assert.ok(c!.documents.filter((d) => d.role === 'negative').every((d) => /^rows\[[12]\]\.contexts\[[12]\]$/.test(d.source ?? '')));
    assert.deepEqual(c!.documents.find((d) => d.text.startsWith('The Louvre'))!.spans.map((s) => [s.kind, s.text]), [['answer', 'paris']]);
    assert.equal(c!.id, 's/fr/noise=0.4');
  });

  it('keeps the ratio by default when positives run short: 2 positives at 0.4 get ceil(2 × 0.4 / 0.6) = 2 distractors, not 3', () => {
    const [c] = build(ROWS[0]!, { testbed: 'noise_robustness', noiseRates: [0.4], passageNum: 5 });
    assert.equal(texts(c!, 'positive').length, 2);
    assert.equal(texts(c!, 'negative').length, 2);
    assert.equal(stressCaseParams(c!).effectiveNoiseRate, 0.5);
  });

  it('keep_ratio on a row with one answer-bearing passage: effective ratios 0, 0.5, 0.5, 0.67, 0.8 — ratios 0.2 and 0.4 show the same two passages (fill: 0.8 at every ratio)', () => {
    const one = { ...ROWS[0]!, retrieved_contexts: ['Paris is the capital of France.', 'France borders Spain.'] };
    const shown = (c: EvalCase) => [stressCaseParams(c).effectiveNoiseRate?.toFixed(2), [...c.documents.map((d) => d.text)].sort()];
    const pool: DistractorPool = { items: ['Bees dance.', 'Owls hunt at night.', 'Glaciers move.', 'Chess has 64 squares.', 'Rust is iron oxide.'].map((text, i) => ({ text, source: `rows[${i + 1}].contexts[0]`, rowIndex: i + 1 })) };
    const kept = build(one, { testbed: 'noise_robustness' }, pool).map(shown);
    assert.deepEqual(kept.map(([rate]) => rate), ['0.00', '0.50', '0.50', '0.67', '0.80']);
    assert.deepEqual(kept[1]![1], kept[2]![1]);
    assert.deepEqual(build(one, { testbed: 'noise_robustness', shortRows: 'fill' }, pool).map((c) => stressCaseParams(c).effectiveNoiseRate), [0.8, 0.8, 0.8, 0.8, 0.8]);
  });

  it('distractor budgets by hand (passageNum 5): enough positives → RGB\'s ceil(5r); one positive → ceil(r / (1 − r))', () => {
    const p = { passageNum: 5, shortRows: 'keep_ratio' as const, testbed: 'noise_robustness' as const };
    assert.deepEqual([0, 0.2, 0.4, 0.6, 0.8].map((r) => distractorBudget(5, r, p)), [0, 1, 2, 3, 4]);
    assert.deepEqual([0, 0.2, 0.4, 0.6, 0.8].map((r) => distractorBudget(1, r, p)), [0, 1, 1, 2, 4]);
    assert.deepEqual([0, 0.2, 0.4, 0.6, 0.8].map((r) => distractorBudget(2, r, p)), [0, 1, 2, 3, 4], "at 0.6 and 0.8 RGB wants only 2 and 1 positives");
    assert.equal(distractorBudget(1, 0.8, { ...p, shortRows: 'fill' }), 5, 'fill leaves RGB its whole list');
  });

  it('depends on the pool\'s content, not its order: the pool read in reverse gives the same distractors in the same order', () => {
    const params = { testbed: 'negative_rejection', passageNum: 3 };
    const reversed: DistractorPool = { items: [...POOL.items].reverse() };
    const documents = (c: EvalCase) => c.documents.map((d) => [d.text, d.source]);
    assert.deepEqual(build(ROWS[0]!, params, reversed).map(documents), build(ROWS[0]!, params).map(documents));
    // A different run seed ranks the pool differently for the row (three passages: some order must differ).
    const orders = [1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(build(ROWS[0]!, params, POOL, seed).map(documents)));
    assert.ok(new Set(orders).size > 1);
  });

  it('is a pure function of (row, params, seed): the same case twice, and more noise adds distractors rather than swapping them', () => {
    const params = { testbed: 'noise_robustness', noiseRates: [0.2, 0.4], passageNum: 3 };
    assert.deepEqual(build(ROWS[0]!, params), build(ROWS[0]!, params));
    const [low, high] = build(ROWS[0]!, params);
    // 3 × 0.2 → 1 negative; 3 × 0.4 → 2 negatives: the first is kept.
    assert.equal(texts(low!, 'negative').length, 1);
    assert.ok(texts(high!, 'negative').includes(texts(low!, 'negative')[0]!));
  });
});

describe('negative rejection', () => {
  it('removes every answer-bearing passage: only distractors, none mentioning the answer', () => {
    const [c] = build(ROWS[0]!, { testbed: 'negative_rejection', passageNum: 3 });
    assert.deepEqual(c!.documents.map((d) => d.role), ['negative', 'negative', 'negative']);
    assert.ok(c!.documents.every((d) => !d.text.toLowerCase().includes('paris')));
    assert.equal(c!.variables.refusal, 'insufficient information');
  });

  it('passes the user\'s refusal phrase to the template', () => {
    const [c] = build(ROWS[0]!, { testbed: 'negative_rejection', passageNum: 2, refusal: ["I don't know"] });
    assert.equal(c!.variables.refusal, "I don't know");
  });
});

describe('counterfactual robustness', () => {
  it('replaces the answer span in each answer-bearing passage with the fake answer from the column', () => {
    const [c] = build({ ...ROWS[0]!, fake_answer: 'Lyon' }, { testbed: 'counterfactual_robustness', passageNum: 2 });
    assert.deepEqual(texts(c!, 'counterfactual'), ['Lyon is the capital of France.', 'The Louvre is in Lyon.']);
    assert.deepEqual(c!.expected, { answer: [['Paris']], fakeanswer: [['Lyon']] });
    assert.equal(stressCaseParams(c!).fakeAnswerOrigin, 'column');
    assert.deepEqual(c!.documents.map((d) => d.source).sort(), ['contexts[0] (fake answer)', 'contexts[2] (fake answer)']);
    assert.ok(c!.documents.every((d) => d.spans.some((s) => s.kind === 'counterfactual' && s.text === 'Lyon')));
  });

  it('substitutes the longest alternative first', () => {
    assert.equal(substituteAnswer('New York City and New York', [['New York', 'New York City']], [['Boston']]), 'Boston and Boston');
  });

  it('uses generated counterfactual data that passes the generator\'s check, and records who generated it', () => {
    const data = { ...ROWS[0]!, counterfactual: { answer: 'Lyon', passages: ['Lyon is the capital of France.', 'The Louvre is in Lyon.'], generatedBy: { model: 'openai:gpt-4o', seed: 1, calls: 1 } } };
    const [c] = build(data, { testbed: 'counterfactual_robustness', passageNum: 2 });
    const p = stressCaseParams(c!);
    assert.equal(p.fakeAnswerOrigin, 'generated');
    assert.deepEqual(p.generatedBy, { model: 'openai:gpt-4o', seed: 1, calls: 1 });
  });

  it('reports generated data that still mentions the true answer at the row\'s line', () => {
    const data = { ...ROWS[0]!, counterfactual: { answer: 'Lyon', passages: ['Lyon is the capital of France.', 'The Louvre is in Paris.'] } };
    assert.throws(() => build(data, { testbed: 'counterfactual_robustness', passageNum: 2 }), (e: unknown) => e instanceof InputError && e.position.line === 1 && /passage 2 still mentions the true answer "Paris"/.test(e.message));
  });

  it('reports a row with no fake answer, naming the column to add', () => {
    assert.throws(() => build(ROWS[0]!, { testbed: 'counterfactual_robustness' }), /add a fake_answer column/);
  });

  it('refuses a fake answer that contains the reference (the passage would still bear it)', () => {
    assert.throws(() => build({ ...ROWS[0]!, fake_answer: 'Paris, Texas' }, { testbed: 'counterfactual_robustness' }), /overlaps the reference answer/);
  });
});

describe('position', () => {
  it('puts the first answer-bearing passage at every position among k distractors, which keep one order', () => {
    const cases = build(ROWS[0]!, { testbed: 'position', k: 3 });
    assert.deepEqual(cases.map((c) => c.id), ['s/fr/position=0', 's/fr/position=1', 's/fr/position=2', 's/fr/position=3']);
    cases.forEach((c, position) => {
      assert.equal(c.documents[position]!.text, 'Paris is the capital of France.');
      assert.equal(c.documents[position]!.role, 'positive');
      assert.equal(stressCaseParams(c).position, position);
    });
    const distractorOrder = (c: EvalCase) => c.documents.filter((d) => d.role === 'negative').map((d) => d.text);
    assert.deepEqual(distractorOrder(cases[3]!), distractorOrder(cases[0]!));
    assert.deepEqual([...distractorOrder(cases[0]!)].sort(), ['Canada has ten provinces.', 'Maple syrup comes from Quebec.', 'Mount Fuji is the highest mountain in Japan.']);
  });

  it('runs with fewer positions when the pool has fewer than k distractors, and records it', () => {
    const cases = build(ROWS[0]!, { testbed: 'position', k: 6 });
    assert.equal(cases.length, 4);
    assert.equal(stressCaseParams(cases[0]!).distractorsRequested, 6);
    assert.equal(stressCaseParams(cases[0]!).distractorsDrawn, 3);
  });
});

describe('information integration', () => {
  const data = {
    id: 'sb', user_input: 'Where was Super Bowl LV played and who won it?', answer_parts: ['Tampa', ['Buccaneers', 'Bucs']],
    retrieved_contexts: ['Super Bowl LV was played in Tampa.', 'The Bucs beat the Chiefs 31-9.', 'Tickets were expensive.'],
  };

  it('gives each answer part its own passages (RGB\'s first-of-every-part rule)', () => {
    const [c] = build(data, { testbed: 'information_integration', noiseRates: [0], passageNum: 2 });
    assert.deepEqual(texts(c!, 'positive'), ['Super Bowl LV was played in Tampa.', 'The Bucs beat the Chiefs 31-9.']);
    assert.deepEqual(c!.documents.map((d) => d.source).sort(), ['contexts[0]', 'contexts[1]']);
  });

  it('reports a one-part reference at the row\'s line', () => {
    assert.throws(() => build(ROWS[0]!, { testbed: 'information_integration' }), (e: unknown) => e instanceof InputError && e.position.line === 1 && /several parts/.test(e.message));
  });

  it('reports parts found only together in one passage', () => {
    const together = { ...data, retrieved_contexts: ['In Tampa the Bucs won.', 'Tickets were expensive.'] };
    assert.throws(() => build(together, { testbed: 'information_integration' }), /found in no passage, or only together with another part/);
  });
});

describe('answer-bearing passages named by the row (answer_bearing), for paraphrased answers', () => {
  const paraphrased = {
    id: 'fr2', user_input: 'What is the capital of France?', reference: 'Paris',
    retrieved_contexts: ['France is governed from the City of Light.', 'France borders Spain.'], answer_bearing: [0],
  };

  it('uses the named passages as positives, and records the rule', () => {
    const [c] = build(paraphrased, { testbed: 'noise_robustness', noiseRates: [0], passageNum: 1 });
    assert.deepEqual(c!.documents.map((d) => [d.role, d.text]), [['positive', 'France is governed from the City of Light.']]);
    assert.equal(stressCaseParams(c!).answerBearingRule, 'column');
    assert.equal(stressCaseParams(build(ROWS[0]!, { testbed: 'noise_robustness', noiseRates: [0] })[0]!).answerBearingRule, 'match');
  });

  it('keeps named passages out of the pool', () => {
    const pool = poolFromRows([{ index: 0, data: paraphrased }]);
    assert.deepEqual(pool.items.map((d) => d.text), ['France borders Spain.']);
  });

  it('cannot put a fake answer in a passage that paraphrases the answer: says so and points to generated data', () => {
    assert.throws(() => build({ ...paraphrased, fake_answer: 'Lyon' }, { testbed: 'counterfactual_robustness' }), /does not contain the reference word for word.*generate-counterfactual/);
  });

  it('an index outside the passages is reported with the range', () => {
    assert.throws(() => build({ ...paraphrased, answer_bearing: [2] }, { testbed: 'noise_robustness' }), /"answer_bearing": expected a non-empty list of passage indexes from 0 to 1, got \[2\]/);
  });
});

describe('rows that cannot be used', () => {
  it('a row whose passages never contain the reference is reported at its line, naming the rule', () => {
    const data = { user_input: 'Who wrote Hamlet?', reference: 'Shakespeare', retrieved_contexts: ['Hamlet is a tragedy.'] };
    assert.throws(() => build(data, { testbed: 'noise_robustness' }), (e: unknown) => e instanceof InputError && e.position.file === FILE && e.position.line === 1 && /none of the 1 retrieved passages contains the reference answer "Shakespeare"/.test(e.message));
  });

  it('a row lacking a column is reported with the accepted names', () => {
    assert.throws(() => build({ query: 'x', retrieved_contexts: ['x'], reference: 'x' }, { testbed: 'noise_robustness' }), (e: unknown) => e instanceof InputError && /^stress row "user_input": missing: expected one of user_input, question \(columns present: query, retrieved_contexts, reference\)$/.test(e.message));
    assert.throws(() => build({ user_input: 'x', passages: ['x'], reference: 'x' }, { testbed: 'noise_robustness' }), /expected one of retrieved_contexts, contexts/);
    assert.throws(() => build({ user_input: 'x', retrieved_contexts: ['x'], answer: 'x' }, { testbed: 'noise_robustness' }), /expected one of reference, ground_truth, ground_truths/);
  });
});
