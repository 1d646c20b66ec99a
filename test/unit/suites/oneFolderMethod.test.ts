// A method kept in one folder (test/fixtures/methods/answer-contains) plus its one registration line runs end to end:
// the eval file accepts it, the CLI runs it against a real HTTP model, and every report and the inspector's data carry it.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { main } from '../../../src/cli/main.js';
import { InputErrors } from '../../../src/core/errors.js';
import { RunLogIndex } from '../../../src/core/report/runLogIndex.js';
import type { CaseDetail } from '../../../src/core/report/viewModel.js';
import { listRuns } from '../../../src/core/run/runLog.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { knownMethods, registerSuite, suiteFor } from '../../../src/core/suites/registry.js';
import { rgbView } from '../../../src/core/suites/rgb/view.js';
import { caseViewParts, viewedMethods } from '../../../src/core/suites/views.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { answerContainsWorkspace } from '../../fixtures/answerContainsWorkspace.js';
import { answerContainsSuite } from '../../fixtures/methods/answer-contains/suite.js';
import { answerContainsView } from '../../fixtures/methods/answer-contains/view.js';

const REPO = path.resolve(__dirname, '../../..');
const METHOD_DIR = path.join(REPO, 'test/fixtures/methods/answer-contains');
const METHOD = 'answer-contains';

let server: FixtureServer;
let dir: string;
let evalFile: string;

before(async () => {
  server = await startFixtureServer({ rules: [{ reply: 'The capital of France is Paris.' }] });
  ({ dir, evalFile } = answerContainsWorkspace(server.openaiBaseUrl, ['params: { caseSensitive: true }', 'thresholds: { contains: { min: 0.4 } }']));
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every file under the product's own folders: none may name the method, so adding it changed none of them. */
function productFiles(folder: string): string[] {
  return readdirSync(path.join(REPO, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('node_modules'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

test('the method is its folder: its own files, and no product file names it', () => {
  assert.deepEqual(readdirSync(METHOD_DIR).sort(), ['answer.prompt', 'cases.ts', 'params.ts', 'register.ts', 'report.ts', 'score.ts', 'suite.ts', 'view.ts']);
  const naming = ['src', 'webview', 'media', 'prompts'].flatMap(productFiles).filter((file) => readFileSync(file, 'utf8').includes(METHOD));
  assert.deepEqual(naming, [], 'the product knows the method only through registerSuite');
});

test('before its registration line runs, the eval file is refused at the method with the known methods', async () => {
  assert.equal(suiteFor(METHOD), undefined);
  const error = await loadEvalSpec(evalFile).then(() => undefined, (caught: unknown) => caught);
  assert.ok(error instanceof InputErrors);
  assert.deepEqual(error.errors.map((e) => e.format()), [
    `${evalFile}:9:13: unknown method "${METHOD}" — use one of: ${knownMethods().join(', ')}`,
  ]);
});

test('registered by one line, it runs through the CLI into every report and the inspector', async () => {
  await import('../../fixtures/methods/answer-contains/register.js');
  assert.deepEqual([knownMethods().at(-1), viewedMethods().at(-1)], [METHOD, METHOD]);
  assert.equal((await loadEvalSpec(evalFile)).suites[0]!.method, METHOD, 'the eval file now loads');

  const out = path.join(dir, 'reports');
  assert.equal(await main(['run', evalFile, '--out', out, '--quiet']), 0, 'the threshold (0.4) holds: one of two responses contains its answer');

  // The reports: the suite's table and metric, the cases with their scores, one JUnit test case per (case, model).
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { reports: Array<{ method: string; tables: Array<{ id: string; columns: string[]; rows: Array<{ label: string; cells: Array<{ value: number; n: number }> }> }>; metrics: Array<{ name: string; value: number; n: number }> }> };
  const suite = report.reports.find((s) => s.method === METHOD)!;
  assert.ok(suite, `report.json has the ${METHOD} suite`);
  assert.deepEqual(suite.tables.map((t) => [t.id, t.columns, t.rows.map((r) => [r.label, r.cells.map((c) => [c.value, c.n])])]), [
    ['contains', ['openai-compatible:model-under-test'], [['contains', [[0.5, 2]]]]],
  ]);
  assert.deepEqual(suite.metrics.map((m) => [m.name, m.value, m.n]), [['contains', 0.5, 2]]);
  const csv = readFileSync(path.join(out, 'cases.csv'), 'utf8').split('\n');
  assert.match(csv[0]!, /,pass,contains,message,/, "the method's metric is a column");
  assert.match(csv[1]!, /^capitals,capitals\/france,openai-compatible:model-under-test,.*,success,true,1,,/);
  assert.match(csv[2]!, /^capitals,capitals\/italy,.*,success,false,0,"contains \(missing\): the response does not contain ""Rome""",/);
  const junit = readFileSync(path.join(out, 'junit.xml'), 'utf8');
  assert.match(junit, /<testsuite name="capitals" tests="2" failures="1" errors="0"/);
  assert.match(junit, /<testcase name="capitals\/italy \[openai-compatible:model-under-test\]"[^>]*>\s*<failure message="contains \(missing\): the response does not contain &quot;Rome&quot;"/);
  assert.match(readFileSync(path.join(out, 'report.html'), 'utf8'), /the response does not contain/);

  // The inspector's data: the run log indexed as the extension does, each case read back whole.
  const [run] = await listRuns(path.join(dir, '.rag-inspector', 'runs'));
  const index = await RunLogIndex.build(run!.file);
  const details: CaseDetail[] = [];
  for (const key of index.entries.keys()) {
    const entry = (await index.readEntry(key))!;
    details.push({ runId: index.header.runId, ...entry });
  }
  const byId = new Map(details.map((d) => [d.evalCase.id, d]));
  assert.deepEqual([...byId.keys()].sort(), ['capitals/france', 'capitals/italy']);
  const france = byId.get('capitals/france')!;
  assert.equal(france.evalCase.method, METHOD);
  assert.deepEqual(france.evalCase.documents[0]!.spans, [{ kind: 'answer', start: 0, end: 5, text: 'Paris' }]);
  assert.match(france.evalCase.messages.at(-1)!.content, /Paris is the capital of France\.[\s\S]*What is the capital of France\?/, 'rendered from the prompt in its folder');
  assert.deepEqual(france.result.scores.map((s) => [s.metric, s.value, s.pass, s.explanation]), [['contains', 1, true, 'the response contains "Paris"']]);
  assert.deepEqual(byId.get('capitals/italy')!.result.scores.map((s) => [s.value, s.pass]), [[0, false]]);
  assert.deepEqual(caseViewParts(METHOD), {}, 'the case view draws its documents by role with their spans');
  const asked = server.requests.filter((r) => r.text.includes('Question:')).map((r) => r.lastUserMessage.split('\n').at(-1));
  assert.deepEqual(asked.sort(), ['What is the capital of France?', 'What is the capital of Italy?'], 'one real model call per case');
});

test('a method registered twice, or with the view of another method, is refused rather than replacing one', () => {
  assert.throws(() => registerSuite(answerContainsSuite, rgbView), /method "answer-contains" registered with the view of "rgb"/);
  assert.throws(() => registerSuite({ ...answerContainsSuite, method: 'rgb' }, rgbView), /method "rgb" is registered twice/);
  registerSuite({ ...answerContainsSuite, method: 'answer-contains-copy' }, { ...answerContainsView, method: 'answer-contains-copy' });
  assert.throws(() => registerSuite({ ...answerContainsSuite, method: 'answer-contains-copy' }, { ...answerContainsView, method: 'answer-contains-copy' }), /is registered twice/);
});
