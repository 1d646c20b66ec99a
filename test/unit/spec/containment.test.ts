// Containment on real files and symbolic links: every path an eval file names must stay inside the allowed folders,
// reported at its line:column before anything is read; the same files load when no containment is asked for.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { InputErrors } from '../../../src/core/errors.js';
import { foldersOutside, isInside, realPathOf } from '../../../src/core/spec/containment.js';
import type { Containment } from '../../../src/core/spec/containment.js';
import type { EndpointAllowance } from '../../../src/core/spec/endpointChecks.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { tempDir } from '../data/tempFiles.js';

const ROW = '{"query": "q", "answer": ["a"], "positive": ["p"], "negative": ["n"]}\n';

/** A workspace folder and a folder beside it that the workspace must not read. */
function layout(name: string): { ws: string; outside: string } {
  const root = path.join(tempDir(), name);
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(path.join(ws, 'docs'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(ws, 'data.jsonl'), ROW);
  writeFileSync(path.join(ws, 'docs', 'a.txt'), 'inside text\n');
  writeFileSync(path.join(outside, 'secret.jsonl'), ROW);
  writeFileSync(path.join(outside, 'b.txt'), 'outside text\n');
  return { ws, outside };
}

const contained = (...roots: string[]): Containment => ({ roots, reason: 'this workspace is not trusted: paths outside it are not read', hint: 'trust the workspace to allow it' });

async function refusals(file: string, options: Parameters<typeof loadEvalSpec>[1]): Promise<string[]> {
  try {
    await loadEvalSpec(file, options);
  } catch (error) {
    assert.ok(error instanceof InputErrors, `expected InputErrors, got ${String(error)}`);
    return error.errors.map((e) => e.format());
  }
  assert.fail('expected the eval file to be refused');
}

function rgbSuite(id: string, dataset: string): string[] {
  return [`  - id: ${id}`, '    method: rgb', `    dataset: ${dataset}`, '    params: { testbed: noise_robustness }'];
}

function needleSuite(id: string, haystack: string): string[] {
  return [`  - id: ${id}`, '    method: needle', '    params:', `      haystack: "${haystack}"`, '      contextLengths: [1000]', '      depths: [50]'];
}

function write(file: string, lines: string[]): string {
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('a ../ dataset, an absolute template, a haystack glob on /etc and a haystack folder link are each refused at their line:column', async () => {
  const { ws, outside } = layout('hostile');
  symlinkSync(outside, path.join(ws, 'more-docs'));
  const file = write(path.join(ws, 'hostile.eval.yaml'), [
    'version: 1',
    'models: [extractive:bm25]',
    `template: ${path.join(outside, 'evil.liquid')}`,
    'suites:',
    ...rgbSuite('up', '../outside/secret.jsonl'),
    ...needleSuite('etc', '/etc/*.conf'),
    ...needleSuite('linked-folder', 'more-docs'),
    ...needleSuite('linked-glob', 'more-docs/**/*.txt'),
  ]);
  const errors = await refusals(file, { contain: contained(ws) });
  assert.deepEqual(errors.map((e) => e.slice(0, e.indexOf(': '))), [`${file}:3:11`, `${file}:7:14`, `${file}:12:17`, `${file}:18:17`, `${file}:24:17`]);
  for (const e of errors) {
    assert.match(e, /this workspace is not trusted: paths outside it are not read/);
    assert.match(e, /— trust the workspace to allow it$/);
  }
  assert.match(errors[0]!, /template .*evil\.liquid is outside /);
  assert.match(errors[1]!, /dataset .*outside[/\\]secret\.jsonl is outside /);
  assert.match(errors[2]!, /haystack pattern \/etc\/\*\.conf \(read from \/etc\) is outside /);
  assert.match(errors[3]!, /haystack .*more-docs \(links to .*outside\) is outside /);
  assert.match(errors[4]!, /haystack pattern .*more-docs\/\*\*\/\*\.txt \(read from .*more-docs\) \(links to .*outside\)/);
});

test('a dataset link to a file outside is refused without the file being opened', async () => {
  const { ws, outside } = layout('fifo');
  // A named pipe: opening it to read would block until a writer came, so this test would hang, not pass, if the
  // check read the file it refuses. Resolving the link's name reads nothing.
  const pipe = path.join(outside, 'pipe.jsonl');
  execFileSync('mkfifo', [pipe]);
  symlinkSync(pipe, path.join(ws, 'linked.jsonl'));
  const file = write(path.join(ws, 'linked.eval.yaml'), ['version: 1', 'models: [extractive:bm25]', 'suites:', ...rgbSuite('link', 'linked.jsonl')]);
  const errors = await refusals(file, { contain: contained(ws) });
  assert.equal(errors.length, 1);
  assert.match(errors[0]!, new RegExp(`^${escape(file)}:6:14: .*dataset .*linked\\.jsonl \\(links to .*pipe\\.jsonl\\) is outside`));
});

test('the same paths are read as before when nothing is contained (a trusted workspace, the CLI without --contain)', async () => {
  const { ws, outside } = layout('trusted');
  symlinkSync(path.join(outside, 'secret.jsonl'), path.join(ws, 'linked.jsonl'));
  const file = write(path.join(ws, 'ok.eval.yaml'), ['version: 1', 'models: [extractive:bm25]', 'suites:', ...rgbSuite('up', '../outside/secret.jsonl'), ...rgbSuite('link', 'linked.jsonl')]);
  const spec = await loadEvalSpec(file);
  assert.deepEqual(spec.suites.map((s) => s.dataset), [path.join(outside, 'secret.jsonl'), path.join(ws, 'linked.jsonl')]);
});

test('paths inside pass: relative, links that stay inside, globs under the folder, a second workspace folder', async () => {
  const { ws, outside } = layout('inside');
  symlinkSync(path.join(ws, 'data.jsonl'), path.join(ws, 'alias.jsonl'));
  writeFileSync(path.join(outside, 'second.jsonl'), ROW);
  const file = write(path.join(ws, 'fine.eval.yaml'), [
    'version: 1',
    'models: [extractive:bm25]',
    'suites:',
    ...rgbSuite('plain', 'data.jsonl'),
    ...rgbSuite('alias', './alias.jsonl'),
    ...rgbSuite('second-root', '../outside/second.jsonl'),
    ...needleSuite('glob', 'docs/**/*.txt'),
    ...needleSuite('folder', 'docs'),
  ]);
  const spec = await loadEvalSpec(file, { contain: contained(ws, outside) });
  assert.equal(spec.suites.length, 5);
});

test('a missing path outside is refused as outside; a missing path inside is left to "file not found"', async () => {
  const { ws } = layout('missing');
  const outsideMissing = write(path.join(ws, 'a.eval.yaml'), ['version: 1', 'models: [extractive:bm25]', 'suites:', ...rgbSuite('gone', '../nowhere/x.jsonl')]);
  assert.match((await refusals(outsideMissing, { contain: contained(ws) }))[0]!, /not trusted.*dataset .*nowhere[/\\]x\.jsonl is outside/);
  const insideMissing = write(path.join(ws, 'b.eval.yaml'), ['version: 1', 'models: [extractive:bm25]', 'suites:', ...rgbSuite('gone', 'nowhere/x.jsonl')]);
  assert.match((await refusals(insideMissing, { contain: contained(ws) }))[0]!, /dataset file not found/);
});

test('an eval file outside the allowed folders is refused at its first line', async () => {
  const { ws, outside } = layout('evalfile');
  const file = write(path.join(outside, 'far.eval.yaml'), ['version: 1', 'models: [extractive:bm25]', 'suites:', ...rgbSuite('x', 'secret.jsonl')]);
  const errors = await refusals(file, { contain: contained(ws) });
  assert.match(errors[0]!, new RegExp(`^${escape(file)}:1:1: .*the eval file itself is outside`));
});

test('--contain endpoints: a baseUrl the eval file sets is refused at its line unless that exact URL is allowed', async () => {
  const { ws } = layout('endpoints');
  const lines = [
    'version: 1',
    'models:',
    '  - provider: openai-compatible',
    '    model: m',
    '    baseUrl: http://127.0.0.1:9/v1',
    '  - extractive:bm25',
    'judge: { provider: openai, model: j, baseUrl: "http://Judge.example:8080/v1/" }',
    'suites:',
    ...rgbSuite('plain', 'data.jsonl'),
  ];
  const file = write(path.join(ws, 'e.eval.yaml'), lines);
  const endpoints = (allowed: string[]): EndpointAllowance => ({ allowed, reason: '--contain: the eval file chose this endpoint', hint: (url) => `add --allow-endpoint ${url}` });
  const errors = await refusals(file, { endpoints: endpoints([]) });
  assert.deepEqual(errors, [
    `${file}:5:14: --contain: the eval file chose this endpoint: http://127.0.0.1:9/v1 (openai-compatible) is not contacted — add --allow-endpoint http://127.0.0.1:9/v1`,
    `${file}:7:47: --contain: the eval file chose this endpoint: http://Judge.example:8080/v1/ (openai) is not contacted — add --allow-endpoint http://Judge.example:8080/v1/`,
  ]);
  // Allowed: the same URL up to host case and a trailing slash; another port is another endpoint.
  assert.equal((await refusals(file, { endpoints: endpoints(['http://127.0.0.1:9/v1', 'http://127.0.0.1:9999/v1']) })).length, 1);
  const spec = await loadEvalSpec(file, { endpoints: endpoints(['http://127.0.0.1:9/v1/', 'http://judge.example:8080/v1']) });
  assert.equal(spec.judge?.baseUrl, 'http://Judge.example:8080/v1/');
});

test('isInside compares whole path segments, and realPathOf resolves links in the existing part of a missing path', async () => {
  assert.equal(isInside('/a/b', ['/a/b']), true);
  assert.equal(isInside('/a/b/c', ['/a/b']), true);
  assert.equal(isInside('/a/bc', ['/a/b']), false);
  assert.equal(isInside('/a', ['/a/b']), false);
  assert.equal(isInside('/a/b/..c', ['/a/b']), true);
  const { ws, outside } = layout('realpath');
  symlinkSync(outside, path.join(ws, 'out'));
  assert.equal(await realPathOf(path.join(ws, 'out', 'not', 'yet.jsonl')), path.join(await realPathOf(outside), 'not', 'yet.jsonl'));
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

test('foldersOutside finds a state folder committed as a link out of the workspace; missing folders pass', async () => {
  const { ws, outside } = layout('state');
  mkdirSync(path.join(ws, '.rag-inspector'));
  symlinkSync(outside, path.join(ws, '.rag-inspector', 'runs'));
  const state = path.join(ws, '.rag-inspector');
  const found = await foldersOutside([state, path.join(state, 'runs'), path.join(state, 'cache')], [ws]);
  assert.deepEqual(found, [{ folder: path.join(state, 'runs'), real: await realPathOf(outside) }]);
});
