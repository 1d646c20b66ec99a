// Special and hostile files where the product expects a file: named pipes, devices, folders, link loops, huge and
// deeply nested files. Each runs the CLI in a child process killed after a timeout, so a hang fails the test instead
// of stalling the suite, under a heap limit, so unbounded memory aborts instead of swapping.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { evalYaml, fixtureModel, jsonl, rgbRows, rgbSuite } from './builders.js';
import { runCli } from './cliProcess.js';
import type { CliExit } from './cliProcess.js';

/** Far more than any of these runs needs; a run that waits on a pipe is killed here and fails. */
const HANG_MS = 30_000;
const HEAP_LIMIT = { NODE_OPTIONS: '--max-old-space-size=512' };

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(async () => {
  await server.close();
});

function workspace(t: { after(fn: () => void): void }): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-special-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'data.jsonl'), jsonl(rgbRows(2)));
  return dir;
}

const SUITE = rgbSuite({ params: { testbed: 'noise_robustness', noiseRates: [0], passageNum: 2 } });

/** An eval file on the offline extractive model (no key, no server), with `suite` changes. */
function writeEval(dir: string, name = 'test.eval.yaml', suite = SUITE): string {
  const file = path.join(dir, name);
  writeFileSync(file, evalYaml({ models: ['extractive:bm25'], suites: [suite] }));
  return file;
}

function mkfifo(file: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
}

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { ...HEAP_LIMIT, ...env }, HANG_MS);

/** Ended by itself (not killed on the timeout), with no crash's stack trace. */
function assertEnded(exit: CliExit): void {
  assert.equal(exit.signal, null, `killed after ${HANG_MS} ms: it hung\n${exit.stderr}`);
  assert.doesNotMatch(exit.stderr, /^\s+at |Unhandled|uncaught|FATAL ERROR/im, exit.stderr);
}

describe('an eval file that is no regular file is refused with what it is', { concurrency: 2 }, () => {
  const cases: Array<{ name: string; make: (file: string) => void; says: RegExp }> = [
    { name: 'a named pipe', make: mkfifo, says: /the eval file is a named pipe, not a file — / },
    { name: 'a folder', make: (file) => mkdirSync(file), says: /the eval file is a folder, not a file — / },
    { name: 'a link loop', make: (file) => symlinkSync(path.basename(file), file), says: /the eval file is a symbolic link that loops back on itself — / },
    { name: 'a link to /dev/zero', make: (file) => symlinkSync('/dev/zero', file), says: /the eval file is a device, not a file — / },
    { name: 'a 5 MB file', make: (file) => writeFileSync(file, `version: 1\n# ${'x'.repeat(5 * 1024 * 1024)}\n`), says: /the eval file is 5 MB, above the 4 MB limit — / },
  ];
  for (const { name, make, says } of cases) {
    test(name, async (t) => {
      const dir = workspace(t);
      const file = path.join(dir, 'test.eval.yaml');
      make(file);
      const exit = await cli(['run', file]);
      assertEnded(exit);
      assert.equal(exit.code, 2);
      assert.match(exit.stderr, new RegExp(`^${escape(file)}: ${says.source}`, 'm'));
    });
  }
});

