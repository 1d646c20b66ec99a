// RAGAS through the whole engine: eval file, dataset, given responses, judge and embeddings over HTTP, run log, cache; and the bundled example offline.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { scriptedReplies } from './builders.js';
import { loggedRun } from '../engine/loggedRun.js';
import { runCli } from '../robustness/cliProcess.js';

let server: FixtureServer;

/** A literal-minded judge: a statement is supported when a context contains it word for word. */
const judgeScript = scriptedReplies({
  statements: (input) => ({ statements: String(input.answer).split(/(?<=\.)\s+/).filter(Boolean) }),
  nli: (input) => ({
    statements: (input.statements as string[]).map((statement) => {
      const supported = String(input.context).includes(statement);
      return { statement, reason: supported ? 'verbatim in the context' : 'not in the context', verdict: supported ? 1 : 0, quote: supported ? statement : null };
    }),
  }),
  usefulness: (input) => ({ reason: 'shared words', verdict: String(input.context).includes(String(input.answer).split(' ')[0]!) ? 1 : 0 }),
  recall: (input) => ({ classifications: [{ statement: String(input.answer), reason: 'checked', attributed: String(input.context).includes(String(input.answer)) ? 1 : 0 }] }),
  relevance: (input) => ({ sentences: [String(input.context).split('\n')[0]] }),
  question: () => ({ question: 'Where is the tower?', noncommittal: 0 }),
});

before(async () => {
  server = await startFixtureServer({
    rules: [
      { match: { contains: 'Answer the question using only the context below' }, reply: 'The tower is in Paris.' },
      { reply: judgeScript },
    ],
  });
});
after(async () => {
  await server.close();
});

const rows = [
  { id: 'given-1', user_input: 'Where is the tower?', retrieved_contexts: ['The tower is in Paris.', 'Rome has many churches.'], response: 'The tower is in Paris. It is made of gold.', reference: 'The tower is in Paris.' },
  { id: 'given-2', user_input: 'Where is the tower?', retrieved_contexts: ['The tower is in Paris.'], response: 'The tower is in Paris.', reference: 'The tower is in Paris.' },
  { id: 'generated', user_input: 'Where is the tower?', retrieved_contexts: ['The tower is in Paris.'], reference: 'The tower is in Paris.' },
];

