// LLM-Eval parameters, rows and the score schema: the format-instruction text must be the reference's, byte for byte.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import type { EvalCase } from '../../../src/core/model.js';
import { llmEvalExpected } from '../../../src/core/suites/llmEval/cases.js';
import { PAPER_DIMENSIONS } from '../../../src/core/suites/llmEval/params.js';
import type { LlmEvalParams } from '../../../src/core/suites/llmEval/params.js';
import { SCALE_CONFIG, answerSchema, formatInstructionSchema, pydanticTitle, pythonJsonDumps } from '../../../src/core/suites/llmEval/schema.js';
import { llmEvalSuite } from '../../../src/core/suites/llmEval/suite.js';

const where = { file: 'test.eval.yaml' };
const params = (raw: Record<string, unknown> = {}): LlmEvalParams => llmEvalSuite.parseParams(raw, where);
let index = 0;
const build = (data: Record<string, unknown>, raw: Record<string, unknown> = {}): EvalCase =>
  llmEvalSuite.expandRow({ ref: { file: 'd.jsonl', line: ++index, index }, data }, params(raw), { suiteId: 'le', seed: 1, models: [] })[0] as EvalCase;

describe('params', () => {
  it('defaults: the paper\'s four dimensions, 0–5, no reference, response level', () => {
    assert.deepEqual(params(), { dimensions: [{ name: 'content' }, { name: 'grammar' }, { name: 'relevance' }, { name: 'appropriateness' }], scale: '0-5', withReference: false, level: 'response', parser: 'reference' });
  });

  it('user dimensions as names or { name, description }', () => {
    assert.deepEqual(params({ dimensions: ['groundedness', { name: 'citation', description: 'cites the right document' }] }).dimensions, [{ name: 'groundedness' }, { name: 'citation', description: 'cites the right document' }]);
  });

  it('mistakes are named', () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ scale: '1-10' }, /params\.scale: expected one of '0-5', '0-100'/],
      [{ dimensions: [] }, /params\.dimensions: expected a non-empty list/],
      [{ dimensions: ['has space'] }, /dimensions\[0\]\.name: expected a name of letters, digits and _/],
      [{ dimensions: ['a', 'a'] }, /dimensions\[1\]\.name: a is listed twice/],
      [{ withReference: 'yes' }, /withReference: expected true or false/],
      [{ level: 'dialogue', withReference: true }, /the dialogue-level prompt has no reference/],
      [{ temperature: 0 }, /params\.temperature: unknown parameter/],
    ];
    for (const [raw, message] of cases) assert.throws(() => params(raw), (e: unknown) => e instanceof InputError && message.test(e.message), String(message));
  });
});

describe('rows', () => {
  it('a response-level row: context shown to the judge, the given response, the reference and human scores', () => {
    const c = build({ id: 3, context: 'Hi! Do you like football?', response: 'I love it.', reference: 'Yes, a lot.', human_content: 4, human_scores: { grammar: 5 } });
    assert.equal(c.id, 'le/3');
    assert.equal(c.givenResponse, 'I love it.');
    assert.deepEqual(llmEvalExpected(c), { context: 'Hi! Do you like football?', reference: 'Yes, a lot.', humanScores: { grammar: 5, content: 4 } });
  });

  it('without a response the model under test replies to the context (question accepted as the context)', () => {
    const c = build({ question: 'What is RAG?' });
    assert.equal(c.givenResponse, undefined);
    assert.equal(c.variables.context, 'What is RAG?');
  });

  it('dialogue level scores the row\'s dialogue, given as text or as turns', () => {
    const c = build({ dialog: [{ speaker: 'Human', text: 'Hi.' }, { speaker: 'Bot', text: 'Hello!' }] }, { level: 'dialogue' });
    assert.equal(c.givenResponse, 'Human: Hi.\nBot: Hello!');
  });

  it('rows that cannot be scored are refused with the field named', () => {
    assert.throws(() => build({ response: 'x' }), /context: missing/);
    assert.throws(() => build({ context: 'c', response: 'x' }, { withReference: true }), /reference: missing/);
    assert.throws(() => build({ context: 'c' }, { level: 'dialogue' }), /dialog: missing/);
    assert.throws(() => build({ dialog: 'Human: Hi', dialogue: 'Human: Bye' }, { level: 'dialogue' }), /dialogue: differs from dialog/);
    assert.throws(() => build({ context: 'c', human_content: 'good' }), /human_content: expected a number/);
  });
});

describe('the score schema', () => {
  it('is the text langchain\'s PydanticOutputParser gave the reference: pydantic titles, ", " separators, floats on 0–5', () => {
    assert.equal(
      formatInstructionSchema(PAPER_DIMENSIONS, SCALE_CONFIG['0-5']),
      '{"properties": {"content": {"title": "Content", "description": "content score in the range of 0.0 to 5.0", "type": "number"}, '
      + '"grammar": {"title": "Grammar", "description": "grammar score in the range of 0.0 to 5.0", "type": "number"}, '
      + '"relevance": {"title": "Relevance", "description": "relevance score in the range of 0.0 to 5.0", "type": "number"}, '
      + '"appropriateness": {"title": "Appropriateness", "description": "appropriateness score in the range of 0.0 to 5.0", "type": "number"}}, '
      + '"required": ["content", "grammar", "relevance", "appropriateness"]}',
    );
  });

  it('0–100 asks for integers, printed without decimals', () => {
    assert.equal(formatInstructionSchema([{ name: 'citation_accuracy' }], SCALE_CONFIG['0-100']),
      '{"properties": {"citation_accuracy": {"title": "Citation Accuracy", "description": "citation_accuracy score in the range of 0 to 100", "type": "integer"}}, "required": ["citation_accuracy"]}');
    assert.deepEqual(answerSchema([{ name: 'x' }], SCALE_CONFIG['0-100']), {
      type: 'object', properties: { x: { type: 'integer', description: 'x score in the range of 0 to 100' } }, required: ['x'], additionalProperties: false,
    });
  });

  it('Python details: str.title() and json.dumps escaping of non-ASCII', () => {
    assert.equal(pydanticTitle('first_turn_QUALITY'), 'First Turn Quality');
    assert.equal(pythonJsonDumps({ a: 'café ✓', b: [1, 2.5] }), '{"a": "caf\\u00e9 \\u2713", "b": [1, 2.5]}');
  });
});
