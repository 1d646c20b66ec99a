// LLM-Eval scoring against the fixture server: the exact prompt, greedy decoding, one score per dimension, judge errors; and one engine run.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { EvalCase, Score } from '../../../src/core/model.js';
import { OpenAIProvider } from '../../../src/core/providers/openai.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { createModelClient } from '../../../src/core/run/modelClient.js';
import { Scheduler } from '../../../src/core/run/scheduler.js';
import { llmEvalSuite } from '../../../src/core/suites/llmEval/suite.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { scoreContext } from '../suites/builders.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
useFixtureServer((started) => {
  server = started;
});

const CONTEXT = "Hello! Do you like Football?\nI do. Do you?\nOf course! What's your favorite team. Mine is the New England Patriots, the Lannisters of the NFL!";
const REFERENCE = 'I like the Broncos. Have you read the Indentured by Ben Strauss and Joe Nocera?';
const RESPONSE = 'I love the New England Patriots. They are the best team in the NFL!';

function judge() {
  return createModelClient({
    key: 'openai-compatible:judge',
    provider: new OpenAIProvider({ id: 'openai-compatible', baseURL: server.openaiBaseUrl }),
    model: 'judge',
    parameters: {},
    scheduler: new Scheduler({ concurrency: 2, maxRetries: 0, timeoutMs: 5000, random: () => 0 }),
  });
}

function setup(raw: Record<string, unknown>, data: Record<string, unknown>) {
  const params = llmEvalSuite.parseParams(raw, { file: 't.eval.yaml' });
  const evalCase = llmEvalSuite.expandRow({ ref: { file: 'd.jsonl', line: 1, index: 0 }, data }, params, { suiteId: 'le', seed: 1, models: [] })[0] as EvalCase;
  const score = (withJudge = true): Promise<Score[]> =>
    llmEvalSuite.score(evalCase, evalCase.givenResponse ?? '', params, scoreContext(withJudge ? judge() : undefined));
  return { params, evalCase, score };
}

const chats = () => server.requests.filter((r) => r.api === 'openai-chat');
const values = (scores: Score[]) => Object.fromEntries(scores.map((s) => [s.metric, s.value]));

describe('one judge call scores every dimension', () => {
  it('sends the reference template with the reference at temperature 0 and returns one score per dimension with the raw output', async () => {
    const output = '{"content": 2.5, "grammar": 4.0, "relevance": 2, "appropriateness": 3.0}';
    server.addRule({ reply: output });
    const { score } = setup({ withReference: true }, { context: CONTEXT, reference: REFERENCE, response: RESPONSE });
    const scores = await score();
    assert.deepEqual(values(scores), { content: 2.5, grammar: 4, relevance: 2, appropriateness: 3 });
    assert.ok(scores.every((s) => s.explanation === output && s.judgeError === undefined));
    assert.equal(chats().length, 1);
    const body = chats()[0]!.body as { temperature: number; messages: { role: string; content: string }[]; response_format?: unknown };
    assert.equal(body.temperature, 0, 'greedy decoding');
    assert.equal(body.response_format, undefined, 'the reference sends no structured output; the schema is in the prompt');
    assert.equal((scores[0]!.details as { parser: string }).parser, 'reference');
    const prompt = body.messages[0]!.content;
    assert.ok(prompt.startsWith('The output should be formatted as a JSON instance that conforms to the JSON schema below.\n\nAs an example, for the schema {"properties": {"foo": {"title": "Foo", "description": "a list of strings", "type": "array", "items": {"type": "string"}}}, "required": ["foo"]}}\n'));
    assert.ok(prompt.endsWith(`"required": ["content", "grammar", "relevance", "appropriateness"]}\n\`\`\`\nScore the following dialogue response generated on a continuous scale from 0.0 to 5.0.\nContext: ${CONTEXT}\nReference: ${REFERENCE}\nDialogue response: ${RESPONSE}`), prompt.slice(-400));
  });

  it('without reference and at dialogue level the matching templates are used; 0–100 says so', async () => {
    server.addRule({ reply: '{"engagement": 70}' });
    const noRef = setup({ dimensions: ['engagement'], scale: '0-100' }, { context: 'Hi', response: 'Hello', reference: 'ignored' });
    assert.equal((await noRef.score())[0]!.value, 70);
    const prompt = (chats()[0]!.body as { messages: { content: string }[] }).messages[0]!.content;
    assert.ok(prompt.endsWith('on a continuous scale from 0 to 100.\nContext: Hi\nDialogue response: Hello'));
    assert.ok(!prompt.includes('ignored'));

    const dialogue = setup({ dimensions: ['engagement'], scale: '0-100', level: 'dialogue' }, { dialog: 'Human: Hi\nBot: Hello' });
    await dialogue.score();
    const dialoguePrompt = (chats()[1]!.body as { messages: { content: string }[] }).messages[0]!.content;
    assert.ok(dialoguePrompt.endsWith('Score the following dialogue generated on a continuous scale from 0 to 100.\nDialogue: Human: Hi\nBot: Hello'));
  });

  it('no judge: every dimension says it needs one; nothing is called', async () => {
    const scores = await setup({}, { context: 'c', response: 'r' }).score(false);
    assert.equal(scores.length, 4);
    assert.ok(scores.every((s) => s.value === null && s.label === 'needs-judge-model'));
    assert.equal(server.requests.length, 0);
  });
});

