// A weak judge that answers neither verdict: counted as the reference counts it, but never silently — the tables show
// how many matched neither, strict: true makes them judge errors, and a CR* cell over no case is "—".
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvalCase } from '../../../src/core/model.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { formatCell } from '../../../src/core/report/summaryText.js';
import { SUITE_ID, build, find, params, plainRow, result, score, scriptedJudge } from './builders.js';

const GARBAGE = 'As an AI model I think the documents are about sports.';

describe('Rej*: a judge answer with neither "not addressed" nor "addressed"', () => {
  const raw = { testbed: 'negative_rejection' };
  const cases = [0, 1, 2].map((i) => build(plainRow('Tampa, Florida', 3, 7, i), raw)[0] as EvalCase);
  const outputs = ['No, the question is not addressed by the documents.', GARBAGE, GARBAGE];

  async function report(strict: boolean) {
    const p = params({ ...raw, strict });
    const results = [];
    for (const [i, evalCase] of cases.entries()) results.push(result(evalCase.id, 'm', await score(evalCase, 'I cannot answer.', p, scriptedJudge(() => outputs[i]!))));
    return { results, report: rgbSuite.report(new Map(cases.map((c) => [c.id, c])), results, p, SUITE_ID) };
  }

  it('by default scores 0 as the reference does, labelled, and the table shows how many matched neither', async () => {
    const { results, report: built } = await report(false);
    const garbage = find(results[1]!.scores, 'rej_star');
    assert.equal(garbage.value, 0);
    assert.equal(garbage.label, 'neither-verdict');
    assert.match(garbage.explanation ?? '', /matched neither verdict/);
    const cell = built.tables[0]!.rows.find((r) => r.label === 'Rej*')!.cells[0]!;
    assert.equal(cell.value, 1 / 3, 'the reference counting: 1 rejection of 3');
    assert.equal(cell.unmatched, 2);
    assert.match(formatCell(cell), /^0\.333 \[0\.061, 0\.792\] n=3 \(2 matched neither verdict\)$/);
    assert.equal(built.metrics.find((m) => m.name === 'rej_star')?.value, 1 / 3);
  });

  it('strict: true makes them judge errors, out of the denominator', async () => {
    const { results, report: built } = await report(true);
    const garbage = find(results[1]!.scores, 'rej_star');
    assert.equal(garbage.value, null);
    assert.match(garbage.judgeError ?? '', /matched neither verdict/);
    const cell = built.tables[0]!.rows.find((r) => r.label === 'Rej*')!.cells[0]!;
    assert.equal(cell.value, 1);
    assert.equal(cell.n, 1);
    assert.equal(cell.undetermined, 2);
  });
});

describe('ED* and the CR* cell', () => {
  const raw = { testbed: 'counterfactual_robustness' };
  const row = (id: number) => ({
    id, query: 'Super Bowl 2021 location', answer: 'Tampa, Florida', fakeanswer: 'Glendale, Arizona',
    positive: ['In Tampa, Florida.'], positive_wrong: ['In Glendale, Arizona.'], negative: [],
  });
  const cases = [0, 1].map((i) => build(row(i), raw)[0] as EvalCase);

  it('garbage is counted as not detected and shown; CR* over no detected case is "—", not "0 [0, 1] n=0"', async () => {
    const p = params(raw);
    const results = [];
    for (const evalCase of cases) results.push(result(evalCase.id, 'm', await score(evalCase, 'Tampa, Florida.', p, scriptedJudge(() => GARBAGE))));
    assert.deepEqual(results.map((r) => find(r.scores, 'ed_star').label), ['neither-verdict', 'neither-verdict']);
    const built = rgbSuite.report(new Map(cases.map((c) => [c.id, c])), results, p, SUITE_ID);
    const table = built.tables[0]!;
    const cellOf = (label: string) => table.rows.find((r) => r.label === label)!.cells[0]!;
    assert.equal(cellOf('ED*').unmatched, 2);
    assert.equal(formatCell(cellOf('CR*')), '—');
    assert.equal(built.metrics.find((m) => m.name === 'cr_star')?.value, 0, 'the metric stays the reference 0');
  });

  it('"NO, the model fail to identify…" is the negative verdict, not "neither"', async () => {
    const scores = await score(cases[0]!, 'Glendale.', params(raw), scriptedJudge(() => 'NO, the model fail to identify the factual errors.'));
    assert.equal(find(scores, 'ed_star').label, 'not-detected');
  });
});
