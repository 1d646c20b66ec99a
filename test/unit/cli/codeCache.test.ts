// The CLI's compiled-code cache: a module loaded through it behaves as one Node loaded, a cache V8 refuses (or one of
// other source) is compiled afresh and rewritten, and a folder that cannot hold a cache never stops a command. The
// built CLI (dist/cli.js, `npm run test:unit` builds it) prints and exits the same with the cache written, used,
// damaged, turned off or impossible to write.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { codeCacheDir, loadWithCodeCache, mayImportDynamically } from '../../../src/cli/codeCache.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import { createWorkspace, rgbRows } from '../engine/workspace.js';

const REPO = path.resolve(__dirname, '../../..');
const CLI = path.join(REPO, 'dist', 'cli.js');

let dir: string;

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'rag-inspector-code-cache-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A module of its own (a file requiring a neighbour, reading its own names), in a fresh folder with a cache folder. */
function fixtureModule(name: string, body = ''): { file: string; cacheDir: string } {
  const folder = path.join(dir, name);
  mkdirSync(path.join(folder, 'cache'), { recursive: true });
  writeFileSync(path.join(folder, 'neighbour.js'), 'module.exports = { answer: 42 };\n');
  const file = path.join(folder, 'bundle.js');
  writeFileSync(file, `#!/usr/bin/env node
"use strict";
const neighbour = require('./neighbour.js');
exports.answer = neighbour.answer;
exports.names = { filename: __filename, dirname: __dirname, cached: require.cache[__filename] === module, main: require.main === module };
exports.double = (n) => n * 2;
exports.fail = () => { throw new Error('from the bundle'); };
${body}`);
  return { file, cacheDir: path.join(folder, 'cache') };
}

function cacheFiles(cacheDir: string): string[] {
  return readdirSync(cacheDir).map((name) => path.join(cacheDir, name));
}

test('a module loaded through the cache has its require, names and exports as Node gives them, and its errors name its file', () => {
  const { file, cacheDir } = fixtureModule('shape');
  const loaded = loadWithCodeCache(file, cacheDir);
  const exports = loaded.exports as { answer: number; names: Record<string, unknown>; double(n: number): number; fail(): never };
  assert.equal(exports.answer, 42);
  assert.deepEqual(exports.names, { filename: file, dirname: path.dirname(file), cached: true, main: false });
  assert.equal(exports.double(21), 42);
  assert.throws(() => exports.fail(), (error: Error) => error.message === 'from the bundle' && error.stack!.includes(`${file}:7:`));
});

test('the first load writes the cache, the next one uses it; a module whose source changed is not given the old code', () => {
  const { file, cacheDir } = fixtureModule('cycle');
  const first = loadWithCodeCache(file, cacheDir, 'run');
  assert.equal(first.outcome, 'missing');
  assert.deepEqual(cacheFiles(cacheDir), [], 'nothing is written before save()');
  first.save();
  const [cacheFile] = cacheFiles(cacheDir);
  assert.match(path.basename(cacheFile!), /^bundle-[0-9a-f]{16}-run-[0-9a-f]+\.cache$/);

  const second = loadWithCodeCache(file, cacheDir, 'run');
  assert.equal(second.outcome, 'used');
  assert.equal((second.exports as { answer: number }).answer, 42);
  const written = statSync(cacheFile!).mtimeMs;
  second.save();
  assert.equal(statSync(cacheFile!).mtimeMs, written, 'a cache that was used is not written again');
  assert.equal(loadWithCodeCache(file, cacheDir, 'report').outcome, 'missing', 'each variant has a cache of its own');

  // Same length, other code: V8 alone would take the old cache (it checks the source's length), so the file's hash decides.
  writeFileSync(file, readFileSync(file, 'utf8').replace('n * 2', 'n * 3'));
  const changed = loadWithCodeCache(file, cacheDir, 'run');
  assert.equal(changed.outcome, 'missing');
  assert.equal((changed.exports as { double(n: number): number }).double(2), 6);
});

