// `retriever:` in the eval file: loaded with defaults and absolute paths, each mistake reported at its line with the
// fix, a command retriever's folder and script kept inside under --contain, and Restricted Mode's rule.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { untrustedRetriever } from '../../../src/core/spec/retrieverSpec.js';
import { tempDir } from '../data/tempFiles.js';
import { loadProblems } from '../spec/loadProblems.js';

function evalFile(retriever: string, name = 'rag.eval.yaml'): string {
  const dir = path.join(tempDir(), `spec-${Math.random().toString(36).slice(2)}`);
  mkdirSync(path.join(dir, 'ws'), { recursive: true });
  writeFileSync(path.join(dir, 'ws', 'q.jsonl'), '{"question": "q", "answer": "a"}\n');
  const file = path.join(dir, 'ws', name);
  writeFileSync(file, `version: 1\nmodels: [extractive:bm25]\n${retriever}\nsuites:\n  - id: rag\n    method: rag\n    dataset: q.jsonl\n`);
  return file;
}

test('a command retriever loads with its folder resolved against the eval file and the defaults filled in', async () => {
  const file = evalFile('retriever:\n  type: command\n  command: [python, retrieve.py]\n  cwd: tools\n  params: { index: docs }');
  const spec = await loadEvalSpec(file);
  assert.deepEqual(spec.retriever, { type: 'command', command: ['python', 'retrieve.py'], cwd: path.join(path.dirname(file), 'tools'), mode: 'persistent', timeoutMs: 30000, params: { index: 'docs' } });
});

test('an http retriever keeps header variable names; no retriever: means the rows\' own passages', async () => {
  const spec = await loadEvalSpec(evalFile('retriever:\n  type: http\n  url: http://localhost:8000/retrieve\n  headers: { Authorization: { env: SEARCH_KEY, prefix: "Bearer " } }'));
  assert.deepEqual(spec.retriever, { type: 'http', url: 'http://localhost:8000/retrieve', headers: { Authorization: { env: 'SEARCH_KEY', prefix: 'Bearer ' } }, timeoutMs: 30000 });
  assert.equal((await loadEvalSpec(evalFile(''))).retriever, undefined);
  assert.deepEqual((await loadEvalSpec(evalFile('retriever: { type: dataset }'))).retriever, { type: 'dataset' });
});

test('a command written as one string is refused at its line with the list to write instead', async () => {
  const [message] = await loadProblems(evalFile('retriever:\n  type: command\n  command: python retrieve.py --top 5'));
  assert.match(message!, /rag\.eval\.yaml:5:\d+: retriever\.command is one string: it is run without a shell/);
  assert.match(message!, /command: \["python", "retrieve\.py", "--top", "5"\]/);
});

test('keys of another type and a missing command or url are named', async () => {
  const found = await loadProblems(evalFile('retriever:\n  type: command\n  url: http://x\n'));
  assert.ok(found.some((m) => /retriever\.url does not apply to a command retriever/.test(m)), found.join('\n'));
  assert.ok(found.some((m) => /a command retriever needs command:/.test(m)), found.join('\n'));
  assert.ok((await loadProblems(evalFile('retriever:\n  type: http\n'))).some((m) => /an http retriever needs url:/.test(m)));
});

test('--contain keeps a command retriever\'s folder and script inside the workspace', async () => {
  const file = evalFile('retriever:\n  type: command\n  command: [node, ../outside/retrieve.mjs]');
  const ws = path.dirname(file);
  const found = await loadProblems(file, { contain: { roots: [ws], reason: 'contained', hint: 'move it inside' } });
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(found[0]!, /contained: retriever script .*outside[\\/]retrieve\.mjs is outside/);
  const cwdOutside = await loadProblems(evalFile('retriever:\n  type: command\n  command: [node, retrieve.mjs]\n  cwd: ..'), { contain: { roots: [], reason: 'contained', hint: 'h' } });
  assert.ok(cwdOutside.some((m) => /retriever folder/.test(m)), cwdOutside.join('\n'));
  // Inside: loads (the program itself, `node`, is found on PATH and is not a path the file names).
  const inside = evalFile('retriever:\n  type: command\n  command: [node, retrieve.mjs]');
  assert.equal((await loadEvalSpec(inside, { contain: { roots: [path.dirname(inside)], reason: 'r', hint: 'h' } })).retriever?.type, 'command');
});

test('Restricted Mode: a command retriever is refused with what to do, an http one is an endpoint to ask about', async () => {
  const command = untrustedRetriever({ file: '/ws/a.eval.yaml', retriever: { type: 'command', command: ['python', 'r.py'], cwd: '/ws', mode: 'persistent', timeoutMs: 1 } });
  assert.ok(command && 'refused' in command);
  assert.match(command.refused, /never starts a program the workspace chose.*Trust the workspace/);
  assert.deepEqual(untrustedRetriever({ file: 'f', retriever: { type: 'http', url: 'https://s.example/r', headers: {}, timeoutMs: 1 } }), { endpoint: 'https://s.example/r' });
  assert.equal(untrustedRetriever({ file: 'f' }), undefined);
});
