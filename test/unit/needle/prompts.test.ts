// The built-in needle prompts render to the reference's messages; the two Anthropic templates differ only by the pre-fill.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { builtinPrompt } from '../../../src/core/assets.js';
import { loadTemplate, renderTemplate } from '../../../src/core/prompt/template.js';
import { PROMPTS } from '../../../src/core/suites/needle/params.js';

const variables = { context: 'Haystack text. The needle sentence.', question: 'What is the needle?', needle: 'The needle sentence.' };

async function render(name: string, vars: Record<string, unknown> = variables) {
  const template = await loadTemplate(builtinPrompt(`needle/${name}.prompt`));
  return { template, messages: await renderTemplate(template, vars) };
}

describe('needle prompts', () => {
  it('reference: system, the context as one user message, the question as a second (OpenAI provider of the reference)', async () => {
    const { template, messages } = await render('reference');
    assert.deepEqual(messages, [
      { role: 'system', content: 'You are a helpful AI bot that answers questions for a user. Keep your response short and direct' },
      { role: 'user', content: 'Haystack text. The needle sentence.' },
      { role: 'user', content: "What is the needle? Don't give information outside the document or repeat your findings" },
    ]);
    assert.deepEqual(template.frontMatter.parameters, { temperature: 0, maxTokens: 300 });
  });

  it('simple-unanswerable: one user message with #CONTEXT and the UNANSWERABLE instruction', async () => {
    const { messages } = await render('simple-unanswerable');
    assert.equal(messages.length, 1);
    assert.match(messages[0]!.content, /#CONTEXT\nHaystack text\. The needle sentence\.\n#ENDCONTEXT\n\n#QUESTION\nWhat is the needle\? Dont give information outside the document or repeat your findings\. If the information is not available in the context respond UNANSWERABLE$/);
  });

  it('anthropic-rev2 is anthropic-original plus the assistant pre-fill, nothing else', async () => {
    const original = (await render('anthropic-original')).messages;
    const rev2 = (await render('anthropic-rev2')).messages;
    assert.equal(original.length, 1);
    assert.deepEqual(rev2.slice(0, -1), original);
    assert.deepEqual(rev2.at(-1), { role: 'assistant', content: 'Here is the most relevant sentence in the context:' });
    assert.match(original[0]!.content, /<haystack>\nHaystack text\. The needle sentence\.\n<\/haystack>/);
    assert.equal(original[0]!.content.split('<question>What is the needle?</question>').length, 3, 'the question is asked twice');
    assert.ok(original[0]!.content.endsWith('If you can\'t find the answer return the single word UNANSWERABLE'));
  });

  it('every template reads only context and question (and is loadable)', async () => {
    for (const name of PROMPTS) {
      const { template } = await render(name);
      assert.deepEqual([...template.variables].sort(), ['context', 'question'], name);
    }
  });

  it('judge: LangChain labeled_score_string with the reference accuracy criteria, character for character', async () => {
    const criteria = [
      'accuracy: ',
      '                Score 1: The answer is completely unrelated to the reference.',
      '                Score 3: The answer has minor relevance but does not align with the reference.',
      '                Score 5: The answer has moderate relevance but contains inaccuracies.',
      '                Score 7: The answer aligns with the reference but has minor omissions.',
      '                Score 10: The answer is completely accurate and aligns perfectly with the reference.',
      '                Only respond with a numberical score',
    ].join('\n');
    const criteriaStr = `For this evaluation, you should primarily consider the following criteria:\n${criteria}\n`;
    const expected = `[Instruction]\nPlease act as an impartial judge and evaluate the quality of the response provided by an AI assistant to the user question displayed below. ${criteriaStr}[Ground truth]\nREF\nBegin your evaluation by providing a short explanation. Be as objective as possible. After providing your explanation, you must rate the response on a scale of 1 to 10 by strictly following this format: "[[rating]]", for example: "Rating: [[5]]".\n\n[Question]\nQ?\n\n[The Start of Assistant's Answer]\nANSWER\n[The End of Assistant's Answer]`;
    const { messages } = await render('judge', { question: 'Q?', reference: 'REF', response: 'ANSWER' });
    assert.deepEqual(messages, [{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: expected }]);
  });
});
