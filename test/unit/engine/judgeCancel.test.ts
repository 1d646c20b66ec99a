// Cancelling a run while a method's judge call is in flight: the case is not logged as finished, and --resume runs
// it again to a judged result. One run per method that asks a judge (IF-RAG scores by rule and has no judge call).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { CaseResult } from '../../../src/core/model.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { find } from '../suites/builders.js';
import { scriptedReplies } from '../ragas/builders.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});

const MODEL = 'model-under-test';
const JUDGE = 'judge';

interface JudgedMethod {
  name: string;
  /** The suite entry of the eval file (one case). */
  suite: string;
  /** Dataset files beside the eval file. */
  files?: Record<string, string>;
  /** What the model under test answers (methods whose rows give the response make no model call). */
  modelReply?: string;
  /** What the judge answers once the run is resumed. */
  judgeReply: (request: RecordedRequest) => string;
  /** The finished case's judged score: proves the resumed run asked the judge and used its answer. */
  judged(result: CaseResult): void;
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const NEGATIVES = Array.from({ length: 7 }, (_, i) => `Noise ${i}: Super Bowl LVIII tickets are on sale in Las Vegas.`);
const POSITIVE = (answer: string, i: number) => `Passage ${i}: Super Bowl LV was played at Raymond James Stadium in ${answer}.`;

const METHODS: JudgedMethod[] = [
  {
    name: 'RGB Rej* (negative rejection)',
    files: { 'data.jsonl': jsonl([{ id: 0, query: 'Who won the 2031 final?', answer: 'Nobody knows', positive: ['irrelevant positive'], negative: NEGATIVES }]) },
    suite: 'method: rgb\n    dataset: data.jsonl\n    params: { testbed: negative_rejection }',
    modelReply: 'The documents do not say.',
    judgeReply: () => 'No, the question is not addressed by the documents.',
    judged: (result) => assert.equal(find(result.scores, 'rej_star').value, 1),
  },
  {
    name: 'RGB ED* (counterfactual robustness)',
    files: {
      'data.jsonl': jsonl([{
        id: 0, query: 'Super Bowl 2021 location', answer: 'Tampa, Florida', fakeanswer: 'Glendale, Arizona',
        positive: [0, 1, 2].map((j) => POSITIVE('Tampa, Florida', j)), positive_wrong: [0, 1, 2].map((j) => POSITIVE('Glendale, Arizona', j)), negative: NEGATIVES,
      }]),
    },
    suite: 'method: rgb\n    dataset: data.jsonl\n    params: { testbed: counterfactual_robustness, noiseRates: [0], passageNum: 3 }',
    modelReply: 'There are factual errors in the provided documents.',
    judgeReply: () => 'Yes, the model has identified the factual errors.',
    judged: (result) => assert.equal(find(result.scores, 'ed_star').value, 1),
  },
  {
    name: 'RGB failure label',
    files: { 'data.jsonl': jsonl([{ id: 0, query: 'Super Bowl 2021 location', answer: 'Tampa, Florida', positive: [0, 1, 2].map((j) => POSITIVE('Tampa, Florida', j)), negative: NEGATIVES }]) },
    suite: 'method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3, judge: { failureLabels: true } }',
    modelReply: 'Las Vegas.',
    judgeReply: () => '{"label": "concept_confusion", "explanation": "It answered about Super Bowl LVIII."}',
    judged: (result) => assert.equal(find(result.scores, 'failure_label').label, 'concept_confusion'),
  },
  {
    name: 'Needle in a Haystack 1–10 judge',
    suite: 'method: needle\n    params: { contextLengths: [1000], depths: [50] }',
    modelReply: 'Eat a sandwich and sit in Dolores Park on a sunny day.',
    judgeReply: () => 'The response states the activity in the ground truth. Rating: [[8]]',
    judged: (result) => assert.equal(find(result.scores, 'judge_score').value, 8),
  },
  {
    name: 'RAGAS faithfulness',
    files: { 'data.jsonl': jsonl([{ id: 'q', user_input: 'Where is the tower?', retrieved_contexts: ['The tower is in Paris.'], response: 'The tower is in Paris.' }]) },
    suite: 'method: ragas\n    dataset: data.jsonl\n    params: { metrics: [faithfulness] }',
    judgeReply: scriptedReplies({
      statements: () => ({ statements: ['The tower is in Paris.'] }),
      nli: () => ({ statements: [{ statement: 'The tower is in Paris.', reason: 'verbatim', verdict: 1, quote: 'The tower is in Paris.' }] }),
    }),
    judged: (result) => assert.equal(find(result.scores, 'faithfulness').value, 1),
  },
  {
    name: 'LLM-Eval',
    files: { 'data.jsonl': jsonl([{ id: 'a', context: 'Hi', response: 'Hello!' }]) },
    suite: 'method: llm-eval\n    dataset: data.jsonl\n    params: { dimensions: [content, grammar] }',
    judgeReply: () => '{"content": 4, "grammar": 5}',
    judged: (result) => assert.deepEqual(result.scores.map((s) => [s.metric, s.value]), [['content', 4], ['grammar', 5]]),
  },
];

function workspace(method: JudgedMethod): { dir: string; evalFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-judge-cancel-'));
  for (const [name, text] of Object.entries(method.files ?? {})) writeFileSync(path.join(dir, name), text);
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
  const evalFile = path.join(dir, 'judged.eval.yaml');
  writeFileSync(evalFile, `version: 1
name: judge cancel test
models:
  - ${model(MODEL)}
judge: ${model(JUDGE)}
maxRetries: 1
timeoutMs: 10000
suites:
  - id: judged
    ${method.suite}
`);
  return { dir, evalFile };
}

const judgeCalls = () => server.requests.filter((r) => r.api === 'openai-chat' && r.model === JUDGE).length;
const credentials = envCredentials({});

describe('a run cancelled during a judge call', () => {
  for (const method of METHODS) {
    it(`${method.name}: the case is not logged as finished, and resuming runs it again to a judged result`, async (t) => {
      const ws = workspace(method);
      t.after(() => rmSync(ws.dir, { recursive: true, force: true }));
      const controller = new AbortController();
      // The judge never answers; its request reaching the server is the moment to cancel, so the cancel lands
      // while that call is in flight.
      server.addRule({
        match: (request) => {
          if (request.model !== JUDGE) return false;
          setImmediate(() => controller.abort());
          return true;
        },
        fault: { kind: 'hang' },
      });
      if (method.modelReply !== undefined) server.addRule({ match: { model: MODEL }, reply: method.modelReply });

      const cancelled = await runEvaluation(ws.evalFile, { signal: controller.signal, credentials });
      assert.equal(cancelled.status, 'cancelled');
      assert.ok(judgeCalls() >= 1, 'the run was cancelled during a judge call');
      const partial = await readRunLog(cancelled.logFile);
      assert.deepEqual(partial.cases.map((c) => ({ id: c.case.id, status: c.result.status, judgeErrors: c.result.scores.map((s) => s.judgeError).filter(Boolean) })), [], 'no case is logged as finished');

      server.clearRules();
      server.requests.length = 0;
      server.addRule({ match: { model: JUDGE }, reply: method.judgeReply });
      if (method.modelReply !== undefined) server.addRule({ match: { model: MODEL }, reply: method.modelReply });
      const resumed = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials, resume: cancelled.logFile });
      assert.equal(resumed.status, 'success');
      assert.equal(resumed.runId, cancelled.runId);
      assert.ok(judgeCalls() >= 1, 'the resumed run asked the judge again');
      const full = await readRunLog(cancelled.logFile);
      assert.equal(full.cases.length, 1, 'the case was run again, once');
      const result = full.cases[0]!.result;
      assert.equal(result.status, 'success', JSON.stringify(result.error));
      assert.deepEqual(result.scores.filter((s) => s.judgeError !== undefined), [], 'no judge error recorded');
      method.judged(result);
    });
  }
});
