// The offline extractive baseline: reading RGB-style prompts in English and Chinese, BM25 ranking, refusal, sentence splitting.
import * as assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChatMessage } from '../../../src/core/model.js';
import { bestIndex, bm25Scores } from '../../../src/core/providers/bm25.js';
import { EXTRACTIVE_LABEL, ExtractiveProvider, extractAnswer, readPrompt, splitSentences, termsOf } from '../../../src/core/providers/extractive.js';

const EN_REFUSAL = 'I can not answer the question because of the insufficient information in documents.';
const ZH_REFUSAL = '文档信息不足，因此我无法基于提供的文档回答该问题。';

/** Messages shaped like prompts/rgb/en.prompt renders them: instruction in system, documents then the question in user. */
function rgbEnglish(documents: string[], question: string): ChatMessage[] {
  return [
    { role: 'system', content: 'You are an accurate and reliable AI assistant that can answer questions with the help of external documents.' },
    { role: 'user', content: `Document:\n${documents.join('\n')} \n\nQuestion:\n${question}` },
  ];
}

function rgbChinese(documents: string[], question: string): ChatMessage[] {
  return [
    { role: 'system', content: '你是一个准确和可靠的人工智能助手，能够借助外部文档回答问题。' },
    { role: 'user', content: `文档：\n${documents.join('\n')} \n\n问题：\n${question}` },
  ];
}

async function answer(messages: ChatMessage[], options: { refusal?: string; extra?: Record<string, unknown> } = {}): Promise<string> {
  const provider = new ExtractiveProvider({ refusal: options.refusal });
  const response = await provider.complete({ model: 'bm25', messages, extra: options.extra }, { signal: new AbortController().signal });
  return response.text;
}

const australia = [
  'Sydney is the largest city in Australia and the capital of New South Wales.',
  'Many visitors assume that the capital of Australia is Sydney because of its famous Opera House.',
  'Canberra is the capital city of Australia. It was founded in 1913.',
  'Perth is one of the most isolated cities in the world.',
];

describe('ExtractiveProvider', () => {
  it('is labelled as a baseline and answers an English RGB prompt with the answer-bearing sentence', async () => {
    const provider = new ExtractiveProvider();
    assert.equal(provider.label, 'Extractive baseline (BM25, no model)');
    assert.equal(provider.label, EXTRACTIVE_LABEL);
    assert.equal(await answer(rgbEnglish(australia, 'What is the capital of Australia?')), 'Canberra is the capital city of Australia.');
  });

  it('answers a Chinese RGB prompt (问题：) using word segmentation', async () => {
    const documents = ['北京是中国的首都，也是2008年夏季奥运会的举办城市。', '2014年冬奥会的举办城市是索契。', '2022年冬奥会的举办城市是北京和张家口。'];
    assert.equal(await answer(rgbChinese(documents, '2022年冬奥会在哪个城市举办？')), '2022年冬奥会的举办城市是北京和张家口。');
  });

  it('answers the refusal when no sentence shares a term with the question, from parameters or the request', async () => {
    assert.equal(await answer(rgbEnglish(australia, 'Who painted the Mona Lisa?'), { refusal: EN_REFUSAL }), EN_REFUSAL);
    assert.equal(await answer(rgbChinese(['北京是中国的首都。'], '蒙娜丽莎是谁画的？'), { extra: { refusal: ZH_REFUSAL } }), ZH_REFUSAL);
    // With a shared term, it answers even when a refusal is configured.
    assert.equal(await answer(rgbEnglish(australia, 'Where is the Opera House?'), { refusal: EN_REFUSAL }), australia[1]);
  });

  it('without a refusal, answers the earliest sentence rather than nothing, and never a "Document:" heading', async () => {
    assert.equal(await answer(rgbEnglish(australia, 'Who painted the Mona Lisa?')), australia[0]);
  });

  it('is deterministic and reports approximate usage and a measured latency', async () => {
    const provider = new ExtractiveProvider();
    const request = { model: 'bm25', messages: rgbEnglish(australia, 'What is the capital of Australia?') };
    const before = performance.now();
    const first = await provider.complete(request, { signal: new AbortController().signal });
    const wall = performance.now() - before;
    const second = await provider.complete(request, { signal: new AbortController().signal });
    assert.equal(first.text, second.text);
    assert.deepEqual(first.usage, second.usage);
    assert.ok(first.usage.inputTokens > 50 && first.usage.outputTokens === 8, JSON.stringify(first.usage));
    // Measured around the work itself: never negative, never more than the call took from outside.
    assert.ok(first.latencyMs >= 0 && first.latencyMs <= wall, `latency ${first.latencyMs} ms of a ${wall} ms call`);
    assert.equal(first.cached, false);
  });

  it('refuses to run on an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(new ExtractiveProvider().complete({ model: 'bm25', messages: rgbEnglish(australia, 'x') }, { signal: controller.signal }), { name: 'ProviderError', kind: 'cancelled' });
  });
});