describe('files an eval file names', { concurrency: 2 }, () => {
  test('a dataset that is a named pipe is named so at its line in the eval file', async (t) => {
    const dir = workspace(t);
    mkfifo(path.join(dir, 'pipe.jsonl'));
    const file = writeEval(dir, 'test.eval.yaml', { ...SUITE, dataset: 'pipe.jsonl' });
    const exit = await cli(['run', file]);
    assertEnded(exit);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, new RegExp(`^${escape(file)}:\\d+:\\d+: dataset path is a named pipe, not a file: .*pipe\\.jsonl — `, 'm'));
  });

  test('a template including a named pipe is refused at the include tag, without reading it', async (t) => {
    const dir = workspace(t);
    writeFileSync(path.join(dir, 't.prompt'), 'user:\n{{ question }}\n{% include "part.liquid" %}\n');
    mkfifo(path.join(dir, 'part.liquid'));
    const file = writeEval(dir, 'test.eval.yaml', { ...SUITE, template: 't.prompt' });
    const exit = await cli(['run', file]);
    assertEnded(exit);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, new RegExp(`${escape(path.join(dir, 't.prompt'))}:3:1: cannot read 'part\\.liquid': it is a named pipe, not a file — `));
  });

  test('import-traces of a named pipe says so', async (t) => {
    const dir = workspace(t);
    const traces = path.join(dir, 'traces.json');
    mkfifo(traces);
    const exit = await cli(['import-traces', traces, '--out', path.join(dir, 'rows.jsonl')]);
    assertEnded(exit);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, new RegExp(`${escape(traces)}: the trace path is a named pipe, not a file — `));
  });

  test('a YAML dataset of 10 KB nested 5,000 deep is refused at its line, and the process survives', async (t) => {
    const dir = workspace(t);
    writeFileSync(path.join(dir, 'deep.yaml'), `- ${'['.repeat(5000)}1${']'.repeat(5000)}\n`);
    const file = writeEval(dir, 'test.eval.yaml', { ...SUITE, dataset: 'deep.yaml' });
    const exit = await cli(['run', file, '--format', 'json']);
    assertEnded(exit);
    assert.equal(exit.code, 2, exit.stderr);
    assert.match(exit.stderr, new RegExp(`${escape(path.join(dir, 'deep.yaml'))}:1:\\d+: the YAML nests lists and mappings more than 200 deep — flatten it`));
  });

  test('billion laughs in the eval file and in template front matter are refused at the first alias', async (t) => {
    const dir = workspace(t);
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...['b', 'c', 'd', 'e', 'f', 'g'].map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdef'[i]}`).join(',')}]`)];
    const evalFile = path.join(dir, 'laughs.eval.yaml');
    writeFileSync(evalFile, `version: 1\n${laughs.join('\n')}\nmodels: [extractive:bm25]\n`);
    const fromEval = await cli(['run', evalFile]);
    assertEnded(fromEval);
    assert.equal(fromEval.code, 2);
    assert.match(fromEval.stderr, new RegExp(`^${escape(evalFile)}:3:8: the YAML aliases \\(\\*name\\) expand into too many values`, 'm'));

    writeFileSync(path.join(dir, 't.prompt'), `---\n${laughs.join('\n')}\n---\nuser:\n{{ question }}\n`);
    const file = writeEval(dir, 'test.eval.yaml', { ...SUITE, template: 't.prompt' });
    const fromTemplate = await cli(['run', file]);
    assertEnded(fromTemplate);
    assert.equal(fromTemplate.code, 2);
    assert.match(fromTemplate.stderr, new RegExp(`${escape(path.join(dir, 't.prompt'))}:3:8: the YAML aliases \\(\\*name\\) expand into too many values`));
  });
});

