// A needle grid end to end: generated cases, the real OpenAI SDK to the fixture server, a scripted judge, the report.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readCaseLines, readRunLog, scanRunLog } from '../../../src/core/run/runLog.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import type { EvalCase } from '../../../src/core/model.js';
import { packageRoot } from '../../../src/core/assets.js';
import { loggedRun } from '../engine/loggedRun.js';
import { buildPlan } from '../../../src/core/engine/plan.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';

let server: FixtureServer;
let dir: string;

useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'needle-engine-'));
});

const options = () => ({ signal: new AbortController().signal, credentials: envCredentials({}), noCache: true });

function evalFile(suites: string, judge = false): string {
  const model = (name: string) => `{ provider: openai-compatible, model: ${name}, baseUrl: ${server.openaiBaseUrl} }`;
  const file = path.join(dir, 'needle.eval.yaml');
  writeFileSync(file, `version: 1
name: needle engine test
models:
  - ${model('fixture-model')}
${judge ? `judge: ${model('fixture-judge')}` : ''}
concurrency: 4
maxRetries: 1
timeoutMs: 10000
suites:
${suites}
`, 'utf8');
  return file;
}

const chats = (model: string): RecordedRequest[] => server.requests.filter((r) => r.api === 'openai-chat' && r.model === model);
const messagesOf = (request: RecordedRequest) => (request.body as { messages: { role: string; content: string }[] }).messages;

