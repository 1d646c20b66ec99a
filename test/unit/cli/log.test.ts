// `rag-inspector log`: every bundled example's run printed case by case, each line the case the inspector shows
// (the run log index's GetCase path); --failed, --case, an unknown case id, a damaged line, and "latest".
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { caseKey, isFailure } from '../../../src/core/model.js';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { indexRunLog } from '../../../src/core/report/runLogIndex.js';
import { runCli } from '../robustness/cliProcess.js';

const DATA = path.join(__dirname, '..', '..', 'data', 'runlogs');
const EXAMPLES = ['ifrag', 'needle', 'ragas', 'rgb', 'stress'];
const cli = (args: string[], cwd?: string) => runCli(['log', ...args], { ...process.env as Record<string, string>, CI: 'true' }, 60_000, cwd);

let root: string;
before(() => {
  root = mkdtempSync(path.join(tmpdir(), 'rag-cli-log-'));
});
after(() => rmSync(root, { recursive: true, force: true }));

/** The example's run log (as the bundled example's run wrote it) under `<folder>/.rag-inspector/runs/`. */
function logOf(example: string, folder = path.join(root, example), edit: (lines: string[]) => string[] = (lines) => lines): string {
  const text = gunzipSync(readFileSync(path.join(DATA, `${example}.jsonl.gz`))).toString('utf8');
  const runId = (JSON.parse(text.slice(0, text.indexOf('\n'))) as { runId: string }).runId;
  const runs = path.join(folder, '.rag-inspector', 'runs');
  mkdirSync(runs, { recursive: true });
  const file = path.join(runs, `${runId}.jsonl`);
  writeFileSync(file, edit(text.split('\n')).join('\n'));
  return file;
}

type Printed = { case: EvalCase; result: CaseResult };
const printed = (stdout: string): Printed[] => stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Printed);

for (const example of EXAMPLES) {
  test(`${example}: each case printed as the inspector shows it`, async () => {
    const file = logOf(example);
    const exit = await cli([file]);
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(exit.stderr, '');
    const lines = printed(exit.stdout);
    const index = await indexRunLog(file);
    assert.equal(lines.length, index.entries.size);
    const shown = await index.readEntries(lines.map((line) => caseKey(line.case.id, line.result.modelKey)));
    assert.equal(shown.size, lines.length, 'every printed case is a case of the run, once');
    for (const line of lines) {
      const detail = shown.get(caseKey(line.case.id, line.result.modelKey))!;
      assert.deepEqual(line, JSON.parse(JSON.stringify({ case: detail.evalCase, result: detail.result })));
    }
  });
}

test('--failed prints the failed and errored cases only; --case one case id, for each model', async () => {
  const file = logOf('stress', path.join(root, 'filters'));
  const all = printed((await cli([file])).stdout);
  const failed = await cli([file, '--failed']);
  assert.equal(failed.code, 0, failed.stderr);
  const expected = all.filter((line) => isFailure(line.result));
  assert.ok(expected.length > 0 && expected.length < all.length, 'the example has both');
  assert.deepEqual(printed(failed.stdout), expected);
  const id = all[5]!.case.id;
  const one = await cli([file, '--case', id]);
  assert.equal(one.code, 0, one.stderr);
  assert.deepEqual(printed(one.stdout), all.filter((line) => line.case.id === id));
});

test('an unknown case id is an error (exit 2) that says what the ids look like; nothing is printed', async () => {
  const file = logOf('rgb', path.join(root, 'unknown'));
  const exit = await cli([file, '--case', 'noise-en/0/noise=0', '--case', 'no-such-case']);
  assert.equal(exit.code, 2);
  assert.equal(exit.stdout, '');
  assert.match(exit.stderr, /has no case "no-such-case"\n {2}its case ids look like "noise-en\/0\/noise=0", .*jq -r \.case\.id lists them/);
});

test('a damaged line is named on stderr at its line, every other case printed, exit 2', async () => {
  let damaged = 0;
  const file = logOf('rgb', path.join(root, 'damaged'), (lines) => {
    damaged = lines.findIndex((line, i) => i > 100 && line.startsWith('{"type":"case"'));
    return lines.map((line, i) => (i === damaged ? line.slice(0, 40) : line));
  });
  const exit = await cli([file]);
  assert.equal(exit.code, 2);
  assert.match(exit.stderr, new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:${damaged + 1}: error: not valid JSON; the line was skipped\n$`));
  assert.equal(printed(exit.stdout).length, 259);
});

test('"latest" is the newest run under the folder the command is typed in', async () => {
  const folder = path.join(root, 'latest');
  logOf('ragas', path.join(folder, 'older'));
  logOf('rgb', path.join(folder, 'newer'));
  const exit = await cli(['latest'], folder);
  assert.equal(exit.code, 0, exit.stderr);
  assert.equal(printed(exit.stdout)[0]!.case.method, 'rgb');
});
