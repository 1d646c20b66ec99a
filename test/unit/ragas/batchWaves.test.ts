// A multi-step method in batch mode, for each vendor: RAGAS asks the judge in steps (statements, then verdicts on
// them), so each step must go out as its own wave of batches, built from the previous wave's answers, and score
// exactly as the same run made interactively. Real SDKs over HTTP to the fixture server's batch endpoints.
import { beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOutcome } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { promptKind, scriptedReplies } from './builders.js';

let server: FixtureServer;

useFixtureServer((started) => {
  server = started;
});
beforeEach(() => {
  // Each batch ends at its first poll: the run's polls start 5 s apart, and the waves' order does not need more.
  server.setBatchProcessingMs(0);
});

/** One batch as the server holds it: its model, when it was created and ended, and the text of each request. */
interface ServerBatch {
  model: string;
  createdAtMs: number;
  endedAtMs: number;
  requests: string[];
}

interface Vendor {
  name: string;
  /** The eval file's model and judge (provider, model, baseUrl), once the server listens. */
  model: () => string;
  judge: () => string;
  modelName: string;
  judgeName: string;
  batches: () => ServerBatch[];
  interactivePath: string;
}

const VENDORS: Vendor[] = [
  {
    name: 'openai',
    modelName: 'model-under-test',
    judgeName: 'judge',
    model: () => `{ provider: openai-compatible, model: model-under-test, baseUrl: ${server.openaiBaseUrl} }`,
    judge: () => `{ provider: openai-compatible, model: judge, baseUrl: ${server.openaiBaseUrl} }`,
    batches: () => [...server.batches.batches.values()].map((batch) => {
      const lines = (server.batches.files.get(batch.inputFileId)?.content ?? '').split('\n').filter((line) => line.trim() !== '');
      const bodies = lines.map((line) => (JSON.parse(line) as { body: { model: string } }).body);
      return { model: bodies[0]?.model ?? '', createdAtMs: batch.createdAtMs, endedAtMs: batch.endedAtMs ?? Infinity, requests: bodies.map((body) => JSON.stringify(body)) };
    }),
    interactivePath: '/v1/chat/completions',
  },
  {
    name: 'anthropic',
    modelName: 'claude-haiku-4-5',
    judgeName: 'claude-opus-4-5',
    model: () => `{ provider: anthropic, model: claude-haiku-4-5, baseUrl: ${server.anthropicBaseUrl} }`,
    judge: () => `{ provider: anthropic, model: claude-opus-4-5, baseUrl: ${server.anthropicBaseUrl} }`,
    batches: () => [...server.messageBatches.batches.values()].map((batch) => ({
      model: String(batch.requests[0]?.params.model ?? ''),
      createdAtMs: batch.createdAtMs,
      endedAtMs: batch.endedAtMs ?? Infinity,
      requests: batch.requests.map((request) => JSON.stringify(request.params)),
    })),
    interactivePath: '/v1/messages',
  },
];

/** Each row's answer has one supported and one unsupported sentence, except the last (all supported). */
const ROWS = Array.from({ length: 5 }, (_, i) => ({
  id: `row-${i}`,
  user_input: `Where is tower ${i}?`,
  retrieved_contexts: [`Tower ${i} is in Paris.`, `Rome has ${i} churches.`],
  reference: `Tower ${i} is in Paris.`,
}));

function scriptServer(): void {
  server.addRule({
    match: { contains: 'Answer the question using only the context below' },
    reply: (request) => {
      const i = /tower (\d+)\?/.exec(request.text)?.[1] ?? '?';
      return i === '4' ? `Tower ${i} is in Paris.` : `Tower ${i} is in Paris. It is made of gold.`;
    },
  });
  // A literal-minded judge: a statement is supported when a context holds it word for word.
  server.addRule({
    reply: scriptedReplies({
      statements: (input) => ({ statements: String(input.answer).split(/(?<=\.)\s+/).filter(Boolean) }),
      nli: (input) => ({
        statements: (input.statements as string[]).map((statement) => {
          const supported = String(input.context).includes(statement);
          return { statement, reason: supported ? 'verbatim' : 'absent', verdict: supported ? 1 : 0, quote: supported ? statement : null };
        }),
      }),
      recall: (input) => ({ classifications: [{ statement: String(input.answer), reason: 'checked', attributed: String(input.context).includes(String(input.answer)) ? 1 : 0 }] }),
    }),
  });
}

