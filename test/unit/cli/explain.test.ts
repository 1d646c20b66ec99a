// `rag-inspector explain` and `explain:` in an eval file, as a user runs them: a child process against the fixture
// server, whose scripted model is misled by a planted distractor.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { runCli } from '../robustness/cliProcess.js';

let server: FixtureServer;
let dir: string;

before(async () => {
  server = await startFixtureServer({
    rules: [{ match: { model: 'model-a' }, reply: (req) => {
      if (req.lastUserMessage.includes('DISTRACTOR')) return 'Glendale, Arizona.';
      return req.lastUserMessage.includes('played in Tampa') ? 'Tampa, Florida.' : 'I can not answer the question because of the insufficient information in documents.';
    } }],
  });
  dir = mkdtempSync(path.join(tmpdir(), 'explain-cli-'));
});
after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

// The built CLI in a child process (robustness/cliProcess.ts), as a user runs it.
const cli = (args: string[]) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' });

function workspace(explain: string): string {
  const ws = mkdtempSync(path.join(dir, 'ws-'));
  const rows = [
    { id: 'misled', query: 'Where was Super Bowl 2021 played?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['DISTRACTOR: the game moved to Glendale, Arizona.', 'Tickets are on sale.', 'Fans travelled far.'] },
    { id: 'fine', query: 'Where was Super Bowl LV played?', answer: 'Tampa, Florida', positive: ['Super Bowl LV was played in Tampa, Florida.'], negative: ['Tickets are on sale.', 'The halftime show drew a record audience.', 'Fans travelled far.'] },
  ];
  writeFileSync(path.join(ws, 'data.jsonl'), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const evalFile = path.join(ws, 'x.eval.yaml');
  writeFileSync(evalFile, `version: 1\nname: cli explain\nmodels:\n  - { provider: openai-compatible, model: model-a, baseUrl: ${server.openaiBaseUrl} }\nmaxRetries: 0\n${explain}suites:\n  - { id: noise, method: rgb, dataset: data.jsonl, params: { testbed: noise_robustness, noiseRates: [0.75], passageNum: 4 } }\n`);
  return evalFile;
}

test('explain: { failed: true } in the eval file explains the failure right after the run, into the report folder', async () => {
  const evalFile = workspace('explain: { failed: true, variants: [loo, position] }\n');
  const out = path.join(path.dirname(evalFile), 'reports');
  const run = await cli(['run', evalFile, '--out', out, '--format', 'json,csv']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /noise\/misled\/noise=0\.75 on openai-compatible:model-a: fails because of d\d \(negative\): without it the answer is correct/);
  assert.doesNotMatch(run.stdout, /noise\/fine\//, 'only the failed case is explained');
  const csv = readFileSync(path.join(out, 'attribution.csv'), 'utf8').trim().split('\n');
  assert.equal(csv.length, 1 + 4, 'a row per document of the explained case');
  assert.equal(csv.filter((line) => line.includes(',harms,')).length, 1);
  const json = JSON.parse(readFileSync(path.join(out, 'explanation.json'), 'utf8')) as { cases: unknown[] };
  assert.equal(json.cases.length, 1);
});

test('rag-inspector explain <log> --case ID --plan prices first; then explains that case, and a second time makes no call', async () => {
  const evalFile = workspace('');
  const run = await cli(['run', evalFile, '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const runs = path.join(path.dirname(evalFile), '.rag-inspector', 'runs');
  const log = path.join(runs, readdirSync(runs)[0]!);

  const plan = await cli(['explain', log, '--case', 'noise/fine/noise=0.75', '--variants', 'loo,subsets', '--plan']);
  assert.equal(plan.code, 0, plan.stderr);
  const planned = /(\d+) variants \(0 already done, (\d+) from the cache\): (\d+) model calls/.exec(plan.stdout);
  assert.ok(planned, plan.stdout);
  assert.ok(!existsSync(path.join(path.dirname(evalFile), '.rag-inspector', 'explanations')), '--plan runs nothing');

  const before = server.requests.length;
  const explained = await cli(['explain', log, '--case', 'noise/fine/noise=0.75', '--variants', 'loo,subsets', '--quiet']);
  assert.equal(explained.code, 0, explained.stderr);
  assert.equal(server.requests.length - before, Number(planned[3]), 'the calls the plan priced');
  assert.match(explained.stdout, /noise\/fine\/noise=0\.75 on openai-compatible:model-a: passes because of d\d \(positive\)/);
  assert.match(explained.stdout, /surrogate: \d+ subsets, R² /);

  const again = await cli(['explain', log, '--case', 'noise/fine/noise=0.75', '--variants', 'loo,subsets', '--plan']);
  assert.match(again.stdout, /: 0 model calls/);

  const reports = path.join(path.dirname(evalFile), 'rewritten');
  const report = await cli(['report', log, '--out', reports, '--format', 'json,csv']);
  assert.equal(report.code, 0, report.stderr);
  assert.equal(readFileSync(path.join(reports, 'attribution.csv'), 'utf8').trim().split('\n').length, 1 + 4, 'report writes the explanation again');

  const bad = await cli(['explain', log, '--variants', 'loo,shuffle']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /unknown variant 'shuffle'/);
});

test('explain\'s progress counts variants and the ones that flipped; its own errors are two lines, with the run\'s case ids, and no usage text', async () => {
  const evalFile = workspace('');
  const run = await cli(['run', evalFile, '--format', 'json']);
  assert.equal(run.code, 0, run.stderr);
  const runs = path.join(path.dirname(evalFile), '.rag-inspector', 'runs');
  const log = path.join(runs, readdirSync(runs)[0]!);

  // CI=true: plain progress lines. The misled case flips when its distractor is left out, so flips are counted.
  const explained = await cli(['explain', log, '--case', 'noise/misled/noise=0.75', '--variants', 'loo']);
  assert.equal(explained.code, 0, explained.stderr);
  const last = explained.stderr.split('\n').filter((line) => line.startsWith('progress:')).at(-1) ?? '';
  assert.match(last, /^progress: (\d+)\/\1 variants \(([1-9]\d*) flipped\)$/, explained.stderr);
  assert.doesNotMatch(explained.stderr, /cases \(0 failed\)/);

  const unknown = await cli(['explain', log, '--case', 'noise/nope']);
  assert.equal(unknown.code, 2);
  const lines = unknown.stderr.trim().split('\n');
  assert.equal(lines.length, 2, unknown.stderr);
  assert.match(lines[0]!, /no case 'noise\/nope' to explain in this run/);
  assert.match(lines[1]!, /'noise\/misled\/noise=0\.75'/, 'the run\'s own ids are shown');
  assert.doesNotMatch(unknown.stderr, /rag-inspector report <run-log> lists the cases/);

  const missing = await cli(['explain', path.join(runs, 'no-such-run.jsonl')]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr.trim().split('\n').length, 2, missing.stderr);
  assert.match(missing.stderr, /no such run log or run id/);
  assert.doesNotMatch(missing.stderr, /Usage:/);
});
