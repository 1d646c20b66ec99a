// What a host adds when it explains: one (case, model) of a run with several models, and the settings it applied to
// the run (VS Code's ragInspector.openaiBaseUrl), so the variants go to the server the run went to.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { useFixtureServer } from '../../fixtures/useFixtureServer.js';
import { runEvaluation } from '../../../src/core/engine/runEvaluation.js';
import type { RunOptions } from '../../../src/core/engine/runEvaluation.js';
import { envCredentials } from '../../../src/core/providers/registry.js';
import { explainRun } from '../../../src/core/explain/explainRun.js';
import type { EvalSpec } from '../../../src/core/spec/types.js';

let server: FixtureServer;
let dir: string;
useFixtureServer((started) => { server = started; });
before(() => { dir = mkdtempSync(path.join(tmpdir(), 'explain-host-')); });
after(() => rmSync(dir, { recursive: true, force: true }));

const credentials = envCredentials({});
const model = (req: RecordedRequest) => (req.lastUserMessage.includes('MARKER') ? 'Tampa, Florida.' : 'I can not answer the question.');
/** Nothing listens here: a variant sent to the eval file's own URL ends in a connection error. */
const DEAD_URL = 'http://127.0.0.1:9/v1';

function workspace(name: string, models: string[]): string {
  const ws = mkdtempSync(path.join(dir, `${name}-`));
  const row = { id: 0, query: 'Where was Super Bowl 2021 played?', answer: 'Tampa, Florida', positive: ['MARKER: Super Bowl LV was played in Tampa, Florida.'], negative: ['Tickets are on sale.', 'Fans travelled far.'] };
  writeFileSync(path.join(ws, 'data.jsonl'), `${JSON.stringify(row)}\n`);
  const evalFile = path.join(ws, 'x.eval.yaml');
  writeFileSync(evalFile, `version: 1\nname: host\nmodels:\n${models.map((m) => `  - ${m}\n`).join('')}maxRetries: 0\ntimeoutMs: 5000\nsuites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.5], passageNum: 3 } }\n`);
  return evalFile;
}

it('modelKey: only that model\'s result of the case is explained', async () => {
  server.addRule({ reply: model });
  const evalFile = workspace('models', ['model-a', 'model-b'].map((m) => `{ provider: openai-compatible, model: ${m}, baseUrl: ${server.openaiBaseUrl} }`));
  const run = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials });
  const { explanation } = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, caseIds: ['noise/0/noise=0.5'], modelKey: 'openai-compatible:model-b', variants: ['loo'] });
  assert.deepEqual(explanation?.cases.map((c) => c.modelKey), ['openai-compatible:model-b']);
  const all = await explainRun(run.logFile, { signal: new AbortController().signal, credentials, caseIds: ['noise/0/noise=0.5'], variants: ['loo'] });
  assert.deepEqual(all.explanation?.cases.map((c) => c.modelKey).sort(), ['openai-compatible:model-a', 'openai-compatible:model-b']);
});

it('overridesOf: the variants go where the run was sent, not to the eval file\'s own URL', async () => {
  server.addRule({ reply: model });
  const evalFile = workspace('override', [`{ provider: openai-compatible, model: model-c, baseUrl: "${DEAD_URL}" }`]);
  // What VS Code's settingsOverrides does with ragInspector.openaiBaseUrl, here for a model that names a URL.
  const overridesOf = (spec: EvalSpec): RunOptions['overrides'] => ({ models: spec.models.map((m) => ({ ...m, baseUrl: server.openaiBaseUrl })) });
  const run = await runEvaluation(evalFile, { signal: new AbortController().signal, credentials, overrides: { models: [{ provider: 'openai-compatible', model: 'model-c', parameters: {}, baseUrl: server.openaiBaseUrl }] } });
  assert.ok(server.requests.length > 0, 'the run was sent to the fixture server');
  const sent = server.requests.length;
  const options = { signal: new AbortController().signal, credentials, noCache: true, variants: ['loo' as const] };
  const without = await explainRun(run.logFile, { ...options, workspaceDir: mkdtempSync(path.join(dir, 'ws-without-')) });
  assert.equal(server.requests.length, sent, 'without the overrides nothing reached the run\'s server');
  assert.ok(without.explanation?.cases[0]?.attributions.every((a) => a.effect === 'undetermined'), 'connection errors are undetermined');
  const withOverrides = await explainRun(run.logFile, { ...options, overridesOf, workspaceDir: mkdtempSync(path.join(dir, 'ws-with-')) });
  assert.ok(server.requests.length > sent, 'the variants were sent to the run\'s server');
  assert.ok(withOverrides.explanation?.cases[0]?.attributions.some((a) => a.effect === 'decisive'), 'the marker passage is decisive');
});
