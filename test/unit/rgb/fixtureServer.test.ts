// METHODS.md §1's worked examples reproduced end to end: eval file → engine → real OpenAI SDK → fixture server with
// scripted answers (two models side by side) and a scripted judge for Rej* and ED*.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { loggedRun } from '../engine/loggedRun.js';
import { envCredentials } from '../../../src/core/providers/registry.js';

let server: FixtureServer;
let dir: string;

useFixtureServer((started) => { server = started; });
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rgb-fixture-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

const POSITIVE = (answer: string, i: number) => `Passage ${i}: Super Bowl LV was played at Raymond James Stadium in ${answer}.`;
const NEGATIVES = Array.from({ length: 7 }, (_, i) => `Noise ${i}: Super Bowl LVIII tickets are on sale in Las Vegas.`);

/** Scripts `reply` for the model `model` whenever the prompt holds `query`. */
function answer(model: string, query: string, reply: string): void {
  server.addRule({ match: { model, contains: query }, reply });
}

function jsonl(rows: object[]): string {
  return rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
}

async function run(evalYaml: string): Promise<RunOutcome> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.eval.yaml`);
  writeFileSync(file, evalYaml);
  return runEvaluation(file, { signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });
}

function models(): string {
  return `models:
  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }
  - { provider: openai-compatible, model: model-b, baseUrl: ${server.openaiBaseUrl} }