describe('reading the prompt', () => {
  it('takes the question after the last marker, with ASCII or full-width colon and an optional newline', () => {
    assert.equal(readPrompt([{ role: 'user', content: 'Doc one.\nQuestion: Who?' }]).question, 'Who?');
    assert.equal(readPrompt([{ role: 'user', content: '文書。\n質問：誰ですか' }]).question, '誰ですか');
    assert.equal(readPrompt([{ role: 'user', content: '文件。\n問題:\n誰？' }]).question, '誰？');
    const reading = readPrompt([{ role: 'user', content: 'A question: is this one? No.\n\nQuestion:\nThe real one?\n\nAnswer briefly.' }]);
    assert.equal(reading.question, 'The real one?');
    assert.equal(reading.context.trim(), 'A question: is this one? No.');
  });

  it('falls back to the last line of the last user message, and to other messages for the documents', () => {
    assert.deepEqual(readPrompt([{ role: 'user', content: 'Paris is in France.\nWhere is Paris?' }]), { question: 'Where is Paris?', context: 'Paris is in France.' });
    const documentsInSystem = readPrompt([
      { role: 'system', content: 'Paris is in France.' },
      { role: 'user', content: 'Where is Paris?' },
    ]);
    assert.equal(documentsInSystem.question, 'Where is Paris?');
    assert.match(documentsInSystem.context, /Paris is in France\./);
  });

  it('splits sentences at terminators and newlines, keeping decimals and quotes whole', () => {
    assert.deepEqual(splitSentences('It grew 3.5 percent. Really?! "Yes." Next line\nlast'), ['It grew 3.5 percent.', 'Really?!', '"Yes."', 'Next line', 'last']);
    assert.deepEqual(splitSentences('北京是首都。上海很大！真的吗？「是的。」'), ['北京是首都。', '上海很大！', '真的吗？', '「是的。」']);
    assert.deepEqual(splitSentences('  \n\n '), []);
  });

  it('makes lower-cased terms without punctuation or stop words', () => {
    assert.deepEqual(termsOf('What is the Capital of Australia?'), ['capital', 'australia']);
    assert.deepEqual(termsOf('北京是中国的首都。'), ['北京', '中国', '首都']);
  });
});

describe('BM25', () => {
  it('prefers the shorter of two sentences with the same matches, and gives 0 to a sentence with none', () => {
    const scores = bm25Scores(['capital', 'australia'], [
      ['sydney', 'largest', 'city', 'australia', 'capital', 'new', 'south', 'wales'],
      ['canberra', 'capital', 'city', 'australia'],
      ['perth', 'isolated'],
    ]);
    assert.ok((scores[1] ?? 0) > (scores[0] ?? 0));
    assert.equal(scores[2], 0);
    assert.equal(bestIndex(scores), 1);
  });

  it('weighs rare terms above common ones and breaks ties by the earliest', () => {
    const scores = bm25Scores(['rare', 'common'], [['common', 'x'], ['rare', 'x'], ['common', 'y']]);
    assert.ok((scores[1] ?? 0) > (scores[0] ?? 0));
    assert.equal(bestIndex([0, 2, 2]), 1);
    assert.equal(bestIndex([]), -1);
    assert.deepEqual(bm25Scores(['a'], []), []);
  });
});

describe('tagged prompts', () => {
  it('reads the question from <question> and the context from <haystack>, not from the instructions', () => {
    const prompt = [
      "Here's the question:\n<question>What is the best thing to do in San Francisco?</question>",
      "Here's the text of the essays. The answer appears in it somewhere.",
      '<haystack>\nStartups need users. The best thing to do in San Francisco is eat a sandwich and sit in Dolores Park on a sunny day. Investors like growth.\n</haystack>',
      'Now that you have read the context, please answer the question, repeated:\n<question>What is the best thing to do in San Francisco?</question>',
    ].join('\n');
    const reading = readPrompt([{ role: 'user', content: prompt }]);
    assert.equal(reading.question, 'What is the best thing to do in San Francisco?');
    assert.doesNotMatch(reading.context, /Here's the text of the essays/);
    assert.match(extractAnswer(reading), /eat a sandwich and sit in Dolores Park/);
  });
});
