// METHODS.md §1 worked examples, to the digit, through the suite's own expandRow → score → report.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { SUITE_ID, build, find, params, plainRow, result, score } from './builders.js';

type Scored = { evalCase: EvalCase; result: CaseResult };

async function runAll(cases: EvalCase[], responses: string[], raw: Record<string, unknown>, modelKey = 'm:one'): Promise<Scored[]> {
  const p = params(raw);
  const out: Scored[] = [];
  for (const [i, evalCase] of cases.entries()) {
    out.push({ evalCase, result: result(evalCase.id, modelKey, await score(evalCase, responses[i] as string, p)) });
  }
  return out;
}

function reportOf(scored: Scored[], raw: Record<string, unknown>) {
  const cases = new Map(scored.map((s) => [s.evalCase.id, s.evalCase]));
  return rgbSuite.report(cases, scored.map((s) => s.result), params(raw), SUITE_ID);
}

function metricValue(report: ReturnType<typeof reportOf>, name: string): number | null {
  const found = report.metrics.find((m) => m.name === name);
  assert.ok(found, `metric ${name} missing`);
  return found.value;
}

function labelsOf(scored: Scored): unknown {
  return (find(scored.result.scores, 'correct').details as { labels: number[] }).labels;
}

describe('worked example 1: noise robustness, "Tampa, Florida"', () => {
  const raw = { testbed: 'noise_robustness', noiseRates: [0.4] };
  const responses = [
    'The Super Bowl LV was held in Tampa, Florida.',
    'It took place in tampa, florida',
    'Tampa Bay hosted it',
    'Insufficient information to answer.',
  ];
  const cases = responses.map((_, i) => build(plainRow('Tampa, Florida', 3, 7, i), raw)[0] as EvalCase);

  it('takes 3 positives and 2 negatives at noise 0.4 of 5 passages', () => {
    for (const evalCase of cases) {
      assert.equal(evalCase.documents.length, 5);
      assert.equal(evalCase.documents.filter((d) => d.role === 'positive').length, 3);
      assert.equal(evalCase.documents.filter((d) => d.role === 'negative').length, 2);
      assert.equal(evalCase.params.effectiveNoiseRate, 0.4);
    }
  });

  it('labels [1], [1], [0], [0] — the capital-I "Insufficient" is no rejection — and accuracy 0.5', async () => {
    const scored = await runAll(cases, responses, raw);
    assert.deepEqual(scored.map(labelsOf), [[1], [1], [0], [0]]);
    assert.match(find(scored[3]!.result.scores, 'correct').explanation ?? '', /'insufficient information' in another case/);
    const report = reportOf(scored, raw);
    assert.equal(metricValue(report, 'accuracy'), 0.5);
    assert.equal(metricValue(report, 'accuracy@0.4'), 0.5);
    const cell = report.tables[0]!.rows[0]!.cells[0]!;
    assert.equal(cell.value, 0.5);
    assert.equal(cell.n, 4);
    assert.ok(cell.low! < 0.5 && cell.high! > 0.5);
    assert.ok(report.notes.some((n) => n.startsWith('Reference mode')));
  });

  it('strict mode turns the capital-I response into a rejection ([-1])', async () => {
    const strict = { ...raw, strict: true };
    const scored = await runAll(cases, responses, strict);
    assert.deepEqual(scored.map(labelsOf), [[1], [1], [0], [-1]]);
    assert.ok(reportOf(scored, strict).notes.some((n) => n.startsWith('Strict mode')));
  });

  it('with 2 positives and 10 negatives at noise 0.2 uses 2 + 3: effective noise 0.6, and the report says so', async () => {
    const raw2 = { testbed: 'noise_robustness', noiseRates: [0.2] };
    const [evalCase] = build(plainRow('Tampa, Florida', 2, 10, 'short'), raw2);
    assert.ok(evalCase);
    assert.equal(evalCase.params.positives, 2);
    assert.equal(evalCase.params.negatives, 3);
    assert.equal(evalCase.params.noiseRate, 0.2);
    assert.equal(evalCase.params.effectiveNoiseRate, 0.6);
    const scored = await runAll([evalCase], ['Tampa, Florida'], raw2);
    const report = reportOf(scored, raw2);
    assert.ok(report.notes.some((n) => n.includes('Noise ratio 0.2') && n.includes('1 at 0.6')), report.notes.join('\n'));
  });
});

