// The index as the run's retriever through the real CLI (dist/cli.js), against the fixture server's deterministic
// embeddings: `rag-inspector index` builds with progress and is cancelled cleanly by Ctrl-C and finished by the next
// call; a rag run searches it (each passage placed in its file at its lines); a rerun asks nothing; an edited file is
// searched again. And the bundled examples/corpus, BM25 and offline.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { readRunLog } from '../../../src/core/run/runLog.js';
import type { RagCaseParams } from '../../../src/core/suites/rag/cases.js';
import { caseRequests, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';

const CLI = path.resolve('dist/cli.js');
const run = promisify(execFile);
const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function copyOf(folder: string): string {
  const copy = mkdtempSync(path.join(tmpdir(), 'corpus-cli-'));
  made.push(copy);
  cpSync(folder, copy, { recursive: true });
  return copy;
}

function cli(args: string[]) {
  return run(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', CI: '1' }, maxBuffer: 16 * 1024 * 1024 });
}

describe('the index retriever through the CLI', () => {
  let server: FixtureServer;
  before(async () => {
    server = await startFixtureServer();
  });
  after(() => server.close());

  /** The example's corpus and questions, searched densely with the fixture server's embeddings. */
  function denseEvalFile(): string {
    const folder = copyOf(path.resolve('examples/corpus'));
    const file = path.join(folder, 'dense.eval.yaml');
    writeFileSync(file, `version: 1
models:
  - { provider: extractive, model: bm25, parameters: { refusal: "I don't know" } }
index:
  folder: docs
  chunking: { by: heading, size: 96, overlap: 16 }
  search: hybrid
  hybrid: { weight: 0.3 }
  embeddings: { provider: openai-compatible, model: fixture-embedding, baseUrl: ${server.openaiBaseUrl} }
suites:
  - id: corpus
    method: rag
    dataset: questions.jsonl
    params: { k: 2, candidates: 5, ks: [1, 3] }
`);
    return file;
  }

  const embeddingTexts = (from: number) => caseRequests(server.requests.slice(from)).filter((r) => r.api === 'openai-embeddings').flatMap((r) => (r.body as { input: string[] }).input);

  it('Ctrl-C cancels `rag-inspector index` cleanly (exit 130), and the same command finishes it', async () => {
    const file = denseEvalFile();
    server.setLatency(300);
    try {
      const child = spawn(process.execPath, [CLI, 'index', file], { env: { ...process.env, CI: '1' } });
      let stderr = '';
      let interrupted = false;
      child.stderr.on('data', (data: Buffer) => {
        stderr += data.toString();
        // Once embedding has started (the first batch is waiting on the server), the user presses Ctrl-C.
        if (!interrupted && /^embed: 0\//m.test(stderr)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.ok(interrupted, stderr);
      assert.equal(code, 130, stderr);
      assert.match(stderr, /cancelled: run the same command again/);
    } finally {
      server.setLatency(0);
    }
    const { stdout, stderr } = await cli(['index', file]);
    assert.match(stderr, /^read: \d+\/\d+ files read$/m);
    assert.match(stderr, /^embed: \d+\/\d+ texts embedded$/m);
    assert.match(stdout, /^index .*docs \(.*\.rag-inspector[\\/]index[\\/][0-9a-f]{16}\): 5 files changed, 0 unchanged, 0 removed; \d+ chunks; \d+ texts embedded/m);
    const again = await cli(['index', file]);
    assert.match(again.stdout, /0 files changed, 5 unchanged, 0 removed/);
  });

  it('a rag run searches the index: passages placed at their lines, a rerun asks nothing, an edited file is searched again', async () => {
    const file = denseEvalFile();
    const folder = path.dirname(file);
    let from = server.requests.length;
    const first = await cli(['run', file, '--format', 'json', '--no-preflight']);
    assert.match(first.stdout, /Cases: 11 \(/);
    assert.match(first.stderr, /index .*: 5 files changed/);
    assert.ok(embeddingTexts(from).length > 11, 'the chunks and the questions were embedded');

    const log = await readRunLog(path.join(folder, '.rag-inspector', 'runs', `${/run (\S+):/.exec(first.stderr)![1]}.jsonl`));
    const retrieval = (log.cases[0]!.case.params as unknown as RagCaseParams).retrieval!;
    assert.match(retrieval.retriever, /^index: hybrid \(dense 0\.3, RRF k 60\), .*docs \[[0-9a-f]{16}\]$/);
    const passage = retrieval.candidates[0]!;
    const meta = passage.metadata as { file: string; startLine: number; endLine: number; startChar: number; endChar: number; path: string };
    const source = readFileSync(path.join(folder, 'docs', meta.file), 'utf8');
    assert.equal(passage.id, `${meta.file}#${meta.startChar}-${meta.endChar}`);
    assert.deepEqual(passage.source, { file: path.join(folder, 'docs', meta.file), startLine: meta.startLine, endLine: meta.endLine });
    const lines = source.split('\n').slice(meta.startLine - 1, meta.endLine).join('\n');
    assert.ok(lines.includes(source.slice(meta.startChar, meta.endChar).trim().split('\n')[0]!), 'the lines hold the passage');

    from = server.requests.length;
    const second = await cli(['run', file, '--format', 'json', '--no-preflight']);
    assert.match(second.stdout, /Cases: 11 \(/);
    assert.deepEqual(embeddingTexts(from), [], 'a rerun: the index unchanged, every retrieval from the cache');

    const edited = readFileSync(path.join(folder, 'docs', 'hours.md'), 'utf8').replace('opens later, at 11:00', 'opens later, at 11:30');
    writeFileSync(path.join(folder, 'docs', 'hours.md'), edited);
    from = server.requests.length;
    const third = await cli(['run', file, '--format', 'json', '--no-preflight']);
    assert.match(third.stderr, /index .*: 1 file changed, 4 unchanged, 0 removed/);
    const texts = embeddingTexts(from);
    assert.ok(texts.some((text) => text.includes('11:30')), 'the edited section was embedded');
    assert.ok(texts.every((text) => edited.includes(text) || !/\n/.test(text)), 'besides questions, only hours.md\'s chunks were sent');
    const rerun = await readRunLog(path.join(folder, '.rag-inspector', 'runs', `${/run (\S+):/.exec(third.stderr)![1]}.jsonl`));
    const wednesday = rerun.cases.find((c) => c.case.question.includes('Wednesday'))!;
    const found = (wednesday.case.params as unknown as RagCaseParams).retrieval!;
    assert.equal(found.cached, false, 'asked again: the index changed');
    assert.ok(wednesday.case.documents.some((d) => d.text.includes('11:30')) || found.candidates.some((c) => (c.metadata as { file: string }).file === 'hours.md'));
  });

  it('an index that cannot be built is every case\'s retrieval error with its cause, tried once, never an empty list', async () => {
    const file = denseEvalFile();
    server.addRule({ match: { path: '/v1/embeddings' }, fault: { kind: 'status', status: 400, body: { error: { message: 'model fixture-embedding is not loaded', type: 'invalid_request_error' } } } });
    try {
      const from = server.requests.length;
      const failed = await cli(['run', file, '--format', 'json', '--no-preflight']).then(() => undefined, (error: { code: number; stdout: string; stderr: string }) => error);
      assert.equal(failed?.code, 2, 'errored cases exit 2');
      assert.match(failed!.stdout, /Cases: 11 \(0 passed, 0 failed, 11 errors\)/);
      assert.match(failed!.stdout + failed!.stderr, /the index of .*docs could not be built: .*not loaded/);
      const attempts = server.requests.slice(from).filter((r) => r.api === 'openai-embeddings');
      assert.equal(attempts.length, 1, 'one build for the run, not one per question');
    } finally {
      server.clearRules();
    }
  });

  it('index: beside retriever: is refused at its line, saying which to keep', async () => {
    const folder = copyOf(path.resolve('examples/corpus'));
    const file = path.join(folder, 'both.eval.yaml');
    writeFileSync(file, `version: 1
models: [extractive:bm25]
retriever: { type: command, command: [node, retrieve.mjs] }
index: { folder: docs }
suites: [{ id: s, method: rag, dataset: questions.jsonl }]
`);
    const failed = await cli(['index', file]).then(() => undefined, (error: { code: number; stderr: string }) => error);
    assert.equal(failed?.code, 2);
    assert.match(failed!.stderr, /both\.eval\.yaml:4:1.*index: and retriever: both say where the rag method's passages come from/);
    assert.match(failed!.stderr, /keep index: .* or retriever: .*; remove the other/);
  });
});

it('rag-inspector run examples/corpus: the folder indexed with BM25 serves as the retriever, offline', async () => {
  const folder = copyOf(path.resolve('examples/corpus'));
  const { stdout, stderr } = await cli(['run', path.join(folder, 'corpus-example.eval.yaml')]);
  assert.match(stderr, /index .*docs .*: 5 files changed, 0 unchanged, 0 removed; \d+ chunks$/m);
  assert.match(stdout, /Cases: 11 \(\d+ passed, \d+ failed, 0 errors\)/);
  assert.match(stdout, /Hit rate@3 +1 \[/);
  // The Chinese question finds its page through the word-segmented BM25.
  const log = await readRunLog(path.join(folder, '.rag-inspector', 'runs', `${/run (\S+):/.exec(stderr)![1]}.jsonl`));
  const chinese = log.cases.find((c) => c.case.question.includes('阅览室'))!;
  assert.equal(((chinese.case.params as unknown as RagCaseParams).retrieval!.candidates[0]!.metadata as { file: string }).file, 'zh/introduction.md');
  assert.equal(chinese.result.pass, true);
});
