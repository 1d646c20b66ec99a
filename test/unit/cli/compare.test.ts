// The paired verdict from the command line, on planted model behaviour: a template "change" that breaks 10 of 30
// cases is worse (compare says so, --fail-on regression exits 1 and JUnit names the broken cases); the same
// behaviour as the baseline's is no detectable change and exits 0.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { runCli } from '../robustness/cliProcess.js';
import type { CliExit } from '../robustness/cliProcess.js';

let server: FixtureServer;

before(async () => {
  server = await startFixtureServer();
});
after(async () => {
  await server.close();
});

const cli = (args: string[]): Promise<CliExit> => runCli(args);

const runIdOf = (exit: CliExit) => /run (\S+):/.exec(exit.stderr)?.[1] ?? assert.fail(`no run id in: ${exit.stderr}`);

test('compare and --baseline --fail-on regression on a planted regression', async (t) => {
  const ws = createWorkspace({ rows: rgbRows(30), evalYaml: () => fixtureEvalYaml(server.openaiBaseUrl) });
  t.after(() => ws.cleanup());
  t.after(() => server.clearRules());

  answerLandmarks(server, 30);
  const first = await cli(['run', ws.evalFile, '--format', 'json']);
  assert.equal(first.code, 0, first.stderr);
  const baseline = runIdOf(first);

  // The "changed template": the first 10 questions are now answered wrongly.
  server.clearRules();
  for (let i = 0; i < 10; i++) server.addRule({ match: { contains: `landmark number ${i}?` }, reply: 'No idea.' });
  answerLandmarks(server, 30);
  const out = path.join(ws.dir, 'regressed');
  const second = await cli(['run', ws.evalFile, '--refresh', '--baseline', baseline, '--fail-on', 'regression', '--out', out, '--format', 'junit']);
  assert.equal(second.code, 1, second.stderr);
  assert.match(second.stdout, new RegExp(`Compared with ${baseline}`));
  assert.match(second.stdout, /case verdict +30 +0 +10 +20 .* worse \(p = 0\.002, n = 30\)/);
  assert.match(second.stderr, /regression: the case verdicts got significantly worse/);
  const junit = readFileSync(path.join(out, 'junit.xml'), 'utf8');
  const failure = /<testsuite name="baseline" tests="1" failures="1"[\s\S]*?<failure message="([^"]*)"/.exec(junit);
  assert.ok(failure, junit.slice(-800));
  assert.equal((failure[1]!.match(/noise\//g) ?? []).length, 10, `ten broken cases named: ${failure[1]}`);

  const logOf = (runId: string) => path.join(ws.dir, '.rag-inspector', 'runs', `${runId}.jsonl`);
  const compared = await cli(['compare', logOf(baseline), logOf(runIdOf(second))]);
  assert.equal(compared.code, 0, compared.stderr);
  assert.match(compared.stdout, /worse \(p = 0\.002, n = 30\)/);
  assert.match(compared.stdout, /p-values are per metric/);

  // The baseline's behaviour again: nothing changed, exit 0.
  server.clearRules();
  answerLandmarks(server, 30);
  const same = await cli(['run', ws.evalFile, '--refresh', '--baseline', baseline, '--fail-on', 'regression', '--format', 'json']);
  assert.equal(same.code, 0, same.stderr);
  assert.match(same.stdout, /no detectable change at this size \(n = 30;/);
});

test('compare refuses what it cannot use, with one line that says how', async () => {
  const missing = await cli(['compare', 'only-one']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /needs two runs, the earlier first/);
  const level = await cli(['compare', 'a', 'b', '--level', '2']);
  assert.equal(level.code, 2);
  assert.match(level.stderr, /--level must be a probability/);
  const help = await cli(['compare', '--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /Usage: rag-inspector compare <run-a> <run-b>/);
});
