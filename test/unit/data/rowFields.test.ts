// One rule for a field named in two ways: every method that accepts RAGAS's old and new column names refuses a row
// whose names disagree, at the row's file:line, instead of reading one of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { DatasetRow } from '../../../src/core/model.js';
import { aliasedField, readFields } from '../../../src/core/data/rowFields.js';
import type { FieldsSpec, RowFormat } from '../../../src/core/data/rowFields.js';
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

describe('a row read by its field spec', () => {
  const format: RowFormat = { field: (name) => `test row field "${name}"`, hint: 'a test row has q and ctx' };
  const spec = {
    question: { names: ['user_input', 'question'], kind: 'text', required: true, missing: 'add user_input' },
    contexts: { names: ['contexts'], kind: 'passages', required: true },
    answer: { names: ['answer'], kind: 'answerParts' },
    score: { names: ['score'], kind: 'number' },
  } as const satisfies FieldsSpec;

  it('reads each kind under its first present name; an optional field left out is undefined', () => {
    assert.deepEqual(readFields(row({ question: 'Q', contexts: ['a', 'b'], answer: ['x', ['y', 'z']] }), spec, format), {
      question: 'Q', contexts: ['a', 'b'], answer: [['x'], ['y', 'z']], score: undefined,
    });
  });

  it('names the field (and the item) at the row\'s line, with the field\'s or the format\'s hint', () => {
    const refuses = (data: Record<string, unknown>, message: RegExp, hint: RegExp) => assert.throws(() => readFields(row(data), spec, format), (error: unknown) => {
      assert.ok(error instanceof InputError);
      assert.equal(error.position.line, 7);
      assert.match(error.message, message);
      assert.match(error.hint ?? '', hint);
      return true;
    });
    refuses({ contexts: ['a'] }, /^test row field "user_input": missing: expected one of user_input, question \(columns present: contexts\)$/, /add user_input/);
    refuses({ question: 'Q' }, /^test row field "contexts": missing$/, /a test row has/);
    refuses({ question: ' ', contexts: ['a'] }, /"question": is empty/, /a test row has/);
    refuses({ question: 'Q', contexts: ['a', 3] }, /"contexts\[1\]": expected a non-empty string, got number/, /a test row has/);
    refuses({ question: 'Q', contexts: [] }, /"contexts": expected a non-empty list of passages, got an empty list/, /a test row has/);
    refuses({ question: 'Q', contexts: ['a'], answer: [['x', '']] }, /"answer\[0\]\[1\]": is empty/, /a test row has/);
    refuses({ question: 'Q', contexts: ['a'], score: 'high' }, /"score": expected a number, got "high"/, /a test row has/);
    refuses({ question: 'Q', user_input: 'R', contexts: ['a'] }, /question: differs from user_input/, /keep one of user_input \/ question/);
  });

  it('reads a mapping inside the row, its fields named under it', () => {
    const inner = { answer: { names: ['answer'], kind: 'alternatives', required: true } } as const satisfies FieldsSpec;
    assert.deepEqual(readFields(row({ cf: { answer: 'x' } }), inner, format, 'cf'), { answer: ['x'] });
    assert.throws(() => readFields(row({ cf: {} }), inner, format, 'cf'), /test row field "cf.answer": missing/);
  });
});
