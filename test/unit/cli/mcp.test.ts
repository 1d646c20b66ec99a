// `rag-inspector mcp` driven over stdio by the MCP SDK's own client: the five tools listed; a run, its failures, one
// case and a comparison on planted fixture behaviour; a paid run refused by the cost ceiling with nothing sent; a
// malformed call answered with an error, the server still serving; a cancelled run leaving the server serving.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import type { Workspace } from '../engine/workspace.js';
import { cliBundle } from '../robustness/cliProcess.js';

let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
});
after(async () => {
  await server.close();
});

async function connect(ws: Workspace, extra: string[] = []): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [await cliBundle(), 'mcp', '--root', ws.dir, ...extra],
    env: { PATH: process.env.PATH ?? '', CI: 'true' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

type TextResult = { content: { type: string; text: string }[]; isError?: boolean };
const text = (result: unknown) => (result as TextResult).content.map((c) => c.text).join('\n');

test('the tools an agent uses: run, failures, one case, compare', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(12), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  t.after(() => server.clearRules());
  for (const i of [3, 7]) server.addRule({ match: { contains: `landmark number ${i}?` }, reply: 'No idea.' });
  answerLandmarks(server, 12);

  const client = await connect(ws);
  t.after(() => client.close());
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), ['compare_runs', 'explain_case', 'list_failures', 'run_eval', 'show_case']);

  const first = text(await client.callTool({ name: 'run_eval', arguments: { evalFile: 'test.eval.yaml' } }));
  assert.match(first, /^run (\S+): success/m);
  assert.match(first, /2 failed or errored case\(s\)/);
  const runId = /^run (\S+):/.exec(first)![1]!;

  const failures = text(await client.callTool({ name: 'list_failures', arguments: { run: 'latest' } }));
  const failedIds = [...failures.matchAll(/^(noise\/\S+) \[/gm)].map((m) => m[1]);
  assert.equal(failedIds.length, 2, failures);

  const shown = text(await client.callTool({ name: 'show_case', arguments: { run: runId, caseId: failedIds[0] } }));
  assert.match(shown, /: failed$/m);
  assert.match(shown, /^question: Where is landmark number [37]\?/m);
  assert.match(shown, /^ {2}\[d\d\] positive: Landmark number [37] is in Answer[37]\./m);
  assert.match(shown, /^response: No idea\./m);
  const unknown = await client.callTool({ name: 'show_case', arguments: { run: runId, caseId: 'nope' } }) as TextResult;
  assert.equal(unknown.isError, true);
  assert.match(text(unknown), /list_failures lists case ids/);

  // The "fix" (the built-in template with one more instruction, so the prompts are new): every question answered;
  // only the two failed cases run again.
  server.clearRules();
  answerLandmarks(server, 12);
  ws.write('fixed.prompt', `${readFileSync(path.resolve('prompts/rgb/en.prompt'), 'utf8')}\nAnswer with the name only.\n`);
  ws.write('fixed.eval.yaml', fixtureEvalYaml(server.openaiBaseUrl, { suite: '    template: fixed.prompt' }));
  const second = text(await client.callTool({ name: 'run_eval', arguments: { evalFile: 'fixed.eval.yaml', cases: failedIds } }));
  assert.match(second, /no failed or errored case/);
  const secondId = /^run (\S+):/.exec(second)![1]!;
  const compared = text(await client.callTool({ name: 'compare_runs', arguments: { before: runId, after: secondId } }));
  assert.match(compared, /case verdict +2 +2 +0 +0 /);
  assert.match(compared, /10 case run\(s\) only in the earlier run/);
});

test('guards: a paid run above the ceiling is refused before any call; a malformed call is an error; a cancelled call leaves the server serving', async (t) => {
  const priced = fixtureEvalYaml(server.openaiBaseUrl).replace('provider: openai-compatible', 'provider: openai').replace('model: fixture-model', 'model: gpt-4o');
  const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => priced });
  t.after(() => ws.cleanup());
  const client = await connect(ws, ['--max-cost', '0']);
  t.after(() => client.close());
  const before = server.requests.length;
  const refused = await client.callTool({ name: 'run_eval', arguments: { evalFile: 'test.eval.yaml' } }) as TextResult;
  assert.equal(refused.isError, true);
  assert.match(text(refused), /refused: this run may cost up to \$[\d.]+ \(4 calls\), above the ceiling of \$0\.0000/);
  assert.equal(server.requests.length, before, 'nothing sent');

  const malformed = await client.callTool({ name: 'run_eval', arguments: { file: 'x' } }) as TextResult;
  assert.equal(malformed.isError, true);
  assert.match(text(malformed), /evalFile/);
  const missing = await client.callTool({ name: 'list_failures', arguments: { run: 'latest' } }) as TextResult;
  assert.equal(missing.isError, true, 'no runs yet is an answer, not a crash');

  // A slow free run, cancelled by the client: the server answers the next call.
  const free = createWorkspace({ rows: rgbRows(20), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl).replace('concurrency: 4', 'concurrency: 1') });
  t.after(() => free.cleanup());
  server.setLatency(200);
  t.after(() => server.setLatency(0));
  const freeClient = await connect(free);
  t.after(() => freeClient.close());
  const abort = new AbortController();
  const cancelled = freeClient.callTool({ name: 'run_eval', arguments: { evalFile: 'test.eval.yaml' } }, undefined, { signal: abort.signal });
  setTimeout(() => abort.abort(), 500);
  await assert.rejects(cancelled);
  server.setLatency(0);
  const after = await freeClient.listTools();
  assert.equal(after.tools.length, 5);
});
