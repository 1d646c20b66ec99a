// Traces out: a real run (RGB through the real OpenAI SDK against the fixture LLM server) exported to a local OTLP/HTTP
// receiver that decodes what it gets; batches, retries and failures; and the round trip back through import-traces.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { after, before, test } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import type { RunData } from '../../../src/core/report/runData.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { CaseLine } from '../../../src/core/run/runLog.js';
import { exportCasesToOtlp } from '../../../src/core/traces/otlpExport.js';
import type { CaseEntry } from '../../../src/core/model.js';
import { importTraces } from '../../../src/core/traces/importTraces.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import type { Workspace } from '../engine/workspace.js';
import { asRows } from './importedRow.js';
import { attributesOf, startOtlpReceiver } from '../../fixtures/otlpReceiver.js';
import type { OtlpReceiver, OtlpSpan } from '../../fixtures/otlpReceiver.js';

const SECRET = 'phx-secret-token-0123456789';
let llm: FixtureServer;
let ws: Workspace;
let run: RunData;
let cases: CaseLine[];

before(async () => {
  llm = await startFixtureServer();
  for (let i = 0; i < 5; i++) llm.addRule({ match: { contains: `landmark number ${i}?` }, reply: i === 3 ? 'No idea.' : `Answer${i}.` });
  ws = createWorkspace({ rows: rgbRows(5), evalYaml: () => fixtureEvalYaml(llm.openaiBaseUrl) });
  const outcome = await runEvaluation(ws.evalFile, { signal: new AbortController().signal, credentials: envCredentials({ OPENAI_API_KEY: 'fixture-key' }), workspaceDir: ws.dir });
  run = await runDataFromLog(outcome.logFile);
  cases = (await readRunLog(outcome.logFile)).cases;
});
after(async () => {
  await llm.close();
  ws.cleanup();
});

async function* entriesOf(run: RunData): AsyncIterable<CaseEntry> {
  for await (const { evalCase, result } of run.entries()) if (evalCase) yield { evalCase, result };
}

async function withReceiver(body: (receiver: OtlpReceiver) => Promise<void>): Promise<void> {
  const receiver = await startOtlpReceiver();
  try {
    await body(receiver);
  } finally {
    await receiver.close();
  }
}

const KIND = 'openinference.span.kind';

test('each case arrives as an OpenInference trace in OTLP JSON: CHAIN, RETRIEVER, LLM and EVALUATOR spans with the conventions\' attributes', () => withReceiver(async (receiver) => {
  const summary = await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: receiver.url, headers: { authorization: `Bearer ${SECRET}` }, batchSize: 2 });
  assert.deepEqual(summary.warnings, []);
  assert.equal(summary.sent, cases.length);
  assert.equal(receiver.requests.length, Math.ceil(cases.length / 2), 'one request per batch of two cases');
  for (const request of receiver.requests) {
    assert.equal(request.path, '/v1/traces');
    assert.match(String(request.headers['content-type']), /^application\/json/);
    assert.equal(request.headers.authorization, `Bearer ${SECRET}`);
    const resource = attributesOf(request.body.resourceSpans[0]!.resource ?? {});
    assert.equal(resource['service.name'], 'rag-inspector');
    assert.equal(resource['openinference.project.name'], 'engine test');
  }
  const spans = receiver.spans();
  for (const span of spans) {
    assert.match(span.traceId, /^[0-9a-f]{32}$/, 'trace ids in hex (OTLP JSON)');
    assert.match(span.spanId, /^[0-9a-f]{16}$/);
    assert.match(String(span.startTimeUnixNano), /^\d{19}$/, 'times as decimal strings of nanoseconds');
    assert.equal(typeof span.kind, 'number', 'enums as integers');
  }
  const traces = new Map<string, OtlpSpan[]>();
  for (const span of spans) traces.set(span.traceId, [...(traces.get(span.traceId) ?? []), span]);
  assert.equal(traces.size, cases.length, 'one trace per case');
  for (const line of cases) {
    const { case: evalCase, result } = line;
    const trace = [...traces.values()].find((t) => JSON.parse(String(attributesOf(rootOf(t)).metadata)).case_id === evalCase.id)!;
    assert.ok(trace, `a trace for ${evalCase.id}`);
    const root = rootOf(trace);
    const rootAttributes = attributesOf(root);
    assert.equal(rootAttributes[KIND], 'CHAIN');
    assert.equal(rootAttributes['input.value'], evalCase.question);
    assert.equal(rootAttributes['output.value'], result.response!.text);
    assert.equal(rootAttributes['session.id'], run.runId);
    const byKind = (kind: string) => trace.filter((s) => attributesOf(s)[KIND] === kind);
    const [retriever] = byKind('RETRIEVER');
    const retrieved = attributesOf(retriever!);
    assert.equal(retriever!.parentSpanId, root.spanId);
    evalCase.documents.forEach((doc, i) => {
      assert.equal(retrieved[`retrieval.documents.${i}.document.id`], doc.id);
      assert.equal(retrieved[`retrieval.documents.${i}.document.content`], doc.text);
      assert.equal(JSON.parse(String(retrieved[`retrieval.documents.${i}.document.metadata`])).role, doc.role);
    });
    const llmSpan = attributesOf(byKind('LLM')[0]!);
    assert.equal(llmSpan['llm.model_name'], 'fixture-model');
    assert.equal(llmSpan['llm.provider'], 'openai-compatible');
    evalCase.messages.forEach((message, i) => {
      assert.equal(llmSpan[`llm.input_messages.${i}.message.role`], message.role);
      assert.equal(llmSpan[`llm.input_messages.${i}.message.content`], message.content);
    });
    assert.equal(llmSpan['llm.output_messages.0.message.content'], result.response!.text);
    assert.equal(llmSpan['llm.token_count.prompt'], result.response!.usage.inputTokens);
    assert.equal(llmSpan['llm.token_count.completion'], result.response!.usage.outputTokens);
    assert.deepEqual(JSON.parse(String(llmSpan['llm.prompt_template.variables'])), JSON.parse(JSON.stringify(evalCase.variables)));
    const evaluators = byKind('EVALUATOR').map(attributesOf);
    assert.deepEqual(evaluators.map((e) => e['evaluation.name']), result.scores.map((s) => s.metric));
    result.scores.filter((s) => s.value !== null).forEach((score, i) => {
      assert.equal(rootAttributes[`evaluations.${i}.evaluation.name`], score.metric);
      assert.equal(rootAttributes[`evaluations.${i}.evaluation.score`], score.value);
    });
    const events = (root.events ?? []).filter((e) => e.name === 'evaluation').map(attributesOf);
    assert.deepEqual(events.map((e) => e['evaluation.name']), result.scores.filter((s) => s.value !== null).map((s) => s.metric));
  }
}));