describe('negative rejection: Rej in reference and strict mode', () => {
  const raw = { testbed: 'negative_rejection' };
  const responses = [
    'I can not answer the question because of the insufficient information in documents.',
    'It was held in Tampa, Florida.',
    'Insufficient information in the documents.',
    'Glendale, Arizona.',
  ];
  const cases = responses.map((_, i) => build(plainRow('Tampa, Florida', 3, 7, i), raw)[0] as EvalCase);

  it('uses only negatives at noise 1', () => {
    for (const evalCase of cases) assert.deepEqual(evalCase.documents.map((d) => d.role), ['negative', 'negative', 'negative', 'negative', 'negative']);
  });

  it('reference: a correct answer counts as a rejection, the capital-I one does not → Rej 2/4', async () => {
    const scored = await runAll(cases, responses, raw);
    assert.deepEqual(scored.map((s) => find(s.result.scores, 'rejected').value), [1, 1, 0, 0]);
    assert.match(find(scored[1]!.result.scores, 'rejected').explanation ?? '', /issue #9/);
    assert.equal(metricValue(reportOf(scored, raw), 'rej'), 0.5);
  });

  it('strict: rejections only, in any case → Rej 2/4 from the other two', async () => {
    const strict = { ...raw, strict: true };
    const scored = await runAll(cases, responses, strict);
    assert.deepEqual(scored.map((s) => find(s.result.scores, 'rejected').value), [1, 0, 1, 0]);
    assert.equal(metricValue(reportOf(scored, strict), 'rej'), 0.5);
  });
});

describe('worked example 2: zh integration, spaces removed', () => {
  const raw = { testbed: 'information_integration', language: 'zh', noiseRates: [0] };
  const oath = {
    id: 'oath',
    query: '第118届国会的宣誓仪式和首次会议分别在哪天？',
    answer: ['1月3日', '1月12日'],
    positive: [['宣誓仪式于1月3日举行。', '1月3日，议员宣誓就职。'], ['首次会议定于1月12日。']],
    negative: ['国会大厦位于华盛顿。', '众议院共有435个席位。', '参议院共有100个席位。'],
  };
  const cars = {
    id: 'cars',
    query: '2022年特斯拉和比亚迪的新能源车交付量分别是多少？',
    answer: [['1313851', '131万'], ['187万', '186.35万']],
    positive: [['特斯拉2022年交付1313851辆。'], ['比亚迪2022年销售186.35万辆。']],
    negative: ['蔚来2022年交付12.2万辆。', '理想2022年交付13.3万辆。', '小鹏2022年交付12.1万辆。'],
  };
  const cases = [...build(oath, raw), ...build({ ...oath, id: 'oath-2' }, raw), ...build(cars, raw)];
  const responses = ['宣誓仪式在1月3日举行，首次会议在1月12日举行。', '宣誓仪式在1月3日举行。', '特斯拉交付131万辆，比亚迪交付186.35 万辆'];

  it('labels [1,1], [1,0], [1,1] and accuracy 2/3', async () => {
    const scored = await runAll(cases, responses, raw);
    assert.deepEqual(scored.map(labelsOf), [[1, 1], [1, 0], [1, 1]]);
    assert.match(find(scored[1]!.result.scores, 'correct').explanation ?? '', /answer part 2 of 2 \('1月12日'\) not found/);
    assert.equal(metricValue(reportOf(scored, raw), 'accuracy'), 2 / 3);
  });

  it('without space removal (en) "186.35 万" misses part 2', async () => {
    const en = { ...raw, language: 'en' };
    const scored = await runAll([cases[2] as EvalCase], [responses[2] as string], en);
    assert.deepEqual(labelsOf(scored[0]!), [1, 0]);
  });
});

describe('worked example 3: counterfactual robustness', () => {
  const raw = { testbed: 'counterfactual_robustness' };
  const row = (id: number) => ({
    id,
    query: 'Super Bowl 2021 location',
    answer: 'Tampa, Florida',
    fakeanswer: 'Glendale, Arizona',
    positive: ['Raymond James Stadium in Tampa, Florida hosted it.', 'It moved to Tampa, Florida.', 'Played in Tampa, Florida.'],
    positive_wrong: ['Raymond James Stadium in Glendale, Arizona hosted it.', 'It moved to Glendale, Arizona.', 'Played in Glendale, Arizona.'],
    negative: ['Super Bowl LVIII is in Las Vegas.', 'Tickets on sale.'],
  });
  const cases = [0, 1, 2].map((i) => build(row(i), raw)[0] as EvalCase);
  const responses = [
    'There are factual errors in the provided documents. The correct answer is Tampa, Florida.',
    'It was in Glendale, Arizona.',
    'There are factual errors in the provided documents.',
  ];

  it('shows only the counterfactual passages at noise 0, correct_rate 0', () => {
    for (const evalCase of cases) {
      assert.deepEqual(evalCase.documents.map((d) => d.role), ['counterfactual', 'counterfactual', 'counterfactual']);
      assert.equal(evalCase.params.counterfactuals, 3);
    }
  });

  it('labels [1] fact 1, [0] fact 0, [0] fact 1 → ED 2/3, CR 1/2, accuracy 1/3', async () => {
    const scored = await runAll(cases, responses, raw);
    assert.deepEqual(scored.map(labelsOf), [[1], [0], [0]]);
    assert.deepEqual(scored.map((s) => find(s.result.scores, 'factual_error_detected').value), [1, 0, 1]);
    const report = reportOf(scored, raw);
    assert.equal(metricValue(report, 'ed'), 2 / 3);
    assert.equal(metricValue(report, 'cr'), 1 / 2);
    assert.equal(metricValue(report, 'accuracy'), 1 / 3);
    assert.equal(metricValue(report, 'acc_doc'), 1 / 3);
    const table = report.tables[0]!;
    assert.deepEqual(table.rows.map((r) => r.label), ['Acc', 'Acc_doc', 'ED', 'ED*', 'CR', 'CR*']);
    assert.equal(table.rows[4]!.cells[0]!.value, 0.5);
    assert.equal(table.rows[4]!.cells[0]!.n, 2);
  });

  it('CR is 0 (not undefined) when no case flagged an error, as the reference', async () => {
    const scored = await runAll([cases[1] as EvalCase], [responses[1] as string], raw);
    assert.equal(metricValue(reportOf(scored, raw), 'cr'), 0);
  });

  it('withoutDocuments adds a /nodocs case with no documents that feeds the Acc row', async () => {
    const withNoDocs = { ...raw, withoutDocuments: true };
    const built = build(row(7), withNoDocs);
    assert.deepEqual(built.map((c) => c.id), [`${SUITE_ID}/7/noise=0`, `${SUITE_ID}/7/nodocs`]);
    const noDocs = built[1]!;
    assert.equal(noDocs.documents.length, 0);
    assert.equal(noDocs.params.noDocuments, true);
    const scored = await runAll(built, ['There are factual errors in the provided documents.', 'Tampa, Florida.'], withNoDocs);
    assert.deepEqual(scored[1]!.result.scores.map((s) => s.metric), ['correct']);
    const report = reportOf(scored, withNoDocs);
    assert.equal(metricValue(report, 'acc_nodoc'), 1);
    assert.equal(metricValue(report, 'acc_doc'), 0);
    assert.equal(report.tables[0]!.rows[0]!.cells[0]!.value, 1);
  });
});