function workspace(top: string): { dir: string; evalFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-ragas-'));
  writeFileSync(path.join(dir, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const evalFile = path.join(dir, 'ragas.eval.yaml');
  writeFileSync(evalFile, `version: 1
name: ragas engine test
models:
  - provider: openai-compatible
    model: model-under-test
    baseUrl: ${server.openaiBaseUrl}
${top}
maxRetries: 1
timeoutMs: 5000
suites:
  - id: ragas
    method: ragas
    dataset: data.jsonl
    params: { metrics: [faithfulness, answer_relevancy, context_recall, noise_sensitivity] }
`);
  return { dir, evalFile };
}

const judged = (base: string) => `judge: { provider: openai-compatible, model: judge, baseUrl: ${base} }
embeddings: { provider: openai-compatible, model: embed, baseUrl: ${base} }`;

test('given responses are scored without calling the model; the generated one goes through answer.prompt; a rerun is all cache', async (t) => {
  const ws = workspace(judged(server.openaiBaseUrl));
  t.after(() => rmSync(ws.dir, { recursive: true, force: true }));
  const outcome = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  const fromLog = await loggedRun(outcome);
  assert.equal(outcome.status, 'success');
  assert.equal(fromLog.results.length, 3);
  assert.equal(outcome.totals.modelCalls, 1, 'only the row without a response called the model under test');
  assert.ok(outcome.totals.judgeCalls > 0);

  const byCase = new Map(fromLog.results.map((r) => [r.caseId, r]));
  assert.equal(byCase.get('ragas/given-1')?.response?.given, true);
  assert.equal(byCase.get('ragas/generated')?.response?.given, undefined);
  assert.equal(byCase.get('ragas/generated')?.response?.text, 'The tower is in Paris.');
  const faithfulness = byCase.get('ragas/given-1')!.scores.find((s) => s.metric === 'faithfulness')!;
  assert.equal(faithfulness.value, 0.5, '"The tower is in Paris." is in a context, "It is made of gold." is not');
  assert.deepEqual(faithfulness.evidence, [{ documentId: 'd0', start: 0, end: 22, text: 'The tower is in Paris.' }]);
  const relevancy = byCase.get('ragas/given-1')!.scores.find((s) => s.metric === 'answer_relevancy')!;
  assert.ok(Math.abs(relevancy.value! - 1) < 1e-12, 'the generated question is the asked one, so its embedding is identical (cos 1 up to rounding, as in numpy)');
  assert.ok(byCase.get('ragas/given-1')!.judgeUsage!.calls > 0, 'judge calls are counted per case');

  const report = outcome.reports[0]!;
  assert.equal(report.method, 'ragas');
  assert.deepEqual(report.tables[0]!.rows.map((r) => r.label), ['faithfulness', 'answer_relevancy', 'context_recall', 'noise_sensitivity_relevant']);
  const faithfulnessMean = report.metrics.find((m) => m.name === 'faithfulness')!;
  assert.deepEqual([faithfulnessMean.value, faithfulnessMean.n], [(0.5 + 1 + 1) / 3, 3]);
  const noise = report.metrics.find((m) => m.name === 'noise_sensitivity_relevant')!;
  assert.equal(noise.value, 0, 'the gold claim is wrong but comes from no context');

  const log = await readRunLog(outcome.logFile);
  assert.equal(log.header.embeddings, 'openai-compatible:embed');
  assert.equal(log.cases.length, 3);

  const before = server.requests.length;
  const rerun = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(server.requests.length, before, 'judge answers and vectors both come from the cache');
  assert.deepEqual(rerun.reports[0]!.metrics, report.metrics);
});

test('the bundled example runs offline to a report that says the metrics need a judge model', async (t) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-ragas-example-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const outcome = await runEvaluation(path.resolve('examples/ragas/ragas-example.eval.yaml'), { signal: new AbortController().signal, credentials: envCredentials({}), workspaceDir: dir });
  const fromLog = await loggedRun(outcome);
  assert.equal(outcome.status, 'success');
  assert.equal(outcome.problems.length, 0, JSON.stringify(outcome.problems));
  assert.equal(fromLog.results.length, 10);
  assert.ok(fromLog.results.every((r) => r.status === 'success' && r.response?.given === true));
  assert.equal(outcome.totals.modelCalls, 0);
  const report = outcome.reports[0]!;
  assert.match(report.notes[0] ?? '', /^RAGAS metrics need a judge model: set judge: in the eval file/, 'said first');
  for (const row of report.tables[0]!.rows) assert.deepEqual(row.cells[0], { value: null, n: 0, undetermined: 10 }, row.label);
  assert.ok(report.metrics.every((m) => m.value === null));
});

test('a judge whose answers cannot be read: the run says "completed with judge errors" and the CLI prints the cause in the Errors table', async (t) => {
  // The judge answers prose, never the JSON the metric asks for (and not after the repair either).
  const garbage = await startFixtureServer({ rules: [{ match: { contains: 'Answer the question using only the context below' }, reply: 'The tower is in Paris.' }, { reply: 'I can not' }] });
  t.after(() => garbage.close());
  const ws = workspace(judged(garbage.openaiBaseUrl).replace(/model-under-test/, 'x'));
  t.after(() => rmSync(ws.dir, { recursive: true, force: true }));
  const outcome = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({}) });
  assert.equal(outcome.status, 'completed-with-judge-errors');
  assert.equal(outcome.totals.judgeErrors, 3);
  assert.equal(outcome.totals.error, 0);

  const exit = await runCli(['run', ws.evalFile, '--out', path.join(ws.dir, 'reports')], { ...process.env as Record<string, string>, CI: 'true' });
  assert.match(exit.stdout, /Judge errors \(12 scores, 4 causes\):\n\s+3 {2}judge error \(faithfulness\): statement generation: judge output is not valid/);
  assert.doesNotMatch(exit.stdout, /^Errors \(/m, 'no case ended in an error');
  assert.match(exit.stdout, /Status: completed with judge errors/);
  assert.match(exit.stderr, /error: judge error \(\w+\): /, 'said as it happens');
  const report = JSON.parse(readFileSync(path.join(ws.dir, 'reports', 'report.json'), 'utf8')) as { status: string };
  assert.equal(report.status, 'completed-with-judge-errors');
});