describe('parse failures are judge errors on every dimension', () => {
  // What the seed's Llama 3.1 demo printed: key-value lines and prose, not a JSON object.
  const llamaStyle = '"content": 2,\n"grammar": 4,\n"relevance": 1,\n"appropriateness": 3\nHere\'s a breakdown of the scores: …';

  it('the reference parser: no JSON object is one call and a judge error on every dimension, the raw output kept', async () => {
    server.addRule({ reply: llamaStyle });
    const scores = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.equal(chats().length, 1, 'the reference does not repair');
    for (const s of scores) {
      assert.equal(s.value, null);
      assert.match(s.judgeError ?? '', /reference parser could not read the reply \(no JSON object/);
      assert.equal(s.explanation, llamaStyle);
    }
  });

  it('strict (option): the schema goes as structured output, and an answer that is not JSON twice is a judge error after one repair', async () => {
    server.addRule({ reply: llamaStyle });
    const scores = await setup({ parser: 'strict' }, { context: CONTEXT, response: RESPONSE }).score();
    assert.equal((chats()[0]!.body as { response_format: { json_schema: { name: string } } }).response_format.json_schema.name, 'llm_eval_scores');
    assert.equal(chats().length, 2, 'one repair attempt');
    for (const s of scores) {
      assert.equal(s.value, null);
      assert.match(s.judgeError ?? '', /not JSON/);
      assert.equal(s.explanation, llamaStyle);
    }
  });

  it('strict: a missing dimension is repaired when the second answer is complete', async () => {
    server.addRule({ reply: '{"content": 3, "grammar": 4, "relevance": 2}', times: 1 });
    server.addRule({ reply: '{"content": 3, "grammar": 4, "relevance": 2, "appropriateness": 5}' });
    const scores = await setup({ parser: 'strict' }, { context: CONTEXT, response: RESPONSE }).score();
    assert.deepEqual(values(scores), { content: 3, grammar: 4, relevance: 2, appropriateness: 5 });
    assert.match(chats()[1]!.lastUserMessage, /must have required property 'appropriateness'/);
  });

  it('a refusal stays a refusal after the retry: judge errors, not zeros', async () => {
    server.addRule({ reply: "I'm sorry, I can't rate this conversation." });
    const scores = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.ok(scores.every((s) => s.value === null && s.label === 'judge-error'));
  });

  it('a score outside the scale makes that dimension a judge error; the others stand', async () => {
    server.addRule({ reply: '{"content": 7, "grammar": 4.5, "relevance": 0, "appropriateness": 5}' });
    const scores = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.deepEqual(values(scores), { content: null, grammar: 4.5, relevance: 0, appropriateness: 5 });
    assert.match(scores[0]!.judgeError ?? '', /content = 7 is outside 0\.0–5\.0/);
  });
});

describe('replies read as the reference parser reads them (PydanticOutputParser, pydantic v1)', () => {
  it('JSON inside prose with extra keys and numbers as strings: scored, and what was tolerated is recorded', async () => {
    const reply = 'Sure! Here are my scores:\n```json\n{"content": "4", "grammar": 4.5, "relevance": " 3.5 ", "appropriateness": true, "reasoning": "clear"}\n```\nHope this helps.';
    server.addRule({ reply });
    const scores = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.deepEqual(values(scores), { content: 4, grammar: 4.5, relevance: 3.5, appropriateness: 1 });
    const tolerated = (scores[0]!.details as { tolerated: string[] }).tolerated;
    assert.deepEqual(tolerated, [
      'text around the JSON object ignored',
      'extra keys ignored: reasoning',
      'content: the string "4" read as 4',
      'relevance: the string " 3.5 " read as 3.5',
      'appropriateness: true read as 1.0',
    ]);
  });

  it('0–100: a non-integer is truncated by int() as the reference does (87.9 → 87, "-0.5" is not an integer string)', async () => {
    server.addRule({ reply: '{"engagement": 87.9, "fluency": "90"}', times: 1 });
    const scored = await setup({ dimensions: ['engagement', 'fluency'], scale: '0-100' }, { context: 'Hi', response: 'Hello' }).score();
    assert.deepEqual(values(scored), { engagement: 87, fluency: 90 });
    assert.ok((scored[0]!.details as { tolerated: string[] }).tolerated.includes("engagement: 87.9 truncated to 87 (the reference's int())"));
    server.addRule({ reply: '{"engagement": "87.5", "fluency": 90}' });
    const failed = await setup({ dimensions: ['engagement', 'fluency'], scale: '0-100' }, { context: 'Hi', response: 'Hello' }).score();
    assert.deepEqual(values(failed), { engagement: null, fluency: null }, 'parse_obj fails as a whole: the reference keeps no score of that reply');
    assert.match(failed[0]!.judgeError ?? '', /engagement: "87\.5" is not an integer/);
  });

  it('a clean reply tolerates nothing; a missing field or null fails the whole reply; NaN is undetermined, never a score', async () => {
    server.addRule({ reply: '{"content": 1, "grammar": 2, "relevance": 3, "appropriateness": 4}', times: 1 });
    const clean = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.equal((clean[0]!.details as { tolerated?: unknown }).tolerated, undefined);
    server.addRule({ reply: '{"content": 1, "grammar": null, "relevance": 3}', times: 1 });
    const missing = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.ok(missing.every((s) => s.value === null && s.label === 'judge-error'));
    assert.match(missing[0]!.judgeError ?? '', /grammar: null is not a number; appropriateness: field required/);
    server.addRule({ reply: '{"content": NaN, "grammar": 2, "relevance": 3, "appropriateness": 4}' });
    const nan = await setup({}, { context: CONTEXT, response: RESPONSE }).score();
    assert.deepEqual(values(nan), { content: null, grammar: 2, relevance: 3, appropriateness: 4 });
  });
});

describe('through the engine', () => {
  it('given responses are scored, generated ones go through answer.prompt; the report has means, distributions and agreement', async (t) => {
    server.addRule({ match: { contains: 'The output should be formatted' }, reply: '{"content": 4, "grammar": 5}' });
    server.addRule({ reply: 'A generated reply.' });
    const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-llm-eval-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    const rows = [
      { id: 'a', context: 'Hi', response: 'Hello!', human_scores: { content: 3, grammar: 4 } },
      { id: 'b', context: 'How are you?', human_scores: { content: 5, grammar: 5 } },
    ];
    writeFileSync(path.join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n'));
    writeFileSync(path.join(dir, 'le.eval.yaml'), `version: 1
name: llm-eval engine test
models:
  - { provider: openai-compatible, model: chat, baseUrl: ${server.openaiBaseUrl} }
judge: { provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }
suites:
  - id: le
    method: llm-eval
    dataset: data.jsonl
    params: { dimensions: [content, grammar] }
`);
    const outcome = await runEvaluation(path.join(dir, 'le.eval.yaml'), { signal: new AbortController().signal, credentials: envCredentials({}) });
    assert.equal(outcome.status, 'success');
    assert.equal(outcome.totals.modelCalls, 1);
    assert.equal(outcome.totals.judgeCalls, 2);
    const report = outcome.reports[0]!;
    assert.deepEqual(report.metrics.map((m) => [m.name, m.value, m.n]), [['content', 4, 2], ['grammar', 5, 2]]);
    assert.deepEqual(report.tables.map((t) => t.id), ['llm-eval-means', 'llm-eval-distribution-content', 'llm-eval-distribution-grammar', 'llm-eval-human-agreement']);
  });
});
