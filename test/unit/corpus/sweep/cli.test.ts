// `rag-inspector sweep` as a user runs it: the bundled example end to end through the CLI process (a real retriever
// script), its table, sweep.json and sweep.csv; a bad sweep: block named at its line; a rerun asks the retriever nothing.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readRunLog } from '../../../../src/core/run/runLog.js';
import type { RagCaseParams } from '../../../../src/core/suites/rag/cases.js';
import { runCli } from '../../robustness/cliProcess.js';

const EXAMPLE = path.resolve(__dirname, '../../../../examples/sweep');
const CORPUS = path.resolve(__dirname, '../../../../examples/corpus');
const cli = (args: string[], cwd?: string) => runCli(args, { ...process.env as Record<string, string>, CI: 'true' }, 120_000, cwd);

let root: string;
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rag-sweep-cli-'));
  cpSync(EXAMPLE, path.join(root, 'sweep'), { recursive: true });
  cpSync(CORPUS, path.join(root, 'corpus'), { recursive: true, filter: (source) => !source.includes('.rag-inspector') });
});
after(() => rmSync(root, { recursive: true, force: true }));

describe('rag-inspector sweep', () => {
  it('measures every cell of the bundled example, marks the best, writes sweep.json and sweep.csv; a rerun is all cache', async () => {
    const evalFile = path.join(root, 'sweep', 'sweep.eval.yaml');
    const out = path.join(root, 'out');
    const first = await cli(['sweep', evalFile, '--out', out]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /sweep: 24 cells, 8 retrievals per question, 23 questions/);
    assert.match(first.stderr, /setting 8\/8 \(chunkSize=64 overlap=4\) done/);
    assert.match(first.stdout, /Recall@k +Precision@k +Hit rate@k +nDCG@k/);
    assert.match(first.stdout, /184 retrievals \(184 asked of the retriever, 0 from the cache\); no model calls/);
    const json = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8'));
    assert.equal(json.cells.length, 24);
    assert.equal(json.metric, 'ndcg');
    assert.equal(json.current, 'chunkSize=64 overlap=0 k=3');
    const best = json.cells.filter((cell: { best: boolean }) => cell.best);
    assert.equal(best.length, 1);
    assert.equal(best[0].key, json.best.key);
    assert.ok(json.cells.every((cell: { metrics: { ndcg: { value: number } } }) => best[0].metrics.ndcg.value >= cell.metrics.ndcg.value));
    assert.match(first.stdout, new RegExp(`Best by nDCG@k: ${json.best.key}`));
    assert.equal(json.best.vsCurrent.test, 'paired-bootstrap');
    assert.equal(json.questions.length, 23);
    const csv = readFileSync(path.join(out, 'sweep.csv'), 'utf8').trim().split('\n');
    assert.equal(csv.length, 25);
    assert.match(csv[0]!, /^cell,chunkSize,overlap,k,recall,recall_low,recall_high,/);

    const again = await cli(['sweep', evalFile, '--out', out, '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /184 retrievals \(0 asked of the retriever, 184 from the cache\)/);
    assert.equal(again.stderr, '');
  });

  it('sweeps the eval file\'s own index: one index built per chunking, each question retrieved once per setting', async () => {
    const evalFile = path.join(root, 'corpus', 'corpus-sweep.eval.yaml');
    const out = path.join(root, 'corpus-out');
    const exit = await cli(['sweep', evalFile, '--out', out]);
    assert.equal(exit.code, 0, exit.stderr);
    // 4 chunk sizes × 2 overlaps, k a prefix; the current setting (64 tokens, overlap 8, k 2) is one of the cells.
    assert.match(exit.stderr, /sweep: 32 cells, 8 retrievals per question, 11 questions \(suite corpus, index of /);
    assert.match(exit.stdout, /88 retrievals \(88 asked of the retriever, 0 from the cache\); no model calls/);
    assert.deepEqual(readdirSync(path.join(root, 'corpus', '.rag-inspector', 'index')).length, 8);
    const json = JSON.parse(readFileSync(path.join(out, 'sweep.json'), 'utf8'));
    assert.equal(json.current, 'chunkSize=64 overlap=8 k=2');
    assert.equal(json.cells.find((cell: { key: string }) => cell.key === json.current).current, true);
    assert.match(readFileSync(path.join(out, 'sweep.html'), 'utf8'), /"format":"rag-inspector\/sweep"/);
    // Smaller chunks cut the answer's span into pieces: at k 1 the 16-token chunking finds fewer than the 128-token one.
    const hit = (key: string) => json.cells.find((cell: { key: string }) => cell.key === key).metrics.hit_rate.value as number;
    assert.ok(hit('chunkSize=16 overlap=0 k=1') < hit('chunkSize=128 overlap=0 k=1'));

    const again = await cli(['sweep', evalFile, '--out', out, '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /88 retrievals \(0 asked of the retriever, 88 from the cache\)/);
  });

  it('prices the end-to-end cells before anything is sent: the plan sums every cell\'s calls at the model\'s price', async () => {
    const evalFile = path.join(root, 'sweep', 'priced.eval.yaml');
    const priced = readFileSync(path.join(root, 'sweep', 'sweep.eval.yaml'), 'utf8')
      .replace(/models:\n.*\n/, 'models:\n  - { provider: openai-compatible, model: paid-model, baseUrl: "http://127.0.0.1:9/v1", parameters: { maxTokens: 100 } }\nprices: { "openai-compatible:paid-model": { input: 1, output: 2 } }\n')
      .replace('  metric: ndcg\n', '  metric: ndcg\n  endToEnd:\n    - { chunkSize: 32, overlap: 4, k: 1 }\n    - { chunkSize: 64, overlap: 0, k: 3 }\n');
    writeFileSync(evalFile, priced);
    const hinted = await cli(['sweep', evalFile, '--out', path.join(root, 'priced-out'), '--quiet']);
    assert.equal(hinted.code, 0, hinted.stderr);
    // 23 questions × 2 cells, each call priced by its prompt's tokens: the sum is above zero and names the 46 calls.
    assert.match(hinted.stdout, /endToEnd names 2 cells \(chunkSize=32 overlap=4 k=1; chunkSize=64 overlap=0 k=3\): cost plan: up to \$\d+\.\d+ for 46 priced model calls; add --end-to-end/);
  });

  it('runs the cells endToEnd names through the engine with --end-to-end: the cell\'s k sent, its settings to the retriever', async () => {
    const evalFile = path.join(root, 'sweep', 'cells.eval.yaml');
    writeFileSync(evalFile, readFileSync(path.join(root, 'sweep', 'sweep.eval.yaml'), 'utf8').replace('  metric: ndcg\n', '  metric: ndcg\n  endToEnd:\n    - { chunkSize: 32, overlap: 4, k: 1 }\n'));
    const hinted = await cli(['sweep', evalFile, '--out', path.join(root, 'cells-out'), '--quiet']);
    assert.equal(hinted.code, 0, hinted.stderr);
    assert.match(hinted.stdout, /endToEnd names 1 cell \(chunkSize=32 overlap=4 k=1\): cost plan: no priced model call; add --end-to-end to run them/);
    const exit = await cli(['sweep', evalFile, '--out', path.join(root, 'cells-out'), '--end-to-end']);
    assert.equal(exit.code, 0, exit.stderr);
    assert.ok(exit.stdout.indexOf('End to end: 1 cell, cost plan: no priced model call') < exit.stdout.indexOf('End to end, chunkSize=32'), 'the plan before the run');
    assert.match(exit.stdout, /End to end, chunkSize=32 overlap=4 k=1:/);
    assert.match(exit.stdout, /Cases: 23 \(\d+ passed, \d+ failed, 0 errors\)/);
    const runId = /end to end, chunkSize=32 overlap=4 k=1: run (\S+),/.exec(exit.stderr)![1]!;
    const log = await readRunLog(path.join(root, 'sweep', '.rag-inspector', 'runs', `${runId}.jsonl`));
    assert.equal(log.header?.spec.name, 'Sweep example (offline) — sweep cell chunkSize=32 overlap=4 k=1');
    const cases = log.cases;
    assert.equal(cases.length, 23);
    for (const { case: evalCase } of cases) {
      const retrieval = (evalCase.params as unknown as RagCaseParams).retrieval!;
      assert.equal(retrieval.k, 1);
      assert.equal(evalCase.documents.length, 1);
      // The chunk sent is one of the cell's chunking (32 words; the retriever's own default is 64).
      assert.ok(evalCase.documents[0]!.text.split(/\s+/).filter(Boolean).length <= 32);
      assert.equal(retrieval.retriever, 'command: node retrieve.mjs');
      assert.ok(retrieval.candidates.every((c) => c.labelSource === 'span'));
    }
  });

  it('names a bad sweep: block at its line, and runs nothing', async () => {
    const evalFile = path.join(root, 'sweep', 'bad.eval.yaml');
    writeFileSync(evalFile, readFileSync(path.join(root, 'sweep', 'sweep.eval.yaml'), 'utf8').replace('  metric: ndcg\n', '  metric: ndcg\n  endToEnd:\n    - { chunkSize: 48 }\n'));
    const exit = await cli(['sweep', evalFile, '--out', path.join(root, 'bad-out')]);
    assert.equal(exit.code, 2);
    assert.match(exit.stderr, /bad\.eval\.yaml:\d+:\d+: sweep\.endToEnd\[0\]\.chunkSize: 48 is not one of the sweep's chunkSize values — the sweep tries chunkSize: 8, 16, 32, 64/);
  });
});