describe('the workspace\'s own folders', { concurrency: 2 }, () => {
  test('a named pipe among the run logs: `runs` lists it as unreadable and `explain latest` names it; neither hangs', async (t) => {
    const dir = workspace(t);
    const file = writeEval(dir);
    assert.equal((await cli(['run', file])).code, 0);
    mkfifo(path.join(dir, '.rag-inspector', 'runs', 'zz-pipe.jsonl'));
    const runs = await cli(['runs', dir]);
    assertEnded(runs);
    assert.equal(runs.code, 0);
    assert.match(runs.stdout, /^zz-pipe +unreadable +.*zz-pipe\.jsonl is a named pipe, not a file/m);
    const explain = await runCli(['explain', 'latest', '--plan'], { ...HEAP_LIMIT }, HANG_MS, dir);
    assertEnded(explain);
    assert.notEqual(explain.code, 0);
  });

  test('a named pipe among the cache segments: the run still completes', async (t) => {
    const dir = workspace(t);
    const file = writeEval(dir);
    assert.equal((await cli(['run', file])).code, 0);
    mkfifo(path.join(dir, '.rag-inspector', 'cache', 'segments', '000000000000000-1-000001-pipe.jsonl'));
    const exit = await cli(['run', file]);
    assertEnded(exit);
    assert.equal(exit.code, 0, exit.stderr);
    assert.match(exit.stdout, /^Cases: 2 \(2 passed/m);
  });

  const verdicts: Array<{ name: string; make: (file: string) => void; says: RegExp }> = [
    { name: 'a named pipe', make: mkfifo, says: /is a named pipe, not a file/ },
    { name: 'a folder', make: (file) => mkdirSync(file, { recursive: true }), says: /is a folder, not a file/ },
    { name: 'a 600 MB file', make: (file) => { mkdirSync(path.dirname(file), { recursive: true }); writeFileSync(file, ''); truncateSync(file, 600 * 1024 * 1024); }, says: /is 600 MB, above the 64 MB limit/ },
  ];
  for (const { name, make, says } of verdicts) {
    test(`verdicts.jsonl that is ${name}: a warning naming it, and every report is still written`, async (t) => {
      const dir = workspace(t);
      const file = writeEval(dir);
      make(path.join(dir, '.rag-inspector', 'verdicts.jsonl'));
      const exit = await cli(['run', file, '--format', 'json,csv']);
      assertEnded(exit);
      assert.equal(exit.code, 0, exit.stderr);
      assert.match(exit.stderr, new RegExp(`^warning: verdicts left out of the reports: ${escape(path.join(dir, '.rag-inspector', 'verdicts.jsonl'))} ${says.source}`, 'm'));
      const reports = path.join(dir, '.rag-inspector', 'reports');
      const [runId] = readdirSync(reports);
      assert.deepEqual(readdirSync(path.join(reports, runId!)).sort(), ['cases.csv', 'report.json']);
    });
  }

  test('verdicts in a folder above the current folder are never read: a named pipe there blocks nothing', async (t) => {
    const root = workspace(t);
    mkfifo(path.join(root, '.rag-inspector', 'verdicts.jsonl'));
    const dir = path.join(root, 'project');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'data.jsonl'), jsonl(rgbRows(2)));
    const file = writeEval(dir);
    const exit = await runCli(['run', file], { ...HEAP_LIMIT }, HANG_MS, dir);
    assertEnded(exit);
    assert.equal(exit.code, 0, exit.stderr);
    assert.doesNotMatch(exit.stderr, /verdicts/);
  });
});

describe('problems found before the first model call', { concurrency: 2 }, () => {
  test('--out naming an existing file fails before any request is sent', async (t) => {
    const dir = workspace(t);
    const file = path.join(dir, 'test.eval.yaml');
    writeFileSync(file, evalYaml({ models: [fixtureModel(server.openaiBaseUrl, 'out-check')], suites: [SUITE] }));
    writeFileSync(path.join(dir, 'taken'), 'a file\n');
    const before = server.requests.filter((r) => r.model === 'out-check').length;
    const exit = await cli(['run', file, '--out', path.join(dir, 'taken')]);
    assertEnded(exit);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /^rag-inspector: --out: .*taken is a file, so the reports cannot be written into .*taken: name a folder/m);
    assert.equal(server.requests.filter((r) => r.model === 'out-check').length, before, 'no model call was paid');
    assert.ok(!existsSync(path.join(dir, '.rag-inspector', 'runs')), 'no run was started');
  });

  test('apiKeyEnv naming an unset variable is said before any request is sent, not sent as no key', async (t) => {
    const dir = workspace(t);
    const file = path.join(dir, 'test.eval.yaml');
    writeFileSync(file, evalYaml({ models: [{ provider: 'openai-compatible', model: 'key-check', baseUrl: server.openaiBaseUrl, apiKeyEnv: 'RAG_INSPECTOR_TEST_UNSET_KEY' }], suites: [SUITE] }));
    const exit = await cli(['run', file]);
    assertEnded(exit);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /apiKeyEnv names RAG_INSPECTOR_TEST_UNSET_KEY for model "key-check", but RAG_INSPECTOR_TEST_UNSET_KEY is not set/);
    assert.equal(server.requests.filter((r) => r.model === 'key-check').length, 0, 'nothing was sent without the key');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
