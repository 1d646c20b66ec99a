// The CLI's help and its errors as a new user meets them: each command's own help, one line naming --help after a
// usage error, and "latest" found under the folder tree the command is typed in.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { COMMANDS } from '../../../src/cli/commandHelp.js';
import { runFolders } from '../../../src/cli/latestRun.js';
import { answerLandmarks, fixtureEvalYaml, rgbRows } from '../engine/workspace.js';
import { runCli } from '../robustness/cliProcess.js';

const cli = (args: string[], cwd?: string) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' }, 60_000, cwd);

let root: string;
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rag-cli-help-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('each command has its own help', () => {
  for (const command of COMMANDS) {
    for (const flag of ['--help', '-h']) {
      test(`${command} ${flag}: usage, options and an example, exit 0`, async () => {
        const exit = await cli([command, flag]);
        assert.equal(exit.code, 0, exit.stderr);
        assert.equal(exit.stderr, '');
        assert.match(exit.stdout, new RegExp(`^Usage: rag-inspector ${command} `));
        assert.match(exit.stdout, /\nOptions:\n {2}-/);
        assert.match(exit.stdout, new RegExp(`\nExample:\n {2}rag-inspector ${command}`));
        assert.doesNotMatch(exit.stdout, /Options for run:/, 'not the overall usage');
      });
    }
  }

  test('help after other arguments, and `help <command>`, are the same help', async () => {
    const late = await cli(['import-traces', 'traces.jsonl', '--out', 'x.jsonl', '--help']);
    assert.equal(late.code, 0, late.stderr);
    assert.match(late.stdout, /^Usage: rag-inspector import-traces /);
    const named = await cli(['help', 'explain']);
    assert.match(named.stdout, /^Usage: rag-inspector explain /);
    const overall = await cli(['--help']);
    assert.equal(overall.code, 0);
    assert.match(overall.stdout, /Options for run:/);
  });
});

describe('a usage error ends with one line naming --help, not the usage', () => {
  test('an unknown option of run', async () => {
    const exit = await cli(['run', 'x.eval.yaml', '--bogus']);
    assert.equal(exit.code, 2);
    const lines = exit.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, exit.stderr);
    assert.match(lines[0] ?? '', /^rag-inspector: Unknown option '--bogus'/);
    assert.match(lines[1] ?? '', /^see node \S+cli\.cjs run --help$/);
  });

  test('a missing argument of import-traces', async () => {
    const exit = await cli(['import-traces']);
    assert.equal(exit.code, 2);
    assert.deepEqual(exit.stderr.trimEnd().split('\n').map((line) => line.replace(/node \S+cli\.cjs/, 'CLI')), [
      'rag-inspector: import-traces needs a trace file or folder: rag-inspector import-traces traces.jsonl --out dataset.jsonl',
      'see CLI import-traces --help',
    ]);
  });
});

describe('latest', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer();
    answerLandmarks(server, 2);
  });
  after(() => server.close());

  test('explain latest from a parent folder finds the run kept beside the eval file in a subfolder', async () => {
    const repo = path.join(root, 'repo');
    const example = path.join(repo, 'examples', 'rgb');
    mkdirSync(example, { recursive: true });
    writeFileSync(path.join(example, 'data.jsonl'), `${rgbRows(2).map((row) => JSON.stringify(row)).join('\n')}\n`);
    writeFileSync(path.join(example, 'test.eval.yaml'), fixtureEvalYaml(server.openaiBaseUrl));
    // Runs in dependencies are not the user's.
    mkdirSync(path.join(repo, 'node_modules', 'dep', '.rag-inspector', 'runs'), { recursive: true });
    const run = await cli(['run', 'examples/rgb/test.eval.yaml', '--format', 'json'], repo);
    assert.equal(run.code, 0, run.stderr);

    assert.deepEqual(await runFolders(repo), [path.join(example, '.rag-inspector', 'runs')]);
    const exit = await cli(['explain', 'latest', '--plan'], repo);
    assert.equal(exit.code, 0, exit.stderr);
    assert.doesNotMatch(exit.stderr, /there are no runs|no runs under/);
  });

  test('explain latest with no run anywhere says where runs are kept, in two lines, without the usage', async () => {
    const empty = path.join(root, 'empty');
    mkdirSync(empty);
    const exit = await cli(['explain', 'latest'], empty);
    assert.equal(exit.code, 2);
    const lines = exit.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, exit.stderr);
    assert.match(lines[0] ?? '', /^rag-inspector: explain latest: no runs under .*empty or its subfolders$/);
    assert.match(lines[1] ?? '', /^runs are kept beside each eval file, in <its folder>\/\.rag-inspector\/runs\/: start one with {2}node \S+ run <file\.eval\.yaml>, or name a run log$/);
  });
});
