// Judge passes with an in-test ModelClient: Rej*, ED*, failure labels; failures become judge errors, never 0.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../src/core/model.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { SUITE_ID, build, find, params, plainRow, result, score, scriptedJudge } from './builders.js';

const rejectionRaw = { testbed: 'negative_rejection' };
const rejectionCases = [0, 1, 2].map((i) => build(plainRow('Tampa, Florida', 3, 7, i), rejectionRaw)[0] as EvalCase);

describe('Rej* (negative rejection)', () => {
  it('counts a rejection when the judge says "not addressed", with its output as the explanation', async () => {
    const judge = scriptedJudge(() => 'No, the question is not addressed by the documents.');
    const scores = await score(rejectionCases[0]!, 'The documents do not say.', params(rejectionRaw), judge);
    const star = find(scores, 'rej_star');
    assert.equal(star.value, 1);
    assert.equal(star.pass, true);
    assert.equal(star.explanation, 'No, the question is not addressed by the documents.');
    assert.equal(find(scores, 'rejected').value, 0, 'the exact-match Rej misses the paraphrased refusal');
    assert.deepEqual(judge.temperatures, [0]);
    assert.ok(judge.prompts[0]!.endsWith(`Question: ${rejectionCases[0]!.question}\nAnswer: The documents do not say.`));
  });

  it('"Yes, … addressed" is not a rejection', async () => {
    const judge = scriptedJudge(() => 'Yes, the question is addressed by the documents.');
    const star = find(await score(rejectionCases[0]!, 'Glendale.', params(rejectionRaw), judge), 'rej_star');
    assert.equal(star.value, 0);
  });

  it('a judge that throws gives judgeError and value null, and the report keeps it out of the denominator', async () => {
    const p = params(rejectionRaw);
    const failing = scriptedJudge(() => {
      throw new Error('429 rate limited');
    });
    const saying = (text: string) => scriptedJudge(() => text);
    const s0 = await score(rejectionCases[0]!, 'I can not answer.', p, saying('No, the question is not addressed by the documents.'));
    const s1 = await score(rejectionCases[1]!, 'Glendale.', p, saying('Yes, the question is addressed by the documents.'));
    const s2 = await score(rejectionCases[2]!, 'Hmm.', p, failing);
    const broken = find(s2, 'rej_star');
    assert.equal(broken.value, null);
    assert.match(broken.judgeError ?? '', /429 rate limited/);
    assert.equal(broken.pass, undefined);
    const cases = new Map(rejectionCases.map((c) => [c.id, c]));
    const report = rgbSuite.report(cases, [result(rejectionCases[0]!.id, 'm', s0), result(rejectionCases[1]!.id, 'm', s1), result(rejectionCases[2]!.id, 'm', s2)], p, SUITE_ID);
    const rejStar = report.tables[0]!.rows.find((r) => r.label === 'Rej*')!.cells[0]!;
    assert.equal(rejStar.value, 0.5, '1 of 2 determined, not 1 of 3');
    assert.equal(rejStar.n, 2);
    assert.equal(rejStar.undetermined, 1);
    assert.deepEqual(report.metrics.find((m) => m.name === 'rej_star'), { suiteId: SUITE_ID, modelKey: 'm', name: 'rej_star', value: 0.5, n: 2 });
  });

  it('no judge configured: no rej_star score, and the report says a judge is needed', async () => {
    const p = params(rejectionRaw);
    const scores = await score(rejectionCases[0]!, 'x', p);
    assert.deepEqual(scores.map((s) => s.metric), ['correct', 'rejected']);
    const report = rgbSuite.report(new Map([[rejectionCases[0]!.id, rejectionCases[0]!]]), [result(rejectionCases[0]!.id, 'm', scores)], p, SUITE_ID);
    assert.ok(report.notes.some((n) => n.includes('Rej* needs a judge model')));
    assert.equal(report.metrics.some((m) => m.name === 'rej_star'), false);
  });

  it('params.judge.rejection: false skips the call', async () => {
    const judge = scriptedJudge(() => 'not addressed');
    const scores = await score(rejectionCases[0]!, 'x', params({ ...rejectionRaw, judge: { rejection: false } }), judge);
    assert.equal(judge.prompts.length, 0);
    assert.equal(scores.some((s) => s.metric === 'rej_star'), false);
  });
});