test('round trip: a run exported and imported back gives one row per case with its question, passages and response', () => withReceiver(async (receiver) => {
  await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: receiver.url, headers: {} });
  const file = path.join(ws.dir, 'exported-traces.jsonl');
  writeFileSync(file, receiver.requests.map((r) => `${r.text}\n`).join(''));
  const outcome = await importTraces(file, { where: [], seed: 1 });
  assert.deepEqual(outcome.problems.map((p) => p.format()), []);
  assert.equal(outcome.rows.length, cases.length);
  const rowsByQuestion = new Map(asRows(outcome.rows).map((row) => [row.question, row]));
  for (const { case: evalCase, result } of cases) {
    const row = rowsByQuestion.get(evalCase.question);
    assert.ok(row, `a row for ${evalCase.id}`);
    assert.deepEqual(row.retrieved_contexts, evalCase.documents.map((d) => d.text));
    assert.deepEqual(row.passages.map((p) => p.id), evalCase.documents.map((d) => d.id));
    assert.deepEqual(row.passages.map((p) => p.metadata.role), evalCase.documents.map((d) => d.role));
    assert.equal(row.response, result.response!.text);
    assert.equal(row.model, 'fixture-model');
    assert.deepEqual(row.messages, evalCase.messages);
    assert.deepEqual(row.template_variables, JSON.parse(JSON.stringify(evalCase.variables)));
    for (const score of result.scores) if (score.value !== null) assert.equal(row.trace_scores[score.metric], score.value);
  }
}));

test('a batch answered 503 is retried (Retry-After honoured) and then delivered', () => withReceiver(async (receiver) => {
  receiver.reply = (n) => (n === 0 ? { status: 503, headers: { 'retry-after': '0' } } : { status: 200, body: '{}' });
  const summary = await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: receiver.url, headers: {} });
  assert.deepEqual(receiver.requests.map((r) => r.status), [503, 200]);
  assert.deepEqual(summary.warnings, []);
  assert.equal(summary.sent, cases.length);
}));

test('a rejected export is a warning, never an exception, and the warning carries no header value', () => withReceiver(async (receiver) => {
  receiver.reply = () => ({ status: 401, body: JSON.stringify({ message: `bad token Bearer ${SECRET}` }) });
  const summary = await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: receiver.url, headers: { authorization: `Bearer ${SECRET}` }, batchSize: 2 });
  assert.equal(summary.sent, 0);
  assert.equal(summary.notSent, cases.length);
  assert.equal(receiver.requests.length, 1, 'no retry of a 401, and no further batches once the endpoint refused');
  assert.match(summary.warnings.join('\n'), /OTLP export to .* failed for 2 case\(s\)/);
  assert.match(summary.warnings.join('\n'), /were not exported; the run and its reports are complete/);
  assert.doesNotMatch(summary.warnings.join('\n'), new RegExp(SECRET));
}));

