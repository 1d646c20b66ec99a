// The engine's preflight, through the real OpenAI SDK to the fixture server: the embeddings model is checked too, a
// server still loading is a warning (its 503 is retried during the run), and nothing is sent for providers with no server.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { PreflightError } from '../../../src/core/engine/preflight.js';
import { errorCausesOf } from '../../../src/core/errorCauses.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { isPreflightRequest, startFixtureServer } from '../../fixtures/llmServer.js';
import { waitFor } from '../../fixtures/waitFor.mjs';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { FixtureOptions, FixtureServer } from '../../fixtures/llmServer.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from './workspace.js';

const servers: FixtureServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});
async function server(options: FixtureOptions): Promise<FixtureServer> {
  const started = await startFixtureServer(options);
  servers.push(started);
  return started;
}
const options = { signal: new AbortController().signal, credentials: envCredentials({}), preflight: true };

test('an embeddings model on a llama.cpp started without --embeddings stops the run before it starts, saying so', async (t) => {
  const chat = await server({ flavour: 'llama.cpp' });
  const embed = await server({ flavour: 'llama.cpp', noEmbeddings: true, listedModels: ['/models/qwen.gguf'] });
  const ws = createWorkspace({ rows: rgbRows(12), evalYaml: () => fixtureEvalYaml(chat.openaiBaseUrl, { top: `embeddings: { provider: openai-compatible, model: nomic-embed, baseUrl: "${embed.openaiBaseUrl}" }` }) });
  t.after(() => ws.cleanup());
  await assert.rejects(runEvaluation(ws.evalFile, options), (error: unknown) => error instanceof PreflightError && /cannot serve openai-compatible:nomic-embed: .*HTTP 501: This server does not support embeddings\. Start it with `--embeddings`/.test(error.message));
  assert.ok(!existsSync(path.join(ws.dir, '.rag-inspector', 'runs')), 'no run log');
  // The check runs alongside the first wave (as many cases as the model keeps in flight, 4 here), never beyond it.
  assert.ok(chat.requests.filter((r) => r.api === 'openai-chat').length <= 4, 'no case beyond the first wave was sent');
});

test('a server that is down stops the run in words every surface can show; the reason tells the CLI to offer --no-preflight', async (t) => {
  const down = await server({});
  const baseUrl = down.openaiBaseUrl;
  await down.close();
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(baseUrl) });
  t.after(() => ws.cleanup());
  await assert.rejects(runEvaluation(ws.evalFile, options), (error: unknown) => {
    assert.ok(error instanceof PreflightError);
    assert.match(error.message, /^connection refused at .* — is the server running\? \(.*start the server, or correct baseUrl in the eval file\)$/);
    assert.doesNotMatch(error.message, /--/, 'no CLI flag in the message VS Code shows');
    assert.equal(error.reason, 'unreachable');
    return true;
  });
});

test('the check runs alongside the first wave: cases go out while it waits, never more than one wave, and a failed check leaves no log', async (t) => {
  // llama.cpp lists its model file, not the name asked for, so the check sends its one-word probe, which never gets an
  // answer: the check fails at the timeout, while the cases sent alongside it are answered at once.
  const chat = await server({ flavour: 'llama.cpp', listedModels: ['/models/qwen.gguf'], rules: [{ match: isPreflightRequest, fault: { kind: 'hang' } }] });
  const ws = createWorkspace({ rows: rgbRows(12), evalYaml: () => fixtureEvalYaml(chat.openaiBaseUrl).replace('timeoutMs: 5000', 'timeoutMs: 1500') });
  t.after(() => ws.cleanup());
  const events: RunEvent[] = [];
  await assert.rejects(runEvaluation(ws.evalFile, { ...options, onEvent: (e) => events.push(e) }), (error: unknown) => error instanceof PreflightError && /no answer from .* in time/.test(error.message));
  const cases = chat.requests.filter((r) => r.api === 'openai-chat' && !isPreflightRequest(r));
  assert.ok(cases.length >= 1 && cases.length <= 4, `the first wave (concurrency 4) went out alongside the check, nothing after it: ${cases.length}`);
  assert.deepEqual(events.filter((e) => e.type === 'run-started' || e.type === 'case-finished'), [], 'no run started, no case finished');
  assert.ok(!existsSync(path.join(ws.dir, '.rag-inspector', 'runs')), 'no run log');
});