describe('ED* and CR* (counterfactual robustness)', () => {
  const raw = { testbed: 'counterfactual_robustness' };
  const row = (id: number) => ({
    id, query: 'Super Bowl 2021 location', answer: 'Tampa, Florida', fakeanswer: 'Glendale, Arizona',
    positive: ['In Tampa, Florida.'], positive_wrong: ['In Glendale, Arizona.'], negative: [],
  });
  const cases = [0, 1, 2].map((i) => build(row(i), raw)[0] as EvalCase);

  it('counts "has identified" or "Yes"; CR* = detected and correct over detected', async () => {
    const p = params(raw);
    const outputs = ['Yes, the model has identified the factual errors.', 'Yes.', 'NO, the model fail to identify the factual errors.'];
    const responses = ['The documents are wrong; it was Tampa, Florida.', 'Glendale, Arizona.', 'Tampa, Florida.'];
    const results = [];
    for (const [i, evalCase] of cases.entries()) {
      const scores = await score(evalCase, responses[i]!, p, scriptedJudge(() => outputs[i]!));
      results.push(result(evalCase.id, 'm', scores));
    }
    assert.deepEqual(results.map((r) => find(r.scores, 'ed_star').value), [1, 1, 0]);
    assert.deepEqual(results.map((r) => find(r.scores, 'factual_error_detected').value), [0, 0, 0]);
    const report = rgbSuite.report(new Map(cases.map((c) => [c.id, c])), results, p, SUITE_ID);
    const value = (name: string) => report.metrics.find((m) => m.name === name)?.value;
    assert.equal(value('ed_star'), 2 / 3);
    assert.equal(value('cr_star'), 1 / 2);
    assert.equal(value('ed'), 0);
    assert.equal(value('cr'), 0);
  });

  it('the judge reads the response with spaces removed for zh, as the reference stored it', async () => {
    const judge = scriptedJudge(() => 'NO');
    await score(cases[0]!, 'A B C', params({ ...raw, language: 'zh' }), judge);
    assert.ok(judge.prompts[0]!.endsWith('Answer: ABC'));
  });
});

describe('failure labels (optional)', () => {
  const raw = { testbed: 'noise_robustness', noiseRates: [0.4], judge: { failureLabels: true } };
  const [evalCase] = build(plainRow('Tampa, Florida', 3, 7), raw);

  it('labels a wrong answer from the judge JSON, and leaves correct answers alone', async () => {
    const judge = scriptedJudge(() => '```json\n{"label": "concept_confusion", "explanation": "It answered about Super Bowl LVII (d1)."}\n```');
    const wrong = await score(evalCase!, 'Glendale, Arizona.', params(raw), judge);
    const label = find(wrong, 'failure_label');
    assert.equal(label.label, 'concept_confusion');
    assert.equal(label.value, null);
    assert.match(label.explanation ?? '', /Super Bowl LVII/);
    const right = await score(evalCase!, 'Tampa, Florida.', params(raw), judge);
    assert.equal(right.some((s) => s.metric === 'failure_label'), false);
    assert.equal(judge.prompts.length, 1);
  });

  it('an unknown label or broken JSON is a judge error, after the one repair attempt every JSON judge answer gets', async () => {
    const unknownLabel = scriptedJudge(() => '{"label": "merging_error", "explanation": "x"}');
    const bad = find(await score(evalCase!, 'Glendale.', params(raw), unknownLabel), 'failure_label');
    assert.match(bad.judgeError ?? '', /\/label must be equal to one of the allowed values/, 'merging_error is an integration label, not a noise one');
    assert.equal(bad.value, null);
    assert.equal(unknownLabel.prompts.length, 2);
    for (const output of ['label: other', '{"label": "other"']) {
      const broken = find(await score(evalCase!, 'Glendale.', params(raw), scriptedJudge(() => output)), 'failure_label');
      assert.match(broken.judgeError ?? '', /not JSON/, output);
      assert.equal(broken.value, null);
      assert.deepEqual(broken.details, { output }, 'the unreadable answer is kept');
    }
  });

  it('the report shows failure-kind shares per model', async () => {
    const judge = scriptedJudge(() => '{"label": "evidence_uncertainty", "explanation": "speculation"}');
    const scores = await score(evalCase!, 'Glendale.', params(raw), judge);
    const report = rgbSuite.report(new Map([[evalCase!.id, evalCase!]]), [result(evalCase!.id, 'm', scores)], params(raw), SUITE_ID);
    const table = report.tables.find((t) => t.id === 'rgb-failure-labels')!;
    assert.equal(table.rows.find((r) => r.label === 'evidence_uncertainty')!.cells[0]!.value, 1);
    assert.equal(table.rows.find((r) => r.label === 'concept_confusion')!.cells[0]!.value, 0);
  });
});