test('an endpoint nobody listens on is a warning after the exporter\'s retries, within its time limit', async () => {
  const receiver = await startOtlpReceiver();
  const url = receiver.url;
  await receiver.close();
  const summary = await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: url, headers: {}, timeoutMs: 500 });
  assert.equal(summary.sent, 0);
  assert.match(summary.warnings[0] ?? '', /failed for \d+ case\(s\)/);
});

test('an endpoint given as a bare origin gets the OTLP traces path', () => withReceiver(async (receiver) => {
  const origin = new URL(receiver.url).origin;
  const summary = await exportCasesToOtlp(entriesOf(run), { runId: run.runId, name: run.name }, { endpoint: origin, headers: {} });
  assert.equal(summary.endpoint, `${origin}/v1/traces`);
  assert.equal(receiver.requests[0]?.path, '/v1/traces');
}));

test('CLI: export.otlp in the eval file with a header from the environment; the secret reaches the endpoint and nothing written', () => withReceiver(async (receiver) => {
  const evalFile = ws.write('export.eval.yaml', `${readFileSync(ws.evalFile, 'utf8')}
export:
  otlp:
    endpoint: ${receiver.url}
    headers:
      authorization: { env: PHOENIX_TEST_KEY, prefix: "Bearer " }
`);
  const out = path.join(ws.dir, 'export-reports');
  const exit = await cli(['run', evalFile, '--out', out, '--quiet', '--format', 'json,csv,junit'], { PHOENIX_TEST_KEY: SECRET, OPENAI_API_KEY: 'fixture-key' });
  assert.equal(exit.code, 0, exit.stderr);
  assert.match(exit.stdout, new RegExp(`Traces: ${cases.length} case\\(s\\) sent to ${receiver.url.replace(/[.]/g, '\\.')}`));
  assert.equal(receiver.requests[0]?.headers.authorization, `Bearer ${SECRET}`);
  const written = [
    ...readdirSync(out).map((f) => readFileSync(path.join(out, f), 'utf8')),
    ...readdirSync(path.join(ws.dir, '.rag-inspector', 'runs')).map((f) => readFileSync(path.join(ws.dir, '.rag-inspector', 'runs', f), 'utf8')),
    exit.stdout,
    exit.stderr,
  ].join('\n');
  assert.doesNotMatch(written, new RegExp(SECRET));
}));

test('CLI: under --contain the eval file\'s export endpoint gets nothing unless allowed with --allow-endpoint', () => withReceiver(async (receiver) => {
  const evalFile = ws.write('contained.eval.yaml', `${readFileSync(ws.evalFile, 'utf8')}
export:
  otlp:
    endpoint: ${receiver.url}
    headers:
      x-key: { env: OPENAI_API_KEY }
`);
  const base = ['run', evalFile, '--out', path.join(ws.dir, 'contained-reports'), '--quiet', '--format', 'json', '--contain', '--allow-endpoint', llm.openaiBaseUrl];
  const refused = await cli(base, { OPENAI_API_KEY: 'fixture-key' });
  assert.equal(refused.code, 0, refused.stderr);
  assert.match(refused.stderr, /--contain: the eval file's export\.otlp endpoint .* was not sent anything/);
  assert.equal(receiver.requests.length, 0);
  const allowed = await cli([...base, '--allow-endpoint', receiver.url], { OPENAI_API_KEY: 'fixture-key' });
  assert.equal(allowed.code, 0, allowed.stderr);
  assert.ok(receiver.requests.length > 0);
  assert.equal(receiver.requests[0]?.headers['x-key'], 'fixture-key');
}));

test('CLI: --export-otlp to a refusing endpoint leaves the exit code alone and warns', () => withReceiver(async (receiver) => {
  receiver.reply = () => ({ status: 400, body: '{"message":"bad data"}' });
  const exit = await cli(['report', (await readRunLog(run.logFile!)).file, '--out', path.join(ws.dir, 'again'), '--format', 'json', '--export-otlp', receiver.url], {});
  assert.equal(exit.code, 0, exit.stderr);
  assert.match(exit.stderr, /warning: OTLP export to .* failed/);
}));

function rootOf(trace: OtlpSpan[]): OtlpSpan {
  return trace.find((s) => !s.parentSpanId)!;
}

function cli(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve('src/cli/main.ts'), ...args], { env: { ...process.env, CI: 'true', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += d; });
  child.stderr.on('data', (d) => { stderr += d; });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}
