// Case building: the reference processdata rules on small rows, ids, seeds, roles and recorded parameters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { EvalCase } from '../../../src/core/model.js';
import { caseSeed, mulberry32, sample, shuffled } from '../../../src/core/random.js';
import { SUITE_ID, build, plainRow } from './builders.js';

function roles(evalCase: EvalCase): Record<string, number> {
  const count: Record<string, number> = {};
  for (const d of evalCase.documents) count[d.role] = (count[d.role] ?? 0) + 1;
  return count;
}

describe('plain rows (processdata)', () => {
  it('caps negatives and raises positives when negatives run short', () => {
    const [evalCase] = build(plainRow('Tampa, Florida', 6, 1), { testbed: 'noise_robustness', noiseRates: [0.8] });
    assert.deepEqual(roles(evalCase!), { positive: 4, negative: 1 });
    assert.equal(evalCase!.params.effectiveNoiseRate, 0.2);
  });

  it('takes the FIRST positives and negatives (only the order is random)', () => {
    const [evalCase] = build(plainRow('Tampa, Florida', 5, 5), { testbed: 'noise_robustness', noiseRates: [0.4] });
    const sources = evalCase!.documents.map((d) => d.source).sort();
    assert.deepEqual(sources, ['negative[0]', 'negative[1]', 'positive[0]', 'positive[1]', 'positive[2]']);
  });

  it('uses ceil(passageNum × rate) like Python: 7 × 0.2 = 1.4 → 2 negatives', () => {
    const [evalCase] = build(plainRow('Tampa, Florida', 9, 9), { testbed: 'noise_robustness', noiseRates: [0.2], passageNum: 7 });
    assert.deepEqual(roles(evalCase!), { positive: 5, negative: 2 });
  });

  it('at noise 1 uses negatives only, fewer documents when the row has fewer', () => {
    const [evalCase] = build(plainRow('Tampa, Florida', 3, 2), { testbed: 'negative_rejection' });
    assert.deepEqual(roles(evalCase!), { negative: 2 });
    assert.equal(evalCase!.params.effectiveNoiseRate, 1);
  });

  it('one case per ratio, ids deterministic, ids d0..dn-1 in shown order', () => {
    const built = build(plainRow('Tampa, Florida', 3, 7, 42), { testbed: 'noise_robustness' });
    assert.deepEqual(built.map((c) => c.id), [0, 0.2, 0.4, 0.6, 0.8].map((r) => `${SUITE_ID}/42/noise=${r}`));
    for (const evalCase of built) {
      assert.deepEqual(evalCase.documents.map((d) => d.id), evalCase.documents.map((_, i) => `d${i}`));
      assert.deepEqual(evalCase.params.order, evalCase.documents.map((d) => d.source));
      assert.equal(evalCase.seed, caseSeed(2333, evalCase.id));
      assert.equal(evalCase.params.seed, evalCase.seed);
      assert.equal(evalCase.method, 'rgb');
      assert.equal(evalCase.testbed, 'noise_robustness');
      assert.deepEqual(evalCase.variables.documents, evalCase.documents.map(({ id, text, role }) => ({ id, text, role })));
      assert.equal(evalCase.variables.question, evalCase.question);
      assert.deepEqual(evalCase.expected, { answer: [['Tampa, Florida']] });
    }
  });

  it('a row without an id uses its index in the file', () => {
    const { id: _drop, ...noId } = plainRow('x', 1, 1);
    const [evalCase] = build(noId, { testbed: 'noise_robustness', noiseRates: [0] });
    assert.match(evalCase!.id, new RegExp(`^${SUITE_ID}/${evalCase!.row.index}/noise=0$`));
  });
});

describe('integration rows', () => {
  const row = {
    id: 'int',
    query: 'Who won the 2022 and 2023 titles?',
    answer: ['Alpha', 'Beta'],
    positive: [['A0 Alpha', 'A1 Alpha', 'A2 Alpha'], ['B0 Beta']],
    negative: ['N0', 'N1', 'N2', 'N3', 'N4'],
  };

  it('first of each part, then round-robin until pos_num, then negatives', () => {
    const [evalCase] = build(row, { testbed: 'information_integration', noiseRates: [0] });
    // pos_num 5: A?, B0, then A-second, A-third (B has no more) → 4 positives, 1 negative fills up.
    assert.deepEqual(roles(evalCase!), { positive: 4, negative: 1 });
    assert.ok(evalCase!.documents.some((d) => d.source === 'negative[0]'));
    assert.equal(evalCase!.params.effectiveNoiseRate, 0.2);
  });

  it('takes the first of every part even past pos_num (noise 0.8 → pos_num 1, still 2 positives)', () => {
    const [evalCase] = build(row, { testbed: 'information_integration', noiseRates: [0.8] });
    assert.deepEqual(roles(evalCase!), { positive: 2, negative: 3 });
    assert.equal(evalCase!.params.effectiveNoiseRate, 0.6);
    const sources = evalCase!.documents.filter((d) => d.role === 'positive').map((d) => d.source!);
    assert.equal(sources.filter((s) => s.startsWith('positive[0]')).length, 1);
    assert.ok(sources.includes('positive[1][0]'));
  });

  it('shuffles inside each part with the seed: some seed picks another first passage of part 0', () => {
    const firsts = new Set<string>();
    for (let seed = 0; seed < 30; seed++) {
      const [evalCase] = build(row, { testbed: 'information_integration', noiseRates: [0.8] }, seed);
      firsts.add(evalCase!.documents.find((d) => d.source?.startsWith('positive[0]'))!.source!);
    }
    assert.ok(firsts.size > 1, [...firsts].join());
  });
});

