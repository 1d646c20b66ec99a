// The bundled examples/rag through the CLI as a user runs it: the BM25 retriever script, the extractive reader,
// offline; the retrieval metrics and the failure split are printed, and every failed case has a cause.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { promisify } from 'node:util';

const CLI = path.resolve('dist/cli.js');
const copy = mkdtempSync(path.join(tmpdir(), 'rag-example-'));
after(() => rmSync(copy, { recursive: true, force: true }));

test('rag-inspector run examples/rag prints the retrieval metrics, the accuracy and where the failures come from', async () => {
  // A copy, so the run's .rag-inspector folder is not written into the repository.
  cpSync(path.resolve('examples/rag'), copy, { recursive: true });
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, 'run', path.join(copy, 'rag-example.eval.yaml')], { env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 });
  assert.match(stdout, /Cases: 23 \(16 passed, 7 failed, 0 errors\)/);
  // The question whose relevant passage BM25 ranks third (k = 2) is ranked out; the one it never finds is not retrieved.
  assert.match(stdout, /Where the failures come from[\s\S]*not-retrieved +0\.143 \[[^\]]+\] n=7[\s\S]*ranked-out +0\.286 \[[^\]]+\] n=7/);
  assert.match(stdout, /Recall@1 +0\.(\d+) \[/);
  assert.match(stdout, /MRR +0\.\d+ \[[^\]]+\] n=23/);
  // Every failed case is explained (leave-one-out and position), as the eval file asks.
  assert.match(stdout + stderr, /explain: 7 cases/);
  // With Explain's evidence every failed case has a cause: the split after it leaves none undetermined.
  const split = stdout.slice(stdout.indexOf("With Explain's evidence:"));
  assert.match(split, /^With Explain's evidence:/);
  assert.match(split, /retrieved-not-used|distracted|position|generation/);
  assert.doesNotMatch(split, /undetermined +\d/);
  // And in a file beside the explanation's: one row per failed case, its cause and the evidence in words.
  const csv = stdout.match(/\S*failure-causes\.csv/)?.[0];
  assert.ok(csv, 'failure-causes.csv is among the reports');
  const rows = readFileSync(csv, 'utf8').trim().split('\n');
  assert.equal(rows[0], 'suite,case_id,model,cause,from,passage_id,rank,evidence');
  assert.equal(rows.length, 1 + 7, 'one row per failed case');
  assert.ok(rows.slice(1).every((row) => !row.includes(',undetermined,')), rows.join('\n'));
  assert.ok(rows.slice(1).some((row) => row.includes(',explanation,')), 'causes from Explain\'s evidence');
});
