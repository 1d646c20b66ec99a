// Traces in, end to end: a RAG app instrumented with the official OpenInference instrumentation and OTLP exporter sends
// its traces to a local OTLP/HTTP receiver; the requests, one per line, are the trace file; import-traces turns it into
// rows that the RAGAS and LLM-Eval suites read, and an LLM-Eval run over them scores the recorded responses.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { readDataset } from '../../../src/core/data/readDataset.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { expandLlmEvalRow } from '../../../src/core/suites/llmEval/cases.js';
import { readRagasRow } from '../../../src/core/suites/ragas/rows.js';
import { importTraces } from '../../../src/core/traces/importTraces.js';
import { runImportTraces } from '../../../src/cli/importTraces.js';
import { runInstrumentedApp, TEMPLATE } from '../../fixtures/instrumentedRagApp.js';
import type { Passage } from '../../fixtures/instrumentedRagApp.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { asRows } from './importedRow.js';
import { startOtlpReceiver } from '../../fixtures/otlpReceiver.js';
import type { OtlpReceiver } from '../../fixtures/otlpReceiver.js';

const CORPUS: Passage[] = [
  { id: 'doc-boil', content: 'Water boils at 100 degrees Celsius at sea level.', metadata: { source: 'physics.md' } },
  { id: 'doc-everest', content: 'Mount Everest is 8849 metres high.', metadata: { source: 'geo.md' } },
  { id: 'doc-altitude', content: 'At altitude water boils at a lower temperature.', metadata: { source: 'physics.md' } },
];
const QUESTIONS = ['At what temperature does water boil at sea level?', 'How high is Mount Everest?'];

let llm: FixtureServer;
let receiver: OtlpReceiver;
let dir: string;
let traceFile: string;
let answers: string[];

before(async () => {
  llm = await startFixtureServer();
  llm.addRule({ match: { contains: 'water boil' }, reply: '100 degrees Celsius.' });
  llm.addRule({ match: { contains: 'Everest' }, reply: '8849 metres.' });
  receiver = await startOtlpReceiver();
  answers = await runInstrumentedApp({ tracesUrl: receiver.url, openaiBaseUrl: llm.openaiBaseUrl, corpus: CORPUS, questions: QUESTIONS });
  dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-traces-'));
  // What the Collector's file exporter writes: one ExportTraceServiceRequest per line.
  traceFile = path.join(dir, 'traces.jsonl');
  writeFileSync(traceFile, receiver.requests.map((r) => `${r.text}\n`).join(''));
});
after(async () => {
  await receiver.close();
  await llm.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the app sent OpenInference spans: a CHAIN, a RETRIEVER and an LLM span per question', () => {
  const kinds = receiver.spans().map((span) => span.attributes?.find((a) => a.key === 'openinference.span.kind')?.value.stringValue);
  assert.equal(kinds.filter((k) => k === 'CHAIN').length, QUESTIONS.length);
  assert.equal(kinds.filter((k) => k === 'RETRIEVER').length, QUESTIONS.length);
  assert.equal(kinds.filter((k) => k === 'LLM').length, QUESTIONS.length);
  assert.deepEqual(answers, ['100 degrees Celsius.', '8849 metres.']);
});

test('each trace becomes one row: question, passages in retrieval order with ids, scores and metadata, response, template, model', async () => {
  const outcome = await importTraces(traceFile, { where: [], seed: 1 });
  assert.deepEqual(outcome.problems.map((p) => p.format()), []);
  assert.equal(outcome.rows.length, 2);
  const traceIds = new Set(receiver.spans().map((s) => s.traceId));
  const [boil, everest] = asRows(outcome.rows);
  assert.equal(boil!.question, QUESTIONS[0]);
  assert.equal(boil!.response, '100 degrees Celsius.');
  assert.deepEqual(boil!.passages.map((p) => p.id), ['doc-boil', 'doc-altitude']);
  assert.deepEqual(boil!.retrieved_contexts, [CORPUS[0]!.content, CORPUS[2]!.content]);
  assert.ok(boil!.passages[0]!.score > boil!.passages[1]!.score, 'retrieval order, best first');
  assert.deepEqual(boil!.passages[0]!.metadata, { source: 'physics.md' });
  assert.equal(boil!.template, TEMPLATE);
  assert.equal(boil!.template_variables.question, QUESTIONS[0]);
  assert.equal(boil!.model, 'fixture-model');
  assert.equal(boil!.model_parameters.temperature, 0);
  assert.equal(boil!.messages[0]!.role, 'user');
  assert.ok(traceIds.has(boil!.trace_id) && traceIds.has(everest!.trace_id) && boil!.trace_id !== everest!.trace_id);
  assert.equal(everest!.question, QUESTIONS[1]);
  assert.equal(everest!.passages[0]!.id, 'doc-everest');
});

test('the rows are read as they are by the RAGAS and LLM-Eval suites', async () => {
  const out = path.join(dir, 'rows-check.jsonl');
  const io = { stdout: sink(), stderr: sink() };
  assert.equal(await runImportTraces([traceFile, '--out', out], io), 0);
  let count = 0;
  for await (const item of readDataset(out)) {
    assert.ok(item.ok, item.ok ? '' : item.error.format());
    const ragas = readRagasRow(item.row);
    assert.equal(ragas.userInput, QUESTIONS[count]);
    assert.equal(ragas.response, answers[count]);
    assert.equal(ragas.retrievedContexts.length, 2);
    const [llmEvalCase] = expandLlmEvalRow(item.row, { dimensions: [{ name: 'content' }], scale: '0-5', withReference: false, level: 'response', parser: 'reference' }, { suiteId: 'llm', seed: 1 } as never);
    assert.equal(llmEvalCase!.givenResponse, answers[count]);
    count += 1;
  }
  assert.equal(count, 2);
});

test('import-traces then run: an LLM-Eval run over the imported rows scores the recorded responses', async () => {
  const dataset = path.join(dir, 'dataset.jsonl');
  assert.equal(await runImportTraces([traceFile, '--out', dataset], { stdout: sink(), stderr: sink() }), 0);
  llm.clearRules();
  llm.addRule({ match: { model: 'fixture-judge' }, reply: '{"content": 4}' });
  const evalFile = path.join(dir, 'imported.eval.yaml');
  writeFileSync(evalFile, `version: 1
name: imported traces
models: [ "extractive:bm25" ]
judge: { provider: openai-compatible, model: fixture-judge, baseUrl: ${llm.openaiBaseUrl} }
suites:
  - id: llm
    method: llm-eval
    dataset: dataset.jsonl
    params: { dimensions: [ content ] }
`);
  const outcome = await runEvaluation(evalFile, { signal: new AbortController().signal, workspaceDir: dir, credentials: envCredentials({ OPENAI_API_KEY: 'fixture-key' }), noCache: true });
  const log = await readRunLog(outcome.logFile);
  assert.equal(log.summary?.problems.length, 0, JSON.stringify(log.summary?.problems));
  assert.equal(log.cases.length, 2);
  for (const line of log.cases) {
    assert.equal(line.result.response?.given, true);
    assert.equal(line.result.scores.find((s) => s.metric === 'content')?.value, 4, JSON.stringify(line.result.scores));
  }
  assert.match(readFileSync(dataset, 'utf8'), /"trace_id"/);
});

function sink(): NodeJS.WritableStream & { text: string } {
  const stream = { text: '', write(chunk: string) { stream.text += chunk; return true; } };
  return stream as unknown as NodeJS.WritableStream & { text: string };
}
