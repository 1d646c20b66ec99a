// The CLI against local servers as a new user meets them: down, wrong path, wrong key, unknown model, errored cases
// to run again, and the cache switches. Child processes, real HTTP to the fixture server (llama.cpp/Ollama flavours).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import { contextOverflowError } from '../../fixtures/localServers.js';
import type { FixtureOptions, FixtureServer, Rule } from '../../fixtures/llmServer.js';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { answerLandmarks, createWorkspace, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { runCli } from '../robustness/cliProcess.js';

const servers: FixtureServer[] = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

/** `first`: rules tried before the answers (a rule is taken by the first match, in order). */
async function server(options: FixtureOptions = {}, first: Rule[] = []): Promise<FixtureServer> {
  const started = await startFixtureServer({ ...options, rules: first });
  answerLandmarks(started, 40);
  servers.push(started);
  return started;
}


// The built CLI in a child process (robustness/cliProcess.ts), as a user runs it.
const cli = (args: string[]) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' });

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function workspace(t: { after(fn: () => void): void }, baseUrl: string, rows = 4, model = 'fixture-model') {
  const ws = createWorkspace({ rows: rgbRows(rows), evalYaml: () => fixtureEvalYaml(baseUrl).replace('model: fixture-model', `model: ${model}`).replace('maxRetries: 3', 'maxRetries: 0') });
  t.after(() => ws.cleanup());
  return ws;
}

test('server down: the first line says connection refused at the URL and asks whether the server runs; exit 2, no run started', async (t) => {
  const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  const ws = workspace(t, baseUrl);
  const exit = await cli(['run', ws.evalFile]);
  assert.equal(exit.code, 2, exit.stderr);
  const first = exit.stderr.split('\n')[0] ?? '';
  assert.match(first, new RegExp(`connection refused at ${baseUrl.replace(/[.]/g, '\\.')} — is the server running\\?`));
  assert.match(first, /; --no-preflight skips this check$/);
  assert.ok(!existsSync(path.join(ws.dir, '.rag-inspector', 'runs')), 'no run log for a run that could not start');
});

test('server down with --no-preflight: every surface says completed with errors, the cause once as it happens and in the table', async (t) => {
  const baseUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  const ws = workspace(t, baseUrl);
  const exit = await cli(['run', ws.evalFile, '--no-preflight', '--out', path.join(ws.dir, 'reports')]);
  assert.equal(exit.code, 2);
  assert.match(exit.stdout, /Status: completed with errors/);
  assert.doesNotMatch(exit.stdout, /Status: success/);
  const causeLines = exit.stderr.split('\n').filter((l) => l.startsWith('error: '));
  assert.equal(causeLines.length, 1, exit.stderr);
  assert.match(causeLines[0]!, /connection failed.*— is the server running\?/);
  assert.match(exit.stderr, /progress: 4\/4 cases \(0 failed, 4 errors\)/);
  assert.match(exit.stdout, /Errors \(4 cases, 1 cause\):\n +4 +.*connection failed[^\n]*\n +first: noise\/0\/noise=0 on openai-compatible:fixture-model\n +fix: is the server running\?/);
  assert.match(exit.stdout, /Cases: 4 \(0 passed, 0 failed, 4 errors\)/);
  const report = JSON.parse(readFileSync(path.join(ws.dir, 'reports', 'report.json'), 'utf8')) as { status: string };
  assert.equal(report.status, 'completed-with-errors');
  // The HTML report's badge reads the listing's status (the inspector test renders it as "completed with errors").
  assert.match(readFileSync(path.join(ws.dir, 'reports', 'report.html'), 'utf8'), /"status":"completed-with-errors"/);
  const runsDir = path.join(ws.dir, '.rag-inspector', 'runs');
  const log = await readRunLog(path.join(runsDir, readdirSync(runsDir).find((f) => f.endsWith('.jsonl'))!));
  assert.equal(log.summary?.status, 'completed-with-errors', 'the run log summary');
});

test('a wrong path (no /v1), a refused key and a model the server does not have stop the run before the first case', async (t) => {
  const openai = await server();
  const wrongPath = await cli(['run', workspace(t, openai.url).evalFile]);
  assert.equal(wrongPath.code, 2);
  assert.match(wrongPath.stderr.split('\n')[0] ?? '', /HTTP 404 at http:\/\/127\.0\.0\.1:\d+ — the path is wrong: check baseUrl/);

  const locked = await server({ flavour: 'llama.cpp', requireApiKey: 'right-key' });
  const refused = await cli(['run', workspace(t, locked.openaiBaseUrl).evalFile]);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr.split('\n')[0] ?? '', /refused the key \(HTTP 401\)/);

  const ollama = await server({ flavour: 'ollama', listedModels: ['llama3.2:latest'] });
  const unknownWs = workspace(t, ollama.openaiBaseUrl, 20, 'llama3.3');
  const unknown = await cli(['run', unknownWs.evalFile]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr.split('\n')[0] ?? '', /does not serve model 'llama3\.3' \(it lists 'llama3\.2:latest'\).*not found, try pulling it first/);
  // The check runs alongside the first wave (checkAlongside.ts): at most the 4 calls the model keeps in flight may have
  // gone out (how many depends on timing), none of the 16 after them, and the run left no log.
  const sent = ollama.requests.filter((r) => r.text.includes('landmark')).length;
  assert.ok(sent <= 4, `at most the first wave was sent (sent ${sent})`);
  assert.ok(!existsSync(path.join(unknownWs.dir, '.rag-inspector', 'runs')), 'no run log for a run the check stopped');
});