/** Loads the module in a fresh process (V8 keeps what it compiled in memory: this process would not look at a cache again). */
async function loadInChild(file: string, cacheDir: string): Promise<{ outcome: string; doubled: number }> {
  const code = `const { loadWithCodeCache } = require(${JSON.stringify(path.join(REPO, 'src/cli/codeCache.ts'))});
const loaded = loadWithCodeCache(${JSON.stringify(file)}, ${JSON.stringify(cacheDir)});
loaded.save();
console.log(JSON.stringify({ outcome: loaded.outcome, doubled: loaded.exports.double(4) }));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '-e', code], { cwd: REPO, timeout: 30_000 });
  return JSON.parse(stdout) as { outcome: string; doubled: number };
}

test('a cache V8 refuses (another Node, other flags, damage) is compiled afresh, runs the same, and is rewritten', async () => {
  const { file, cacheDir } = fixtureModule('rejected');
  assert.deepEqual(await loadInChild(file, cacheDir), { outcome: 'missing', doubled: 8 });
  assert.deepEqual(await loadInChild(file, cacheDir), { outcome: 'used', doubled: 8 });
  const [cacheFile] = cacheFiles(cacheDir);
  // The file's own header (the source's hash) kept, V8's data after it damaged where V8 checks its version.
  const damaged = readFileSync(cacheFile!);
  for (let i = 32; i < 48; i++) damaged[i] = damaged[i]! ^ 0xff;
  writeFileSync(cacheFile!, damaged);

  assert.deepEqual(await loadInChild(file, cacheDir), { outcome: 'rejected', doubled: 8 });
  assert.notDeepEqual(readFileSync(cacheFile!), damaged, 'rewritten');
  assert.deepEqual(await loadInChild(file, cacheDir), { outcome: 'used', doubled: 8 });
});

test('no cache folder, or one gone before the save: the module loads and nothing is thrown', () => {
  const { file, cacheDir } = fixtureModule('gone');
  const off = loadWithCodeCache(file, undefined);
  assert.equal(off.outcome, 'off');
  off.save();
  assert.deepEqual(cacheFiles(cacheDir), []);

  const loaded = loadWithCodeCache(file, cacheDir);
  rmSync(cacheDir, { recursive: true });
  loaded.save();
  assert.equal(existsSync(cacheDir), false);
});

test('a module that may call import() is loaded by Node, never cached, and its import works', async () => {
  const { file, cacheDir } = fixtureModule('imports', "exports.platform = () => import('node:os').then((os) => os.platform());\n");
  const loaded = loadWithCodeCache(file, cacheDir);
  assert.equal(loaded.outcome, 'imports');
  assert.equal(await (loaded.exports as { platform(): Promise<string> }).platform(), process.platform);
  loaded.save();
  assert.deepEqual(cacheFiles(cacheDir), []);
});

test('what counts as a dynamic import: import( with spaces or a comment before the parenthesis, not a name or quoted text', () => {
  for (const source of ['import("x")', 'const m = await import ("x")', 'f(import(\n"x"))', 'import /* why */ ("x")', '"import(x)"']) {
    assert.equal(mayImportDynamically(source), true, source);
  }
  for (const source of ['const import_fs = require("fs")', 'x.import(1)', '_import(1)', 'reimport(1)', 'throw new Error("set `globalThis.File` to `import(\'node:buffer\').File`")', 'import x from "y"', '// important()']) {
    assert.equal(mayImportDynamically(source), false, source);
  }
});

test('the cache folder: per user and Node version, private; none when turned off, impossible to make, or writable by others', (t) => {
  const temporary = path.join(dir, 'tmp');
  const made = codeCacheDir({}, temporary);
  assert.ok(made, 'made in a fresh temporary folder');
  assert.equal(path.basename(made), `${process.version}-${process.arch}`);
  assert.equal(statSync(made).mode & 0o777, 0o700);

  assert.equal(codeCacheDir({ NODE_DISABLE_COMPILE_CACHE: '1' }, temporary), undefined);
  // Below a file: cannot be made (ENOTDIR), whoever runs the test.
  const file = path.join(dir, 'a-file');
  writeFileSync(file, '');
  assert.equal(codeCacheDir({}, path.join(file, 'tmp')), undefined);

  chmodSync(path.dirname(made), 0o777);
  assert.equal(codeCacheDir({}, temporary), undefined, 'a folder others may write to is not read');
  chmodSync(path.dirname(made), 0o700);
  assert.equal(codeCacheDir({}, temporary), made);

  if (process.getuid?.() !== 0) return t.skip('taking a folder from its owner needs root');
  chownSync(made, 12345, 12345);
  assert.equal(codeCacheDir({}, temporary), undefined, "another user's folder is not read");
});