judge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }`;
}

const metric = (outcome: RunOutcome, suiteId: string, model: string, name: string) =>
  outcome.reports.find((r) => r.suiteId === suiteId)?.metrics.find((m) => m.modelKey === `openai-compatible:${model}` && m.name === name)?.value;

test('worked example 1 (noise 0.4, capital-I rejection): accuracy 0.5 for one model, side by side with another', async () => {
  const responses = ['The Super Bowl LV was held in Tampa, Florida.', 'It took place in tampa, florida', 'Tampa Bay hosted it', 'Insufficient information to answer.'];
  const rows = responses.map((_, i) => ({ id: i, query: `Super Bowl 2021 location (variant ${i})`, answer: 'Tampa, Florida', positive: [0, 1, 2].map((j) => POSITIVE('Tampa, Florida', j)), negative: NEGATIVES }));
  writeFileSync(path.join(dir, 'noise.jsonl'), jsonl(rows));
  responses.forEach((reply, i) => {
    answer('model-a', `variant ${i})`, reply);
    answer('model-b', `variant ${i})`, 'Tampa, Florida.');
  });
  const outcome = await run(`version: 1\nname: worked example 1\n${models()}\nsuites:\n  - id: noise\n    method: rgb\n    dataset: noise.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0.4] }\n`);
  assert.equal(metric(outcome, 'noise', 'model-a', 'accuracy'), 0.5);
  assert.equal(metric(outcome, 'noise', 'model-b', 'accuracy'), 1);
  const table = outcome.reports[0]!.tables[0]!;
  assert.deepEqual(table.columns, ['openai-compatible:model-a', 'openai-compatible:model-b'], 'models side by side');
  assert.deepEqual(table.rows.map((r) => [r.label, ...r.cells.map((c) => c.value)]), [['0.4', 0.5, 1]]);
  const firstCase = (await loggedRun(outcome)).cases.get('noise/0/noise=0.4')!;
  assert.deepEqual(firstCase.documents.map((d) => d.role).sort(), ['negative', 'negative', 'positive', 'positive', 'positive'], '3 pos + 2 neg');
});

test('worked example 2 (zh integration, spaces removed): accuracy 2/3', async () => {
  const rows = [
    { id: 0, query: '第118届国会的宣誓仪式和首次会议分别在什么时候', answer: ['1月3日', '1月12日'], positive: [['宣誓仪式在1月3日举行。'], ['首次会议在1月12日举行。']], negative: ['无关文档。'] },
    { id: 1, query: '第118届国会什么时候举行宣誓仪式和会议', answer: ['1月3日', '1月12日'], positive: [['宣誓仪式在1月3日举行。'], ['首次会议在1月12日举行。']], negative: ['无关文档。'] },
    { id: 2, query: '2022年特斯拉和比亚迪的交付量', answer: [['1313851', '131万'], ['187万', '186.35万']], positive: [['特斯拉交付131万辆。'], ['比亚迪交付186.35万辆。']], negative: ['无关文档。'] },
  ];
  writeFileSync(path.join(dir, 'zh_int.jsonl'), jsonl(rows));
  answer('model-a', rows[0]!.query, '宣誓仪式在1月3日举行，首次会议在1月12日举行。');
  answer('model-a', rows[1]!.query, '宣誓仪式在1月3日举行。');
  answer('model-a', rows[2]!.query, '特斯拉交付131万辆，比亚迪交付186.35 万辆');
  const outcome = await run(`version: 1\nname: worked example 2\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\nsuites:\n  - id: int\n    method: rgb\n    dataset: zh_int.jsonl\n    params: { testbed: information_integration, language: zh, noiseRates: [0], passageNum: 2 }\n`);
  assert.equal(metric(outcome, 'int', 'model-a', 'accuracy'), 2 / 3);
});

test('worked example 3 (counterfactual) with a scripted judge: ED 2/3, CR 1/2, accuracy 1/3; ED* from the judge', async () => {
  const responses = [
    'There are factual errors in the provided documents. The correct answer is Tampa, Florida.',
    'It was in Glendale, Arizona.',
    'There are factual errors in the provided documents.',
  ];
  const rows = responses.map((_, i) => ({
    id: i, query: `Super Bowl 2021 location (fact ${i})`, answer: 'Tampa, Florida', fakeanswer: 'Glendale, Arizona',
    positive: [0, 1, 2].map((j) => POSITIVE('Tampa, Florida', j)), positive_wrong: [0, 1, 2].map((j) => POSITIVE('Glendale, Arizona', j)), negative: NEGATIVES,
  }));
  writeFileSync(path.join(dir, 'fact.jsonl'), jsonl(rows));
  responses.forEach((reply, i) => answer('model-a', `fact ${i})`, reply));
  responses.forEach((_, i) => answer('model-b', `fact ${i})`, 'Glendale, Arizona.'));
  // The ED* judge sees only the answer: it says "Yes" for responses that mention factual errors.
  server.addRule({ match: (req) => req.model === 'judge' && /Answer: [^\n]*factual errors[^\n]*\s*$/.test(req.lastUserMessage), reply: 'Yes, the model has identified the factual errors.' });
  server.addRule({ match: { model: 'judge' }, reply: 'No, the model failed to identify the factual errors.' });

  const outcome = await run(`version: 1\nname: worked example 3\n${models()}\nsuites:\n  - id: fact\n    method: rgb\n    dataset: fact.jsonl\n    params: { testbed: counterfactual_robustness, noiseRates: [0], passageNum: 3 }\n`);
  assert.equal(metric(outcome, 'fact', 'model-a', 'ed'), 2 / 3);
  assert.equal(metric(outcome, 'fact', 'model-a', 'cr'), 1 / 2);
  assert.equal(metric(outcome, 'fact', 'model-a', 'acc_doc'), 1 / 3);
  assert.equal(metric(outcome, 'fact', 'model-a', 'ed_star'), 2 / 3, 'ED* from the scripted judge');
  assert.equal(metric(outcome, 'fact', 'model-b', 'ed'), 0);
  assert.equal(metric(outcome, 'fact', 'model-b', 'ed_star'), 0);
  assert.ok(outcome.totals.judgeCalls >= 6, 'the judge was called through the fixture server');
});

test('negative rejection with a scripted judge: Rej beside Rej*', async () => {
  const rows = [0, 1, 2, 3].map((i) => ({ id: i, query: `Who won the 2031 final (rej ${i})?`, answer: 'Nobody knows', positive: ['irrelevant positive'], negative: NEGATIVES }));
  writeFileSync(path.join(dir, 'rej.jsonl'), jsonl(rows));
  const replies = ['I can not answer the question because of the insufficient information in documents.', 'Insufficient information.', 'The Las Vegas team won.', 'The documents do not say.'];
  replies.forEach((reply, i) => answer('model-a', `rej ${i})`, reply));
  // Rej*: the judge calls replies 0, 1 and 3 unaddressed; reply 2 addressed.
  server.addRule({ match: (req) => req.model === 'judge' && /Begin to generate:\s*Question: [^\n]*\nAnswer: (I can not answer|Insufficient|The documents do not say)/.test(req.lastUserMessage), reply: 'No, the question is not addressed by the documents.' });
  server.addRule({ match: { model: 'judge' }, reply: 'Yes, the question is addressed by the documents.' });
  const outcome = await run(`version: 1\nname: rejection\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\njudge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }\nsuites:\n  - id: rej\n    method: rgb\n    dataset: rej.jsonl\n    params: { testbed: negative_rejection }\n`);
  assert.equal(metric(outcome, 'rej', 'model-a', 'rej'), 1 / 4, 'only the lowercase marker counts (reference mode)');
  assert.equal(metric(outcome, 'rej', 'model-a', 'rej_star'), 3 / 4);
  assert.match(outcome.reports[0]!.tables[0]!.title, /Rej\*/);
});