test('cancelled while the check is still out: the run ends cancelled with the first-wave cases that finished, logged', async (t) => {
  const chat = await server({ flavour: 'llama.cpp', listedModels: ['/models/qwen.gguf'], rules: [{ match: isPreflightRequest, fault: { kind: 'hang' } }] });
  const ws = createWorkspace({ rows: rgbRows(12), evalYaml: () => fixtureEvalYaml(chat.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  const controller = new AbortController();
  const running = runEvaluation(ws.evalFile, { ...options, signal: controller.signal });
  const answered = () => chat.requests.filter((r) => r.api === 'openai-chat' && !isPreflightRequest(r) && r.answeredAt !== undefined).length;
  await waitFor(() => (answered() > 0 ? true : undefined), 'a first-wave case answered while the check waits');
  // The server's answer is not yet the client's: wait until the run stored one in its response cache (appended when a
  // call finishes at the client), so the case is finished, not in flight, when the user cancels.
  await waitFor(() => cachedResponses(path.join(ws.dir, '.rag-inspector', 'cache')) > 0, 'a first-wave answer stored by the run');
  controller.abort();
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  const logged = (await readRunLog(outcome.logFile)).cases.length;
  assert.ok(logged >= 1 && logged <= 4, `the finished first-wave cases are in the log, nothing after the wave: ${logged}`);
});

test('a server still loading its model is a warning; the run goes on and its 503s are retried', async (t) => {
  // Its first three chat requests, whichever of the check's 1-token call and the first wave's two cases comes first.
  const loading = await server({ flavour: 'llama.cpp', listedModels: ['/models/qwen.gguf'], rules: [{ fault: { kind: 'loading' }, times: 3 }] });
  answerLandmarks(loading, 2);
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(loading.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  const events: RunEvent[] = [];
  const outcome = await runEvaluation(ws.evalFile, { ...options, onEvent: (e) => events.push(e) });
  const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /the first request to .* failed, the run goes on and retries — .*HTTP 503: Loading model/);
  assert.equal(outcome.status, 'success');
  assert.equal(outcome.totals.passed, 2);
});

test('providers with no server (the offline extractive baseline) are not checked', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml('http://127.0.0.1:9/v1').replace(/models:\n(?: {2}.*\n)+/, 'models: [ "extractive:bm25" ]\n') });
  t.after(() => ws.cleanup());
  const outcome = await runEvaluation(ws.evalFile, options);
  assert.equal(outcome.totals.cases, 2);
});

test("llama.cpp's slots: the preflight says what one request gets and that concurrency exceeds the slots; a too-long prompt's fix names -np", async (t) => {
  // -c 64 -np 2: each request gets 32 tokens, fewer than any case's prompt; the eval file asks for concurrency 4.
  const llama = await server({ flavour: 'llama.cpp', listedModels: ['fixture-model'], llamaSlots: { context: 64, slots: 2 } });
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(llama.openaiBaseUrl).replace('maxRetries: 3', 'maxRetries: 0') });
  t.after(() => ws.cleanup());
  const events: RunEvent[] = [];
  await runEvaluation(ws.evalFile, { ...options, onEvent: (e) => events.push(e) });
  const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
  assert.equal(warnings.length, 2, warnings.join('\n'));
  assert.match(warnings[0]!, /openai-compatible:fixture-model: http:\/\/127\.0\.0\.1:\d+\/v1 gives each request 32 tokens \(-c 64 split across -np 2\): .*start the server with -np 1 to give one request the whole context \(64\), or raise -c/);
  assert.match(warnings[1]!, /concurrency 4, but .* answers 2 requests at a time \(-np 2\): .*set concurrency: 2 in the eval file, or start the server with -np 4/);
  const results = events.flatMap((e) => (e.type === 'case-finished' ? [e.result] : []));
  assert.equal(results.length, 2);
  const [cause] = errorCausesOf(results);
  assert.match(cause!.cause, /prompt too long: \d+ tokens, one slot of the server's context holds 32/);
  assert.match(cause!.fix!, /start it with a lower -np \(-np 1 gives one request all of -c\) or a larger -c/);
});

test('a server that reports no slots (not llama.cpp) gets no slot advice', async (t) => {
  const ollama = await server({ flavour: 'ollama', listedModels: ['fixture-model'] });
  answerLandmarks(ollama, 2);
  const ws = createWorkspace({ rows: rgbRows(2), evalYaml: () => fixtureEvalYaml(ollama.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  const events: RunEvent[] = [];
  await runEvaluation(ws.evalFile, { ...options, onEvent: (e) => events.push(e) });
  assert.deepEqual(events.filter((e) => e.type === 'warning'), []);
  assert.ok(ollama.requests.some((r) => r.path === '/props'), 'it was asked');
});

/** Responses a run's cache holds (segment lines under `cacheDir`), 0 before it wrote any. */
function cachedResponses(cacheDir: string): number {
  if (!existsSync(cacheDir)) return 0;
  return readdirSync(cacheDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
    .reduce((sum, entry) => sum + readFileSync(path.join(entry.parentPath, entry.name), 'utf8').split('\n').filter(Boolean).length, 0);
}