test('llama.cpp lists its model file and answers to any name: a warning, and the run goes on', async (t) => {
  const llama = await server({ flavour: 'llama.cpp', listedModels: ['/models/qwen2.5-1.5b-instruct-q4_k_m.gguf'] });
  const exit = await cli(['run', workspace(t, llama.openaiBaseUrl).evalFile]);
  assert.equal(exit.code, 0, exit.stderr);
  assert.match(exit.stderr, /warning: .*does not list model 'fixture-model' \(it lists '\/models\/qwen2\.5-1\.5b-instruct-q4_k_m\.gguf'\), but answers to it/);
  assert.match(exit.stdout, /Status: success/);
});

test("llama.cpp's shared context fills up with the calls in flight: concurrency is lowered, said on screen, and every case is answered", async (t) => {
  // Auto slots sharing one context: two requests fit, the third in flight gets "Context size has been exceeded." (500).
  const llama = await server({ flavour: 'llama.cpp', sharedContextFits: 2, latencyMs: 60 });
  const ws = workspace(t, llama.openaiBaseUrl, 8);
  const exit = await cli(['run', ws.evalFile, '--no-cache']);
  assert.equal(exit.code, 0, exit.stdout + exit.stderr);
  assert.ok(llama.requests.some((r) => r.reply?.fault?.kind === 'shared_context'), 'the server did fill up');
  assert.match(exit.stdout, /Cases: 8 \(8 passed, 0 failed, 0 errors\)/, exit.stdout);
  assert.match(exit.stderr, /warning: openai-compatible:fixture-model: the server's shared context is full with 4 calls in flight .*concurrency lowered to 2, retrying/);
});

test('--resume finishes only what is missing; --retry-errors reruns the errored cases; --rerun-failed makes a new run of them', async (t) => {
  // Rows 1 and 2 are refused as too long once each (an error the first time only); row 3 answers wrong, always.
  const tooLong = contextOverflowError('llama.cpp', 60, 20, 0);
  const llama = await server({ flavour: 'llama.cpp' }, [
    ...[1, 2].map((row): Rule => ({ match: { contains: `landmark number ${row}?` }, fault: { kind: 'status', status: 400, body: tooLong.body }, times: 1 })),
    { match: { contains: 'landmark number 3?' }, reply: 'No idea.' },
  ]);
  const ws = workspace(t, llama.openaiBaseUrl);
  const first = await cli(['run', ws.evalFile, '--no-cache']);
  assert.match(first.stdout, /Cases: 4 \(1 passed, 1 failed, 2 errors\)/, first.stdout + first.stderr);
  assert.match(first.stderr, /error: .*answered HTTP 400: prompt too long: 60 tokens, .*lower -np/);
  assert.equal(first.stderr.split('\n').filter((l) => l.startsWith('error: ')).length, 1, 'one cause, printed once');
  // The run's own output says how to run its errors again, with the command this process was started by (the bundle).
  const firstId = readdirSync(path.join(ws.dir, '.rag-inspector', 'runs'))[0]?.replace(/\.jsonl$/, '');
  assert.match(first.stderr, /2 case\(s\) of this run ended in an error: run them again with {2}node \S+cli\.cjs run /);
  assert.ok(first.stderr.includes(` run ${ws.evalFile} --resume ${firstId} --retry-errors`), first.stderr);
  assert.doesNotMatch(first.stderr, /rag-inspector run/);

  const resumed = await cli(['run', ws.evalFile, '--no-cache', '--resume', 'latest']);
  assert.match(resumed.stderr, /0 case runs .*\(4 already done\)/);
  assert.match(resumed.stderr, /2 case\(s\) of this run ended in an error: run them again with {2}node \S+cli\.cjs run .* --resume \S+ --retry-errors/);
  assert.match(resumed.stdout, /2 errors\)/);

  const retried = await cli(['run', ws.evalFile, '--no-cache', '--resume', 'latest', '--retry-errors']);
  assert.match(retried.stderr, /2 case runs .*\(2 already done\)/);
  assert.match(retried.stdout, /Cases: 4 \(3 passed, 1 failed, 0 errors\)/, retried.stdout);
  assert.match(retried.stdout, /Status: success/);

  llama.requests.length = 0;
  const rerun = await cli(['run', ws.evalFile, '--no-cache', '--rerun-failed']);
  assert.match(rerun.stderr, /run \S+: 1 case runs/);
  assert.deepEqual(llama.requests.filter((r) => r.text.includes('landmark')).map((r) => /landmark number (\d+)\?/.exec(r.text)?.[1]), ['3']);
  assert.match(rerun.stdout, /Cases: 1 \(0 passed, 1 failed, 0 errors\)/);
});