function workspace(vendor: Vendor, batch: boolean): { dir: string; evalFile: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-ragas-batch-'));
  writeFileSync(path.join(dir, 'data.jsonl'), ROWS.map((row) => JSON.stringify(row)).join('\n') + '\n');
  const evalFile = path.join(dir, 'ragas.eval.yaml');
  const batched = (line: string) => (batch ? line.replace(' }', ', batch: true }') : line);
  writeFileSync(evalFile, `version: 1
name: ragas batch waves
models:
  - ${batched(vendor.model())}
judge: ${batched(vendor.judge())}
maxRetries: 0
suites:
  - id: ragas
    method: ragas
    dataset: data.jsonl
    params: { metrics: [faithfulness, context_recall, noise_sensitivity] }
`);
  return { dir, evalFile };
}

/** Which step a request is: the model's answer, or the RAGAS judge step its prompt carries. */
function stepOf(text: string): string {
  if (text.includes('Answer the question using only the context below')) return 'answer';
  return promptKind({ text } as RecordedRequest) ?? 'other';
}

async function run(vendor: Vendor, batch: boolean, t: { after: (fn: () => void) => void }): Promise<RunOutcome> {
  const ws = workspace(vendor, batch);
  t.after(() => rmSync(ws.dir, { recursive: true, force: true }));
  return runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({ ANTHROPIC_API_KEY: 'sk-ant-ragas-batch-test' }) });
}

for (const vendor of VENDORS) {
  test(`${vendor.name}: a RAGAS run in batch mode sends each judge step as its own wave, built from the previous wave's answers, and scores as the interactive run does`, async (t) => {
    scriptServer();
    const interactive = await run(vendor, false, t);
    assert.equal(interactive.status, 'success');
    assert.equal(vendor.batches().length, 0);
    server.requests.length = 0;

    const batched = await run(vendor, true, t);
    assert.equal(batched.status, 'success');
    assert.equal(server.requests.filter((r) => r.method === 'POST' && r.path === vendor.interactivePath).length, 0, 'every call went through a batch');
    // The same cases, scored the same: the report tables and metrics of both modes are equal.
    assert.deepEqual(batched.reports.map((report) => ({ tables: report.tables, metrics: report.metrics })), interactive.reports.map((report) => ({ tables: report.tables, metrics: report.metrics })));
    assert.equal(batched.totals.cases, ROWS.length);
    assert.equal(batched.totals.judgeCalls, interactive.totals.judgeCalls);

    // The waves, as the server saw them: the answers in one batch; then one batch per judge step, each holding only
    // that step's requests and created after the previous wave had ended (its requests need that wave's answers).
    const batches = vendor.batches();
    const steps = batches.map((batch) => [...new Set(batch.requests.map(stepOf))].sort());
    assert.deepEqual(steps, [['answer'], ['recall', 'statements'], ['nli']]);
    // Per model: one batch for the model under test, one per step for the judge.
    assert.deepEqual(batches.map((batch) => batch.model), [vendor.modelName, vendor.judgeName, vendor.judgeName]);
    assert.equal(batches[0]?.requests.length, ROWS.length);
    // Step 1: each row's response and reference broken into statements (identical texts sent once), and its recall.
    assert.equal(batches[1]?.requests.filter((text) => stepOf(text) === 'recall').length, ROWS.length);
    for (let i = 1; i < batches.length; i++) {
      assert.ok((batches[i]?.createdAtMs ?? 0) >= (batches[i - 1]?.endedAtMs ?? Infinity), `wave ${i + 1} was created after wave ${i} ended`);
    }
    const log = await readRunLog(batched.logFile);
    assert.deepEqual(log.batches.map((line) => [line.modelKey.split(':')[0], line.requests.length]), batches.map((batch) => [vendor.name === 'openai' ? 'openai-compatible' : 'anthropic', batch.requests.length]));
  });
}
