// A scripted "agent" that uses only the tools (core/agentTools, with the CLI's host): run → list failures → explain a
// failure → edit the template → rerun → compare, on planted behaviour: the model says "No idea." to 8 of 12
// questions unless the prompt tells it to answer with the name only. The template edit fixes all 8, so the paired
// verdict must say "better" (exact McNemar, 8 fixed / 0 broken: p = 0.008).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentTool, callAgentTool } from '../../../src/core/agentTools/tools.js';
import type { AgentToolHost } from '../../../src/core/agentTools/tools.js';
import { mcpToolHost } from '../../../src/cli/mcp.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer, RecordedRequest } from '../../fixtures/llmServer.js';
import { createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';

const FIX = 'Answer with the name only.';
let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
  for (let i = 0; i < 12; i++) {
    // Planted: questions 0–7 need the instruction; 8–11 are answered either way.
    server.addRule({ match: { contains: `landmark number ${i}?` }, reply: (req: RecordedRequest) => (i >= 8 || req.lastUserMessage.includes(FIX) ? `Answer${i}.` : 'No idea.') });
  }
});
after(async () => {
  await server.close();
});

test('run → failures → explain → edit the template → rerun → compare says "better"', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(12), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl, { suite: '    template: agent.prompt' }) });
  t.after(() => ws.cleanup());
  const original = readFileSync(path.resolve('prompts/rgb/en.prompt'), 'utf8');
  ws.write('agent.prompt', original);
  const runs = path.join(ws.dir, '.rag-inspector', 'runs');
  const host: AgentToolHost = mcpToolHost({ root: ws.dir, maxCostUsd: 0 }, {
    resolveRun: async (run) => path.join(runs, `${run}.jsonl`),
    containOptions: () => undefined,
  });
  const call = async (name: string, input: object) => {
    const answer = await callAgentTool(agentTool(name), input, host, new AbortController().signal);
    assert.equal(answer.isError, false, answer.text);
    return answer.text;
  };

  const first = await call('run_eval', { evalFile: 'test.eval.yaml' });
  const firstId = /^run (\S+):/.exec(first)![1]!;
  const failures = await call('list_failures', { run: firstId });
  const failed = [...failures.matchAll(/^(noise\/\S+) \[/gm)].map((m) => m[1]!);
  assert.equal(failed.length, 8, failures);

  const explained = await call('explain_case', { run: firstId, caseId: failed[0] });
  assert.match(explained, /^calls: \d+ to models/m, explained);

  // The agent's edit: one more instruction at the end of the user message.
  ws.write('agent.prompt', `${original.trimEnd()}\n${FIX}\n`);
  const second = await call('run_eval', { evalFile: 'test.eval.yaml' });
  assert.match(second, /no failed or errored case/, second);
  const secondId = /^run (\S+):/.exec(second)![1]!;

  const compared = await call('compare_runs', { before: firstId, after: secondId });
  assert.match(compared, /^case verdict +12 +8 +0 +4 .* better/m, compared);
});
