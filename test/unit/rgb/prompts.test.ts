// The RGB prompt files render exactly the reference's messages (instruction.yaml), and the judge prompts their texts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { builtinPrompt } from '../../../src/core/assets.js';
import { loadTemplate, renderTemplate } from '../../../src/core/prompt/template.js';
import { renderJudgePrompt } from '../../../src/core/suites/judging.js';
import { JUDGE_PROMPTS } from '../../../src/core/suites/rgb/judge.js';
import { rgbSuite } from '../../../src/core/suites/rgb/suite.js';
import { RGB_DATA } from '../testData.js';
import { build, params, plainRow } from './builders.js';

const INSTRUCTION = path.join(RGB_DATA, 'instruction.yaml');

/** The reference's own formatting: instruction.format(QUERY=…, DOCS='\n'.join(docs)), system only with documents. */
function referenceMessages(lang: 'en' | 'zh', question: string, docs: string[]) {
  const config = parse(readFileSync(INSTRUCTION, 'utf8')) as Record<string, { system: string; instruction: string }>;
  const { system, instruction } = config[lang]!;
  const user = instruction.replace('{DOCS}', docs.join('\n')).replace('{QUERY}', question);
  return docs.length === 0 ? [{ role: 'user', content: user }] : [{ role: 'system', content: system }, { role: 'user', content: user }];
}

describe('RGB answer prompts', () => {
  for (const language of ['en', 'zh'] as const) {
    it(`${language}.prompt renders the reference system and user messages`, async () => {
      const p = params({ testbed: 'noise_robustness', language, noiseRates: [0.4] });
      const file = rgbSuite.defaultTemplate(p);
      assert.equal(file, builtinPrompt(`rgb/${language}.prompt`));
      const [evalCase] = build(plainRow('Tampa, Florida', 3, 7), { testbed: 'noise_robustness', language, noiseRates: [0.4] });
      const messages = await renderTemplate(await loadTemplate(file), evalCase!.variables);
      assert.deepEqual(messages, referenceMessages(language, evalCase!.question, evalCase!.documents.map((d) => d.text)));
    });

    it(`${language}.prompt with no documents sends the instruction with empty documents and no system prompt`, async () => {
      const template = await loadTemplate(builtinPrompt(`rgb/${language}.prompt`));
      const messages = await renderTemplate(template, { question: 'Q?', documents: [] });
      assert.deepEqual(messages, referenceMessages(language, 'Q?', []));
    });

    it(`${language}.prompt asks for temperature 0.2`, async () => {
      const template = await loadTemplate(builtinPrompt(`rgb/${language}.prompt`));
      assert.equal((template.frontMatter as { parameters?: { temperature?: number } }).parameters?.temperature, 0.2);
    });
  }

  it('keeps the curly quotes of instruction.yaml', () => {
    assert.ok(readFileSync(builtinPrompt('rgb/en.prompt'), 'utf8').includes('’I can not answer the question because of the insufficient information in documents.‘'));
  });
});

describe('RGB judge prompts', () => {
  it('Rej* ends with the question and answer after the reference demonstrations', async () => {
    const [message, ...rest] = await renderJudgePrompt(JUDGE_PROMPTS.rejection, { question: 'Who won?', answer: 'Nobody knows.' });
    assert.equal(rest.length, 0);
    assert.equal(message!.role, 'user');
    assert.ok(message!.content.startsWith('I will give you a question and an answer generated through document retrieval.'));
    assert.equal(message!.content.split('No, the question is not addressed by the documents.').length - 1, 3);
    assert.ok(message!.content.endsWith('Begin to generate:\nQuestion: Who won?\nAnswer: Nobody knows.'));
  });

  it('ED* has five demonstrations and ends with the answer', async () => {
    const [message] = await renderJudgePrompt(JUDGE_PROMPTS.factualError, { question: 'q', answer: 'There are factual errors.' });
    assert.ok(message!.content.startsWith('Please determine whether the model can identify factual errors in the document.'));
    assert.equal(message!.content.split('\nResponse:').length - 1, 5);
    assert.ok(message!.content.endsWith('Begin to generate:\nAnswer: There are factual errors.'));
  });

  it('the failure-label prompt lists the integration labels only for integration', async () => {
    const file = JUDGE_PROMPTS.failureLabel;
    const vars = { question: 'q', answer: 'a', response: 'r', documents: [{ id: 'd0', text: 't', role: 'negative' }], labels: ['x'] };
    const noise = (await renderJudgePrompt(file, { ...vars, testbed: 'noise_robustness' })).map((m) => m.content).join('\n');
    const integration = (await renderJudgePrompt(file, { ...vars, testbed: 'information_integration' })).map((m) => m.content).join('\n');
    assert.ok(!noise.includes('merging_error'));
    assert.ok(integration.includes('merging_error') && integration.includes('concept_confusion'));
    assert.ok(noise.includes('[d0] (negative) t'));
  });
});
