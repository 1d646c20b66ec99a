// IF-RAG params: defaults, and a message naming the key for every mistake.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { InputError } from '../../../src/core/errors.js';
import { loadTemplate, renderTemplate } from '../../../src/core/prompt/template.js';
import { DEFAULT_REFUSAL } from '../../../src/core/suites/ifrag/params.js';
import { ifragSuite } from '../../../src/core/suites/ifrag/suite.js';
import { params } from './builders.js';

describe('parseParams', () => {
  it('defaults: all three kinds, k 10, "[Document {n}]", rgb, the instructions\' refusal sentence', () => {
    assert.deepEqual(params({ instruction: 'b' }), {
      instruction: 'B', kinds: ['factual', 'counterfactual', 'multi'], k: 10, idFormat: '[Document {n}]', normalise: 'rgb', refusal: [DEFAULT_REFUSAL],
    });
  });

  it('keeps the paper\'s column order whatever order kinds are listed in', () => {
    assert.deepEqual(params({ instruction: 'A', kinds: ['multi', 'factual'] }).kinds, ['factual', 'multi']);
  });

  it('names the bad key', () => {
    const bad = (raw: unknown, pattern: RegExp) => assert.throws(() => ifragSuite.parseParams(raw, { file: 'x.eval.yaml' }), (e: unknown) => e instanceof InputError && pattern.test(e.message));
    bad(undefined, /params\.instruction: missing/);
    bad({}, /params\.instruction: missing/);
    bad({ instruction: 'D' }, /params\.instruction: expected A, B or C/);
    bad({ instruction: 'A', kinds: ['factual', 'factual'] }, /params\.kinds: factual is listed twice/);
    bad({ instruction: 'A', kinds: ['fiction'] }, /params\.kinds\[0\]: unknown data kind/);
    bad({ instruction: 'A', k: 0 }, /params\.k: expected a whole number/);
    bad({ instruction: 'A', idFormat: 'Doc' }, /params\.idFormat: expected a string with \{n\} exactly once/);
    bad({ instruction: 'A', normalise: 'nfkc' }, /params\.normalise: expected "rgb" or "squad"/);
    bad({ instruction: 'A', refusal: [] }, /params\.refusal: expected a sentence/);
    bad({ instruction: 'A', passageNum: 5 }, /params\.passageNum: unknown parameter/);
  });
});

describe('built-in prompts', () => {
  const A = 'You are an accurate AI assistant that can answer questions with external documents. Please note that given documents contain irrelevant information to the question. If the documents do not contain the answer, you will generate \'I cannot answer the question due to the insufficient information in the documents.\'';
  const expected = {
    A,
    B: `${A} If the documents contain the answer, please answer the question and point out the document ID that is helpful for the answer.`,
    C: `${A} If there are multiple answers in the documents, please provide all of them.`,
  };

  for (const instruction of ['A', 'B', 'C'] as const) {
    it(`instruction ${instruction}: the paper's text as the system message, labelled documents, the question, temperature 0.1`, async () => {
      const file = ifragSuite.defaultTemplate(params({ instruction }));
      assert.match(file, new RegExp(`prompts/ifrag/instruction-${instruction.toLowerCase()}\\.prompt$`));
      const template = await loadTemplate(file);
      assert.equal(template.frontMatter.parameters.temperature, 0.1);
      const messages = await renderTemplate(template, { question: 'Q?', documents: [{ label: '[Document 1]', text: 'One.' }, { label: '[Document 2]', text: 'Two.' }] });
      assert.deepEqual(messages, [
        { role: 'system', content: expected[instruction] },
        { role: 'user', content: 'Documents:\n[Document 1] One.\n[Document 2] Two.\n\nQuestion: Q?' },
      ]);
    });
  }

  it('the refusal default is the sentence the instructions prescribe', () => {
    assert.ok(readFileSync(ifragSuite.defaultTemplate(params({ instruction: 'A' })), 'utf8').includes(`'${DEFAULT_REFUSAL}.'`));
  });
});
