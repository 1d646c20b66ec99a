// `rag-inspector run --contain`, as a CI job runs an eval file from a pull request: hostile paths and endpoints are
// refused at their line:column before anything is read or sent; the fixture server stands in for the chosen endpoint.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { answerLandmarks, rgbRows } from '../engine/workspace.js';
import { runCli } from '../robustness/cliProcess.js';

/** Written into every file outside the workspace: it must reach no request, no output, no log. */
const MARKER = 'OUTSIDE-THE-WORKSPACE-7f3a';
let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  answerLandmarks(server, 4);
});
after(async () => {
  await server.close();
});


// The built CLI in a child process (robustness/cliProcess.ts), as a user runs it.
const cli = (args: string[]) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' });

/** A workspace (the pull request's checkout) beside a folder it must not read, both full of the marker. */
function hostileLayout(t: { after(fn: () => void): void }): { ws: string; outside: string; write(name: string, lines: string[]): string } {
  const root = mkdtempSync(path.join(tmpdir(), 'rag-inspector-contain-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  const rows = rgbRows(4).map((row) => JSON.stringify(row)).join('\n');
  writeFileSync(path.join(ws, 'data.jsonl'), `${rows}\n`);
  writeFileSync(path.join(outside, 'secret.jsonl'), `${rgbRows(4).map((row) => JSON.stringify({ ...row, query: `${MARKER} ${row.query}` })).join('\n')}\n`);
  writeFileSync(path.join(outside, 'inc.liquid'), `${MARKER}\n`);
  symlinkSync(path.join(outside, 'secret.jsonl'), path.join(ws, 'linked.jsonl'));
  const write = (name: string, lines: string[]) => {
    const file = path.join(ws, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  return { ws, outside, write };
}

const MODEL = (baseUrl: string) => ['models:', '  - provider: openai-compatible', '    model: fixture-model', `    baseUrl: ${baseUrl}`];
const RGB = (id: string, extra: string[]) => [`  - id: ${id}`, '    method: rgb', ...extra, '    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }'];

test('--contain refuses a haystack glob on /etc, a ../ dataset, a dataset link to a file outside and the eval file\'s own endpoint, each at its line:column, and sends nothing', async (t) => {
  const { ws, write } = hostileLayout(t);
  const file = write('hostile.eval.yaml', [
    'version: 1',
    ...MODEL(server.openaiBaseUrl),
    'suites:',
    '  - id: etc',
    '    method: needle',
    '    params: { haystack: "/etc/*.conf", contextLengths: [1000], depths: [50] }',
    ...RGB('up', ['    dataset: ../outside/secret.jsonl']),
    ...RGB('link', ['    dataset: linked.jsonl']),
  ]);
  server.requests.length = 0;
  const exit = await cli(['run', file, '--contain']);
  assert.equal(exit.code, 2, exit.stderr);
  const lines = exit.stderr.trim().split('\n');
  assert.deepEqual(lines.map((line) => line.slice(0, line.indexOf(': '))), [`${file}:5:14`, `${file}:9:25`, `${file}:12:14`, `${file}:16:14`]);
  assert.match(lines[0]!, /--contain: the eval file chose this endpoint: http:\/\/127\.0\.0\.1:\d+\/v1 \(openai-compatible\) is not contacted — add --allow-endpoint/);
  assert.match(lines[1]!, /--contain: paths outside the eval file's folder are not read: haystack pattern \/etc\/\*\.conf \(read from \/etc\) is outside/);
  assert.match(lines[2]!, /dataset .*outside[/\\]secret\.jsonl is outside/);
  assert.match(lines[3]!, /dataset .*linked\.jsonl \(links to .*secret\.jsonl\) is outside/);
  assert.equal(server.requests.length, 0, 'the eval file\'s endpoint was contacted');
  assert.ok(!existsSync(path.join(ws, '.rag-inspector')), 'a run was started');
  assert.ok(!`${exit.stdout}${exit.stderr}`.includes(MARKER));
});

test('--contain refuses a template include of a file outside at the include\'s line:column, before any request', async (t) => {
  const { ws, write } = hostileLayout(t);
  write('t.liquid', ['Context: {% include "../outside/inc.liquid" %}', 'Question: {{ question }}']);
  const file = write('include.eval.yaml', ['version: 1', ...MODEL(server.openaiBaseUrl), 'suites:', ...RGB('inc', ['    dataset: data.jsonl', '    template: t.liquid'])]);
  server.requests.length = 0;
  const exit = await cli(['run', file, '--contain', '--allow-endpoint', server.openaiBaseUrl]);
  assert.equal(exit.code, 2, exit.stderr);
  assert.match(exit.stderr, new RegExp(`${path.join(ws, 't.liquid').replace(/[.\\/]/g, '\\$&')}:1:10: cannot read '\\.\\./outside/inc\\.liquid'`));
  assert.equal(server.requests.length, 0);
  assert.ok(!`${exit.stdout}${exit.stderr}`.includes(MARKER));
});

test('--contain with --allow-endpoint runs an eval file whose paths stay inside; its endpoint gets the workspace\'s prompts only', async (t) => {
  const { write } = hostileLayout(t);
  const file = write('fine.eval.yaml', ['version: 1', ...MODEL(server.openaiBaseUrl), 'suites:', ...RGB('noise', ['    dataset: data.jsonl'])]);
  server.requests.length = 0;
  const exit = await cli(['run', file, '--contain', '--allow-endpoint', `${server.openaiBaseUrl}/`, '--no-cache', '--quiet', '--format', 'json']);
  assert.equal(exit.code, 0, exit.stderr);
  // The four cases, after the preflight's model listing (GET /v1/models, which carries no prompt).
  const chats = server.requests.filter((request) => request.api !== 'models' && request.api !== 'props');
  assert.equal(chats.length, 4);
  assert.ok(chats.every((request) => !request.text.includes(MARKER)));
});

test('without --contain the CLI reads what the eval file names, as its user asked (the link is followed)', async (t) => {
  const { write } = hostileLayout(t);
  const file = write('linked.eval.yaml', ['version: 1', ...MODEL(server.openaiBaseUrl), 'suites:', ...RGB('link', ['    dataset: linked.jsonl'])]);
  server.requests.length = 0;
  const exit = await cli(['run', file, '--no-cache', '--quiet', '--format', 'json']);
  assert.equal(exit.code, 0, exit.stderr);
  const chats = server.requests.filter((request) => request.api !== 'models' && request.api !== 'props'); // not the preflight's model listing
  assert.ok(chats.length > 0 && chats.every((request) => request.text.includes(MARKER)));
});