describe('needle through the engine', () => {
  it('a classic grid on the bundled haystack, judged "[[8]]" by a scripted judge: every cell 8, the heatmap and the log', async (t) => {
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    server.addRule({ match: { model: 'fixture-judge' }, reply: 'The response states the activity in the ground truth. Rating: [[8]]' });
    server.addRule({ match: { model: 'fixture-model' }, reply: 'Eat a sandwich and sit in Dolores Park on a sunny day.' });
    const file = evalFile(`  - id: grid
    method: needle
    params: { contextLengths: [1000, 3000], depths: [0, 50, 100] }
    thresholds: { mean_score: { min: 7 } }`, true);

    const outcome = await runEvaluation(file, options());
    const fromLog = await loggedRun(outcome);
    assert.equal(outcome.status, 'success');
    assert.deepEqual([outcome.totals.cases, outcome.totals.passed, outcome.totals.judgeCalls], [6, 6, 6]);
    for (const result of fromLog.results) assert.deepEqual(result.scores.map((s) => [s.metric, s.value, s.pass]), [['judge_score', 8, true]]);

    const asked = chats('fixture-model');
    assert.equal(asked.length, 6);
    for (const request of asked) {
      const messages = messagesOf(request);
      assert.deepEqual(messages.map((m) => m.role), ['system', 'user', 'user']);
      assert.ok(messages[1]!.content.includes('The best thing to do in San Francisco is eat a sandwich'), 'the needle is in the context message');
      assert.equal((request.body as { max_tokens?: number; temperature?: number }).temperature, 0);
    }
    assert.ok(chats('fixture-judge').every((r) => messagesOf(r)[1]!.content.includes('[Ground truth]\n\nThe best thing to do in San Francisco')));

    const report = outcome.reports[0]!;
    const heatmap = report.tables.find((t) => t.id === 'needle-heatmap:openai-compatible:fixture-model')!;
    assert.deepEqual(heatmap.columns, ['1000', '3000']);
    assert.deepEqual(heatmap.rows.map((r) => [r.label, ...r.cells.map((c) => `${c.value}/${c.n}`)]), [['0', '8/1', '8/1'], ['50', '8/1', '8/1'], ['100', '8/1', '8/1']]);
    assert.equal(report.charts?.[0]?.tableId, heatmap.id);
    assert.deepEqual(outcome.thresholds.map((t) => [t.metric, t.value, t.passed]), [['mean_score', 8, true]]);

    const log = await readRunLog(outcome.logFile);
    const logged = log.cases.find((c) => c.case.id === 'grid/L=3000/d=50')!;
    const document = logged.case.documents[0]!;
    assert.equal(document.role, 'haystack');
    assert.equal(document.text.slice(document.spans[0]!.start, document.spans[0]!.end), logged.case.variables.needle);
    assert.equal((logged.case.params as { tokenizer: string }).tokenizer, 'o200k_base');
    assert.equal(document.source, `first ${(logged.case.params as { haystackTokens: number }).haystackTokens} tokens of 9 haystack files`, 'no haystack param: the bundled example');
  });

  it('the log stores the haystack once and rebuilds every prompt byte for byte as the server received it, through every reader', async (t) => {
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    server.addRule({ match: { model: 'fixture-model' }, reply: 'Eat a sandwich.' });
    const file = evalFile(`  - id: reference
    method: needle
    params: { contextLengths: [1000, 3000], depths: [0, 50, 100] }
  - id: rev2
    method: needle
    params: { contextLengths: [1000, 3000], depths: [0, 50, 100], prompt: anthropic-rev2 }`);
    const outcome = await runEvaluation(file, options());
    assert.equal(outcome.status, 'success');

    const sent = chats('fixture-model').map((request) => JSON.stringify(messagesOf(request)));
    assert.equal(sent.length, 12);
    const index = await RunLogIndex.build(outcome.logFile);
    const fromIndex = [...(await index.readEntries(index.entries.keys())).values()].map((e) => e.evalCase);
    const streamed: EvalCase[] = [];
    for await (const line of readCaseLines(await scanRunLog(outcome.logFile))) streamed.push(line.case);
    const whole = (await readRunLog(outcome.logFile)).cases.map((c) => c.case);
    for (const cases of [fromIndex, streamed, whole]) {
      assert.deepEqual(cases.map((c) => JSON.stringify(c.messages.map((m) => ({ role: m.role, content: m.content })))).sort(), [...sent].sort());
    }

    const lines = readFileSync(outcome.logFile, 'utf8').split('\n');
    const long = lines.filter((l) => l.startsWith('{"type":"text"') && l.length > 10_000);
    assert.equal(long.length, 1, 'one haystack text for both suites and every cell');
    assert.ok(lines.filter((l) => l.startsWith('{"type":"case"')).every((l) => l.length < 5_000), 'no case line holds its context');
  });

  it('Arize with the negative test, and the same grid with another template: rails per cell, the pre-fill sent', async (t) => {
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    server.addRule({
      match: { model: 'fixture-model' },
      reply: (request) => {
        const needle = /special magic (.+?) number is: (\d{7})/.exec(request.text);
        return needle ? `The special magic ${needle[1]} number is: ${needle[2]}.` : 'UNANSWERABLE';
      },
    });
    const grid = 'contextLengths: [1000, 2000], depths: [25, 75]';
    const file = evalFile(`  - id: simple
    method: needle
    params: { variant: arize, ${grid} }
  - id: rev2
    method: needle
    params: { variant: arize, prompt: anthropic-rev2, ${grid} }`);

    const outcome = await runEvaluation(file, options());
    const fromLog = await loggedRun(outcome);
    assert.equal(outcome.totals.cases, 12, '4 cells and 2 negative cells per suite');
    for (const report of outcome.reports) {
      const metric = (name: string) => report.metrics.find((m) => m.name === name)?.value;
      assert.deepEqual([metric('pass_rate'), metric('miss_count'), metric('negative_refusal_rate')], [1, 0, 1], report.suiteId);
    }
    const rev2 = chats('fixture-model').filter((r) => messagesOf(r).at(-1)!.role === 'assistant');
    assert.equal(rev2.length, 6);
    assert.ok(rev2.every((r) => messagesOf(r).at(-1)!.content === 'Here is the most relevant sentence in the context:'));
    const numbers = fromLog.results.map((r) => fromLog.cases.get(r.caseId)!.params.number);
    assert.equal(new Set(numbers).size, 12, 'every cell of both suites draws its own number');
  });

  it('the bundled example plans its three suites on one grid and runs offline with the extractive baseline', async (t) => {
    const workspaceDir = mkdtempSync(path.join(tmpdir(), 'needle-example-'));
    t.after(() => rmSync(workspaceDir, { recursive: true, force: true }));
    // The BM25 reader takes ~0.2 s per long prompt on one core: the two shortest columns keep the test quick.
    const caseFilter = (caseId: string) => /\/L=(1000|2750)\//.test(caseId);
    const example = path.join(packageRoot(), 'examples/needle/needle-example.eval.yaml');
    const outcome = await runEvaluation(example, { ...options(), workspaceDir, caseFilter });
    const fromLog = await loggedRun(outcome);
    const plan = await buildPlan(await loadEvalSpec(example), new AbortController().signal);
    assert.equal(outcome.status, 'success');
    assert.deepEqual(plan.suites.map((s) => [s.spec.id, s.cases.length, path.basename(s.templateFile)]), [
      ['needle-reference', 25, 'reference.prompt'], ['needle-anthropic-original', 25, 'anthropic-original.prompt'], ['needle-anthropic-rev2', 25, 'anthropic-rev2.prompt'],
    ]);
    assert.equal(fromLog.results.length, 30);
    for (const report of outcome.reports) {
      assert.deepEqual(report.metrics.map((m) => [m.name, m.value, m.n]), [['mean_score', 1, 10], ['pass_rate', 1, 10], ['miss_count', 0, 10]], `BM25 picks the needle sentence with ${report.suiteId}`);
    }
  });
});
