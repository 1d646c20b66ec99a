// One rule for a field named in two ways: every method that accepts RAGAS's old and new column names refuses a row
// whose names disagree, at the row's file:line, instead of reading one of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { DatasetRow } from '../../../src/core/model.js';
import { aliasedField } from '../../../src/core/data/rowFields.js';
import { readRagasRow } from '../../../src/core/suites/ragas/rows.js';
import { readStressRow } from '../../../src/core/suites/stress/rows.js';

const row = (data: Record<string, unknown>): DatasetRow => ({ ref: { file: '/data/mine.jsonl', line: 7, index: 6 }, data });
const base = { retrieved_contexts: ['Paris is the capital of France.'], reference: 'Paris' };

describe('a field named in two ways', () => {
  it('the first name present wins when both agree, and a missing or null one is absent', () => {
    assert.deepEqual(aliasedField(row({ user_input: 'q', question: 'q' }), ['user_input', 'question']), { name: 'user_input', value: 'q' });
    assert.deepEqual(aliasedField(row({ user_input: null, question: 'q' }), ['user_input', 'question']), { name: 'question', value: 'q' });
    assert.equal(aliasedField(row({}), ['user_input', 'question']), undefined);
  });

  for (const [method, read] of [['ragas', readRagasRow], ['stress', readStressRow]] as const) {
    it(`${method} refuses a row whose question differs from its user_input, at its line`, () => {
      assert.throws(() => read(row({ ...base, user_input: 'Capital of France?', question: 'Capital of Spain?' })), (error: unknown) => {
        assert.ok(error instanceof InputError);
        assert.equal(error.position.line, 7);
        assert.equal(error.position.file, '/data/mine.jsonl');
        assert.match(error.message, /question: differs from user_input/);
        return true;
      });
      assert.doesNotThrow(() => read(row({ ...base, user_input: 'Capital of France?', question: 'Capital of France?' })));
    });
  }
});
