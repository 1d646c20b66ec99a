// API keys never leave the request: a CLI run with keys set, a 401 that echoes the key, a 503 body and a reply that carry it; grep every output for it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { renderHtmlReport } from '../../../src/core/report/html.js';
import { inspectorRun } from '../../../src/core/report/inspectorRun.js';
import { runDataFromLog } from '../../../src/core/report/runDataSources.js';
import { writeHtmlReport } from '../../../src/core/report/htmlReportFile.js';
import { renderToString } from '../../../src/core/report/textSink.js';
import { createWorkspace as createEngineWorkspace, rgbRows as engineRgbRows } from '../engine/workspace.js';
import { listRuns, readRunLog } from '../../../src/core/run/runLog.js';
import { correctAnswers, createWorkspace, evalYaml, rgbRows, rgbSuite, rowOf } from './builders.js';
import type { Workspace } from './builders.js';
import { runCli } from './cliProcess.js';
import type { CliExit } from './cliProcess.js';

const KEYS = {
  OPENAI_API_KEY: 'sk-test-SECRET-openai-7f3a9c1e5b2d468011aa',
  ANTHROPIC_API_KEY: 'sk-ant-test-SECRET-anthropic-0c4e8a2f6b1d93',
  WRONG_KEY: 'sk-test-SECRET-wrong-93be1d7c0a5f2e64bb07',
};
/** Every key holds this, so even a key cut short somewhere is found. */
const MARK = 'SECRET';

let openaiServer: FixtureServer;
let anthropicServer: FixtureServer;
let localServer: FixtureServer;
/** One CLI run with every key set, shared by the tests below. */
let ws: Workspace;
let exit: CliExit;

/** The key a request carried, in either header the SDKs use. */
function presentedKey(request: RecordedRequest): string | undefined {
  const header = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
  return typeof header === 'string' ? header : undefined;
}

/** Row 1's answer repeats the credentials the request carried, as a misbehaving proxy or model might. */
const echoCredentials = (request: RecordedRequest) => `Answer1. You sent: ${request.headers.authorization ?? ''} ${request.headers['x-api-key'] ?? ''}`;