test('the built CLI prints and exits the same with its cache missing, written, used, damaged, off or impossible', async (t) => {
  const ws = createWorkspace({
    rows: rgbRows(2),
    evalYaml: () => 'version: 1\nname: code cache\nmodels:\n  - extractive:bm25\nsuites:\n  - id: noise\n    method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }\n',
  });
  t.after(() => ws.cleanup());
  const temporary = path.join(dir, 'cli-tmp');
  mkdirSync(temporary);
  const run = async (args: string[], env: Record<string, string>) => {
    const result = await promisify(execFile)(process.execPath, [CLI, ...args], { cwd: ws.dir, env: { PATH: process.env.PATH ?? '', HOME: ws.dir, CI: 'true', ...env }, timeout: 60_000 })
      .then(({ stdout, stderr }) => ({ code: 0, stdout, stderr }), (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }));
    // The run's id, times and report paths differ from run to run.
    return { ...result, stdout: result.stdout.replace(/\d{4}-\d\d-\d\dT[\w-]+/g, '<id>') };
  };
  const commands = [['--help'], ['run', ws.evalFile, '--no-cache', '--quiet'], ['run', 'missing.eval.yaml']];
  const expected = await Promise.all(commands.map((args) => run(args, { NODE_DISABLE_COMPILE_CACHE: '1', TMPDIR: temporary })));
  assert.equal(expected[1]!.code, 0, expected[1]!.stderr);
  assert.match(expected[1]!.stdout, /Status: success/);
  assert.equal(expected[2]!.code, 2);
  assert.deepEqual(readdirSync(temporary), [], 'turned off: no folder made');

  const unusable = path.join(dir, 'a-file-not-a-folder');
  writeFileSync(unusable, '');
  for (const [label, env] of [['written', { TMPDIR: temporary }], ['used', { TMPDIR: temporary }], ['impossible', { TMPDIR: unusable }]] as const) {
    for (const [i, args] of commands.entries()) assert.deepEqual(await run(args, env), expected[i], `${label}: ${args.join(' ')}`);
  }
  const cacheDir = codeCacheDir({}, temporary)!;
  const caches = readdirSync(cacheDir).sort();
  assert.deepEqual(caches.map((name) => name.replace(/-[0-9a-f]{16}-(\w+)-[0-9a-f]+\./, '-$1.')), ['cliMain-default.cache', 'cliMain-run.cache']);

  // Other V8 flags: a cache of their own (V8 would refuse the other one), the same output.
  const run512 = await promisify(execFile)(process.execPath, ['--max-old-space-size=512', CLI, ...commands[1]!], { cwd: ws.dir, env: { PATH: process.env.PATH ?? '', HOME: ws.dir, CI: 'true', TMPDIR: temporary }, timeout: 60_000 });
  assert.equal(run512.stdout.replace(/\d{4}-\d\d-\d\dT[\w-]+/g, '<id>'), expected[1]!.stdout);
  assert.equal(readdirSync(cacheDir).length, 3);
  assert.deepEqual(readdirSync(cacheDir).filter((name) => caches.includes(name)), caches, 'the others left as they were');

  const runCache = path.join(cacheDir, caches[1]!);
  const damaged = readFileSync(runCache);
  for (let i = 32; i < 48; i++) damaged[i] = damaged[i]! ^ 0xff;
  writeFileSync(runCache, damaged);
  assert.deepEqual(await run(commands[1]!, { TMPDIR: temporary }), expected[1], 'damaged');
  assert.notDeepEqual(readFileSync(runCache), damaged, 'the damaged cache was rewritten');
});

test('the vendor bundle a run loads on first use (the OpenAI SDK) is cached beside the CLI\'s own', async (t) => {
  const server = await startFixtureServer();
  t.after(() => server.close());
  const ws = createWorkspace({
    rows: rgbRows(1),
    evalYaml: () => `version: 1\nname: code cache\nmodels:\n  - { provider: openai-compatible, model: fixture-model, baseUrl: ${server.openaiBaseUrl} }\nmaxRetries: 0\nsuites:\n  - id: noise\n    method: rgb\n    dataset: data.jsonl\n    params: { testbed: noise_robustness, noiseRates: [0], passageNum: 3 }\n`,
  });
  t.after(() => ws.cleanup());
  const temporary = path.join(dir, 'vendor-tmp');
  mkdirSync(temporary);
  const env = { PATH: process.env.PATH ?? '', HOME: ws.dir, CI: 'true', TMPDIR: temporary };
  // Asynchronously: the fixture server answering the CLI runs in this process. Rejects unless the run exits 0.
  for (let i = 0; i < 2; i++) await promisify(execFile)(process.execPath, [CLI, 'run', ws.evalFile, '--no-cache', '--quiet'], { cwd: ws.dir, env, timeout: 60_000 });
  const names = readdirSync(codeCacheDir({}, temporary)!).map((name) => name.replace(/-[0-9a-f]{16}-(\w+)-[0-9a-f]+\./, '-$1.')).sort();
  assert.deepEqual(names, ['cliMain-run.cache', 'openai-run.cache']);
});