test('--rerun-failed says how many unchanged requests the cache answered, and that --refresh asks again', async (t) => {
  const llama = await server({ flavour: 'llama.cpp' }, [{ match: { contains: 'landmark number 1?' }, reply: 'No idea.' }]);
  const ws = workspace(t, llama.openaiBaseUrl, 2);
  const first = await cli(['run', ws.evalFile]);
  assert.match(first.stdout, /Cases: 2 \(1 passed, 1 failed, 0 errors\)/, first.stdout + first.stderr);
  const asked = () => llama.requests.filter((r) => r.text.includes('landmark')).length;
  const before = asked();
  const rerun = await cli(['run', ws.evalFile, '--rerun-failed']);
  assert.equal(asked(), before, 'the failed case was answered from the cache');
  assert.match(rerun.stderr, /--rerun-failed: 1 unchanged request\(s\) were answered from the cache, with the same answers as before; add --refresh to ask the models again/);
  const refreshed = await cli(['run', ws.evalFile, '--rerun-failed', '--refresh']);
  assert.equal(asked(), before + 1);
  assert.doesNotMatch(refreshed.stderr, /answered from the cache/);
});

test('--no-cache neither reads nor writes the cache; --refresh asks the model again and writes what it answered', async (t) => {
  const first: Rule = { match: { contains: 'landmark number 0?' }, reply: 'Old0.' };
  const llama = await server({ flavour: 'llama.cpp' }, [first]);
  const ws = workspace(t, llama.openaiBaseUrl, 1);
  const calls = () => llama.requests.filter((r) => r.text.includes('landmark')).length;
  const answer = () => (JSON.parse(readFileSync(path.join(ws.dir, 'reports', 'report.json'), 'utf8')) as { cases: { response?: string }[] }).cases[0]?.response;
  const run = (...flags: string[]) => cli(['run', ws.evalFile, '--out', path.join(ws.dir, 'reports'), ...flags]);

  await run(); // fills the cache with "Old0."
  llama.clearRules();
  llama.addRule({ match: { contains: 'landmark number 0?' }, reply: 'New0.' });

  llama.requests.length = 0;
  await run('--no-cache');
  assert.equal(calls(), 1, '--no-cache calls the model');
  assert.equal(answer(), 'New0.');
  llama.requests.length = 0;
  await run();
  assert.equal(calls(), 0, 'answered from the cache');
  assert.equal(answer(), 'Old0.', '--no-cache wrote nothing: the cache still holds the old answer');

  llama.requests.length = 0;
  await run('--refresh');
  assert.equal(calls(), 1, '--refresh calls the model');
  assert.equal(answer(), 'New0.');
  llama.requests.length = 0;
  await run();
  assert.equal(calls(), 0);
  assert.equal(answer(), 'New0.', '--refresh wrote the fresh answer');
});