describe('counterfactual rows', () => {
  const row = {
    id: 'cf',
    query: 'q',
    answer: 'True',
    fakeanswer: 'Fake',
    positive: ['P0 True', 'P1 True', 'P2 True', 'P3 True'],
    positive_wrong: ['P0 Fake', 'P1 Fake', 'P2 Fake', 'P3 Fake'],
    negative: ['N0', 'N1'],
  };

  it('correctRate mixes true positives from the indices not sampled as counterfactual', () => {
    const [evalCase] = build(row, { testbed: 'counterfactual_robustness', noiseRates: [0.2], correctRate: 0.4 });
    // neg 1, correct 2, pos_num 2 counterfactual.
    assert.deepEqual(roles(evalCase!), { counterfactual: 2, positive: 2, negative: 1 });
    const index = (s: string) => Number(/\[(\d+)\]/.exec(s)![1]);
    const wrong = evalCase!.documents.filter((d) => d.role === 'counterfactual').map((d) => index(d.source!));
    const right = evalCase!.documents.filter((d) => d.role === 'positive').map((d) => index(d.source!));
    assert.equal(new Set([...wrong, ...right]).size, 4, 'a passage never appears both true and rewritten');
    assert.deepEqual(evalCase!.expected, { answer: [['True']], fakeanswer: [['Fake']] });
  });

  it('fake answer spans only in counterfactual passages, answer spans anywhere', () => {
    const [evalCase] = build(row, { testbed: 'counterfactual_robustness', noiseRates: [0.2], correctRate: 0.4 });
    for (const d of evalCase!.documents) {
      const kinds = d.spans.map((s) => s.kind);
      if (d.role === 'counterfactual') assert.deepEqual(kinds, ['counterfactual']);
      if (d.role === 'positive') assert.deepEqual(kinds, ['answer']);
      if (d.role === 'negative') assert.deepEqual(kinds, []);
    }
  });
});

describe('row validation', () => {
  const bad = (data: Record<string, unknown>, testbed: string, field: RegExp) => {
    assert.throws(() => build(data, { testbed }), (e: unknown) => e instanceof InputError && field.test(e.message) && e.position.line !== undefined);
  };
  it('names the missing or malformed field, with the row position', () => {
    bad({ query: 'q', answer: 'a', positive: [] }, 'noise_robustness', /"negative": missing/);
    bad({ query: 'q', positive: [], negative: [] }, 'noise_robustness', /"answer": missing/);
    bad({ query: 'q', answer: 'a', positive: ['p'], negative: [] }, 'information_integration', /"positive\[0\]": expected a list/);
    bad({ query: 'q', answer: 'a', positive: [[]], negative: [] }, 'information_integration', /"positive\[0\]": empty/);
    bad({ query: 'q', answer: 'a', positive: ['p'], negative: [] }, 'counterfactual_robustness', /"positive_wrong": missing/);
    bad({ query: 'q', answer: 'a', fakeanswer: 'f', positive: ['p'], positive_wrong: [], negative: [] }, 'counterfactual_robustness', /index-aligned/);
    bad({ query: 'q', answer: [1], positive: [], negative: [] }, 'noise_robustness', /"answer\[0\]"/);
  });
  it('reads a bare-string answer as one part', () => {
    const [evalCase] = build({ query: 'q', answer: 'Paris', positive: ['Paris'], negative: [] }, { testbed: 'noise_robustness', noiseRates: [0] });
    assert.deepEqual(evalCase!.expected, { answer: [['Paris']] });
  });
});

describe('prng', () => {
  it('is deterministic per seed and shuffles/samples without loss', () => {
    const items = Array.from({ length: 20 }, (_, i) => i);
    assert.deepEqual(shuffled(items, mulberry32(7)), shuffled(items, mulberry32(7)));
    assert.notDeepEqual(shuffled(items, mulberry32(7)), shuffled(items, mulberry32(8)));
    assert.deepEqual(shuffled(items, mulberry32(1)).sort((a, b) => a - b), items);
    const picked = sample(items, 5, mulberry32(3));
    assert.equal(new Set(picked).size, 5);
    assert.equal(sample(items, 50, mulberry32(3)).length, 20);
  });
  it('derives different seeds for different case ids and run seeds', () => {
    assert.notEqual(caseSeed(1, 'a/0/noise=0'), caseSeed(1, 'a/0/noise=0.2'));
    assert.notEqual(caseSeed(1, 'a/0/noise=0'), caseSeed(2, 'a/0/noise=0'));
    assert.equal(caseSeed(1, 'a/0/noise=0'), caseSeed(1, 'a/0/noise=0'));
  });
});