before(async () => {
  openaiServer = await startFixtureServer({ requireApiKey: KEYS.OPENAI_API_KEY });
  openaiServer.addRule({ match: { contains: 'landmark number 1?' }, reply: echoCredentials });
  // An upstream error whose body quotes the key: retried, then recorded as the case's error.
  openaiServer.addRule({ match: { contains: 'landmark number 2?' }, fault: { kind: 'status', status: 503, body: { error: { message: `upstream refused key ${KEYS.OPENAI_API_KEY}`, type: 'server_error' } } } });
  openaiServer.addRule(correctAnswers());
  anthropicServer = await startFixtureServer({ requireApiKey: KEYS.ANTHROPIC_API_KEY });
  anthropicServer.addRule({ match: { contains: 'landmark number 1?' }, reply: echoCredentials });
  anthropicServer.addRule(correctAnswers());
  localServer = await startFixtureServer({ rules: [correctAnswers()] });
  ws = workspace();
  // The cases themselves must meet the refused keys: the preflight would stop the run at the first 401 (tested below).
  exit = await runCli(['run', ws.evalFile, '--format', 'json,csv,junit,html', '--no-preflight'], KEYS);
});
after(async () => {
  ws.cleanup();
  await Promise.all([openaiServer.close(), anthropicServer.close(), localServer.close()]);
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

function workspace(): Workspace {
  return createWorkspace({
    rows: rgbRows(3),
    evalYaml: () => evalYaml({
      models: [
        { provider: 'openai', model: 'keyed-openai', baseUrl: openaiServer.openaiBaseUrl, parameters: { stream: true } },
        { provider: 'anthropic', model: 'keyed-anthropic', baseUrl: anthropicServer.anthropicBaseUrl },
        // Wrong keys: each server answers 401 quoting the key it was sent.
        { provider: 'openai', model: 'wrong-key', baseUrl: openaiServer.openaiBaseUrl, apiKeyEnv: 'WRONG_KEY' },
        { provider: 'anthropic', model: 'anthropic-key-to-openai-server', baseUrl: openaiServer.anthropicBaseUrl },
        // A base URL the workspace chose: no key of the user's may travel there.
        { provider: 'openai-compatible', model: 'workspace-endpoint', baseUrl: localServer.openaiBaseUrl },
      ],
      maxRetries: 1,
      timeoutMs: 10_000,
      suites: [rgbSuite()],
    }),
  });
}

test('keys appear in no run log, cache entry, report or console output, even when servers echo them back', async () => {
  assert.equal(exit.code, 2, `cases ended in errors, so exit 2\n${exit.stderr}`);

  // The paths under test really ran: keys were sent, echoed, refused.
  const log = await readRunLog(path.join(ws.dir, '.rag-inspector', 'runs', readdirSync(path.join(ws.dir, '.rag-inspector', 'runs'))[0]!));
  const result = (model: string, row: number) => log.cases.find((c) => c.result.modelKey.endsWith(`:${model}`) && c.case.id === `noise/${row}/noise=0`)?.result;
  assert.ok(openaiServer.requests.some((r) => presentedKey(r) === KEYS.OPENAI_API_KEY && r.reply?.status === 200));
  assert.ok(anthropicServer.requests.some((r) => presentedKey(r) === KEYS.ANTHROPIC_API_KEY && r.reply?.status === 200));
  for (const model of ['keyed-openai', 'keyed-anthropic']) assert.match(result(model, 1)?.response?.text ?? '', /^Answer1\. You sent: .*redacted/, model);
  assert.deepEqual([result('keyed-openai', 2)?.error?.kind, result('keyed-openai', 2)?.error?.status], ['server', 503]);
  for (const model of ['wrong-key', 'anthropic-key-to-openai-server']) {
    assert.equal(result(model, 0)?.error?.kind, 'auth', model);
    assert.match(result(model, 0)?.error?.message ?? '', /HTTP 401: Incorrect API key provided: \[redacted/, model);
  }

  const run = await runDataFromLog(log.file);
  const { detail, cases } = await inspectorRun(run);
  const outputs: [string, string][] = [
    ['stdout', exit.stdout],
    ['stderr', exit.stderr],
    ['renderHtmlReport', renderHtmlReport(detail, [...cases.values()], 'void 0')],
    ...filesUnder(path.join(ws.dir, '.rag-inspector')).map((file): [string, string] => [file, readFileSync(file, 'utf8')]),
  ];
  const written = outputs.map(([name]) => name);
  for (const expected of ['/runs/', '/cache/', 'report.json', 'cases.csv', 'junit.xml']) assert.ok(written.some((name) => name.includes(expected)), `${expected} was written and read`);
  for (const [name, text] of outputs) {
    for (const [variable, key] of Object.entries(KEYS)) assert.ok(!text.includes(key), `${variable} appears in ${name}`);
    assert.ok(!text.includes(MARK), `part of a key appears in ${name}: …${text.slice(Math.max(0, text.indexOf(MARK) - 40), text.indexOf(MARK) + 40)}…`);
  }
});

test('the preflight that stops on a refused key prints no key either', async () => {
  const stopped = await runCli(['run', ws.evalFile], KEYS);
  assert.equal(stopped.code, 2);
  assert.match(stopped.stderr, /refused the key \(HTTP 401\)/);
  for (const [variable, key] of Object.entries(KEYS)) assert.ok(!`${stopped.stdout}${stopped.stderr}`.includes(key), `${variable} in the output`);
  assert.ok(!`${stopped.stdout}${stopped.stderr}`.includes(MARK));
});

test('an openai-compatible model at a workspace-chosen base URL never receives OPENAI_API_KEY', async () => {
  const calls = localServer.requests.filter((r) => rowOf(r) !== undefined);
  assert.equal(calls.length, 3, 'the workspace endpoint was called for each case');
  for (const call of calls) {
    assert.equal(call.headers.authorization, undefined);
    assert.equal(call.headers['x-api-key'], undefined);
    assert.ok(!JSON.stringify(call.headers).includes(MARK), JSON.stringify(call.headers));
  }
});

test('a key pasted into a dataset row reaches no report: the CLI writes its reports from the redacted run log', async (t) => {
  const pasted = 'sk-proj-SECRET-pasted-into-a-dataset-4d2c8e1f';
  const rows = engineRgbRows(4).map((row, i) => (i === 1 ? { ...row, query: `Where is landmark number 1? (key ${pasted})`, positive: [`Landmark number 1 is in Answer1. Token: ${pasted}`, ...row.positive] } : row));
  const workspace = createEngineWorkspace({ rows, evalYaml: () => 'version: 1\nname: pasted key\nmodels:\n  - extractive:bm25\nsuites:\n  - id: noise\n    method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0] }\n' });
  t.after(() => workspace.cleanup());
  const out = path.join(workspace.dir, 'reports');
  const run = await runCli(['run', workspace.evalFile, '--no-cache', '--format', 'json,csv,junit', '--out', out]);
  assert.equal(run.code, 0, run.stderr);
  const files = readdirSync(out).map((name) => path.join(out, name));
  assert.deepEqual(files.map((f) => path.basename(f)).sort(), ['cases.csv', 'junit.xml', 'report.json']);
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    assert.ok(!text.includes(MARK), `the pasted key appears in ${file}`);
    assert.ok(text.includes('[redacted]'), `${file} shows where the key was`);
  }
  // The HTML report streams from the same log.
  const html = await renderToString(async (sink) => writeHtmlReport(await runDataFromLog((await listRunLogs(workspace.dir))[0]!), sink, 'void 0'));
  assert.ok(!html.includes(MARK) && html.includes('[redacted]'));
});

async function listRunLogs(dir: string): Promise<string[]> {
  return (await listRuns(path.join(dir, '.rag-inspector', 'runs'))).map((r) => r.file);
}
