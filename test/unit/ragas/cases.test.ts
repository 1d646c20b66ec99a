// RAGAS parameters and case building: aliases, given responses, the metrics a row allows, document roles, precise errors.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import { ragasCaseParams, ragasExpected } from '../../../src/core/suites/ragas/cases.js';
import { build, params } from './builders.js';

describe('params', () => {
  it('defaults: every metric the row allows, strictness 3, the "all" rule, the reference AP form, relevant noise mode', () => {
    assert.deepEqual(params(), {
      metrics: undefined,
      answerRelevancy: { strictness: 3, noncommittal: 'all', temperature: 0.3 },
      contextPrecision: { exact: false },
      noiseSensitivity: { mode: 'relevant' },
    });
  });

  it('noise_sensitivity in the list stands for the configured mode', () => {
    assert.deepEqual(params({ metrics: ['noise_sensitivity', 'faithfulness'], noiseSensitivity: { mode: 'irrelevant' } }).metrics, ['noise_sensitivity_irrelevant', 'faithfulness']);
  });

  it('bad keys are named with a hint', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ metric: ['faithfulness'] }, /params\.metric: unknown parameter/],
      [{ metrics: ['faithfullness'] }, /params\.metrics\[0\]: unknown metric "faithfullness"/],
      [{ metrics: ['faithfulness', 'faithfulness'] }, /listed twice/],
      [{ answerRelevancy: { strictness: 0 } }, /answerRelevancy\.strictness: expected a whole number from 1 to 10/],
      [{ answerRelevancy: { noncommittal: 'some' } }, /answerRelevancy\.noncommittal: expected one of all, any/],
      [{ contextPrecision: { exact: 'yes' } }, /contextPrecision\.exact: expected true or false/],
      [{ noiseSensitivity: { mode: 'both' } }, /noiseSensitivity\.mode: expected one of relevant, irrelevant/],
    ];
    for (const [raw, message] of cases) assert.throws(() => params(raw), (e: unknown) => e instanceof InputError && message.test(e.message));
  });
});

describe('rows', () => {
  const base = { user_input: 'Q?', retrieved_contexts: ['A.', 'B.'] };

  it('a row with a response holds it as the given response; the documents are the contexts in order', () => {
    const c = build({ ...base, id: 7, response: 'Answer.', reference: 'Ref.' });
    assert.equal(c.id, 'ragas-test/7');
    assert.equal(c.givenResponse, 'Answer.');
    assert.equal(ragasCaseParams(c).givenResponse, true);
    assert.deepEqual(c.documents.map((d) => [d.id, d.text, d.source]), [['d0', 'A.', 'retrieved_contexts[0]'], ['d1', 'B.', 'retrieved_contexts[1]']]);
    assert.deepEqual(c.variables.question, 'Q?');
    assert.equal(ragasExpected(c).reference, 'Ref.');
  });

  it('without a response the model under test answers: no given response', () => {
    const c = build(base);
    assert.equal(c.givenResponse, undefined);
    assert.equal(ragasCaseParams(c).givenResponse, false);
  });

  it('ragas 0.1 names are accepted (question, contexts, answer, ground_truth)', () => {
    const c = build({ question: 'Q?', contexts: ['A.'], answer: 'X', ground_truth: 'G' });
    assert.equal(c.question, 'Q?');
    assert.equal(c.givenResponse, 'X');
    assert.equal(ragasExpected(c).reference, 'G');
  });

  it('default metrics follow the fields: no reference → no precision, recall or noise sensitivity', () => {
    assert.deepEqual(ragasCaseParams(build(base)).metrics, ['faithfulness', 'answer_relevancy', 'context_utilization', 'context_relevance']);
    assert.deepEqual(ragasCaseParams(build({ ...base, reference: 'R' })).metrics, ['faithfulness', 'answer_relevancy', 'context_precision', 'context_utilization', 'context_recall', 'context_relevance', 'noise_sensitivity_relevant']);
  });

  it('an asked-for metric the row cannot feed is recorded as skipped with the reason', () => {
    const c = build(base, { metrics: ['context_recall', 'faithfulness'] });
    assert.deepEqual(ragasCaseParams(c).metrics, ['faithfulness']);
    assert.deepEqual(ragasCaseParams(c).skipped, [{ metric: 'context_recall', reason: 'the row has no reference (ground truth)' }]);
  });

  it('document roles: a context equal to a reference context starts as positive; without hints every context starts negative, and the case says so', () => {
    const hinted = build({ ...base, reference_contexts: ['B.'] });
    assert.deepEqual(hinted.documents.map((d) => d.role), ['negative', 'positive']);
    assert.equal(ragasCaseParams(hinted).roleSource, 'reference_contexts');
    assert.equal(ragasCaseParams(build(base)).roleSource, 'none');
  });

  it('human scores from human_scores or human_<metric> columns (CSV numbers as strings too)', () => {
    const c = build({ ...base, human_scores: { faithfulness: 0.8 }, human_context_recall: '0.5' });
    assert.deepEqual(ragasExpected(c).humanScores, { faithfulness: 0.8, context_recall: 0.5 });
  });

  it('rows the method cannot use are refused with the field named', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ retrieved_contexts: ['A'] }, /user_input: missing/],
      [{ user_input: 'Q' }, /retrieved_contexts: missing/],
      [{ user_input: 'Q', retrieved_contexts: [] }, /retrieved_contexts: is an empty list/],
      [{ user_input: 'Q', retrieved_contexts: 'A' }, /expected a list of strings/],
      [{ user_input: 'Q', retrieved_contexts: ['A', 3] }, /retrieved_contexts\[1\]: expected a string/],
      [{ user_input: 'Q', question: 'Other', retrieved_contexts: ['A'] }, /question: differs from user_input/],
      [{ ...base, human_scores: { faithfulness: 'high' } }, /human_scores\.faithfulness: expected a number/],
    ];
    for (const [data, message] of cases) assert.throws(() => build(data), (e: unknown) => e instanceof InputError && message.test(e.message) && e.position.line !== undefined, String(message));
  });
});