test('answers cut at maxTokens (finish reason "length") are marked and counted in the summary, report.json and cases.csv; truncated: error makes them case errors', async (t) => {
  // Rows 0 and 1 answer at length, so maxTokens: 3 cuts them; rows 2 and 3 answer in one word.
  const llama = await server({ flavour: 'llama.cpp' }, [0, 1].map((row): Rule => ({ match: { contains: `landmark number ${row}?` }, reply: `The landmark you are asking about is Answer${row}.` })));
  const withModel = (extra: string) => {
    const ws = createWorkspace({ rows: rgbRows(4), evalYaml: () => fixtureEvalYaml(llama.openaiBaseUrl).replace(`baseUrl: ${llama.openaiBaseUrl}`, `baseUrl: ${llama.openaiBaseUrl}\n    parameters: { maxTokens: 3 }${extra}`).replace('maxRetries: 3', 'maxRetries: 0') });
    t.after(() => ws.cleanup());
    return ws;
  };

  const scored = withModel('');
  const exit = await cli(['run', scored.evalFile, '--out', path.join(scored.dir, 'reports')]);
  assert.equal(exit.code, 0, exit.stdout + exit.stderr);
  assert.match(exit.stdout, /Cases: 4 \(2 passed, 2 failed, 0 errors\) · 2 answers cut at the token limit/);
  const report = JSON.parse(readFileSync(path.join(scored.dir, 'reports', 'report.json'), 'utf8')) as { totals: { truncated?: number }; cases: { caseId: string; finishReason?: string; truncated?: boolean }[] };
  assert.equal(report.totals.truncated, 2);
  assert.deepEqual(report.cases.map((c) => [c.finishReason, c.truncated]).sort(), [['length', true], ['length', true], ['stop', false], ['stop', false]]);
  const csv = readFileSync(path.join(scored.dir, 'reports', 'cases.csv'), 'utf8').trim().split('\n');
  assert.match(csv[0]!, /,finish_reason,truncated$/);
  assert.equal(csv.slice(1).filter((line) => line.endsWith(',length,true')).length, 2);

  const strict = withModel('\n    truncated: error');
  const failed = await cli(['run', strict.evalFile]);
  assert.equal(failed.code, 2, failed.stdout + failed.stderr);
  assert.match(failed.stdout, /Cases: 4 \(2 passed, 0 failed, 2 errors\)/);
  assert.match(failed.stdout, /the answer was cut at the token limit \(finish reason "length"\) and not scored \(truncated: error\)/);
  assert.match(failed.stdout, /fix: raise maxTokens/);
});
