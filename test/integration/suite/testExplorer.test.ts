// Test Explorer in the real extension host: items for eval files, runs from the Testing commands and the profile, results per case, cancel.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readRunLog } from '../../../src/core/run/runLog.js';
import { RUN_ANYWAY } from '../../../src/extension/costGuard.js';
import type { ExplorerRunReport, RagTestExplorer } from '../../../src/extension/testExplorer.js';
import { activatedExtension, note } from './extensionHost.js';
import { fixtureEval, HOSTILE_ANSWER } from './fixtureEval.js';
import { eventually } from './eventually.js';
import type { FixtureEval } from './fixtureEval.js';
import { answerModalWarnings } from './inlineFixtures.js';
import { caseRequests } from '../../fixtures/llmServer.js';

function leavesOf(file: vscode.TestItem): vscode.TestItem[] {
  const leaves: vscode.TestItem[] = [];
  file.children.forEach((suite) => suite.children.forEach((leaf) => leaves.push(leaf)));
  return leaves;
}

function runLogPath(runId: string): string {
  return vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, '.rag-inspector', 'runs', `${runId}.jsonl`).fsPath;
}

function resultOf(report: ExplorerRunReport, item: vscode.TestItem) {
  const result = report.results.get(item);
  assert.ok(result, `nothing was reported for ${item.id}`);
  return result;
}

function messageText(message: vscode.TestMessage): string {
  // MarkdownString.appendText escapes spaces and punctuation; the reader sees plain text.
  const text = typeof message.message === 'string' ? message.message : message.message.value;
  return text.replace(/&nbsp;/g, ' ').replace(/\\([\\`*_{}[\]()#+\-.!'])/g, '$1');
}

function nextRun(tests: RagTestExplorer, timeoutMs = 60_000): Promise<ExplorerRunReport> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { listener.dispose(); reject(new Error(`no Test Explorer run ended within ${timeoutMs} ms`)); }, timeoutMs);
    const listener = tests.onDidEndRun((report) => { clearTimeout(timer); listener.dispose(); resolve(report); });
  });
}

suite('Test Explorer', () => {
  let fixture: FixtureEval;
  let tests: RagTestExplorer;

  suiteSetup(async () => {
    ({ testing: { tests } } = await activatedExtension());
    await tests.ready;
    fixture = await fixtureEval('explorer');
  });

  suiteTeardown(async () => {
    await fixture?.dispose();
  });

  test('each *.eval.yaml of the workspace is a test item, found by the file watcher; suites resolve from the eval file', async () => {
    assert.ok(tests.tests.items.get(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'smoke.eval.yaml').toString()), 'smoke.eval.yaml was not discovered');
    const item = await eventually('the new eval file to appear in the Test Explorer', () => tests.tests.items.get(fixture.uri.toString()));
    assert.equal(item.canResolveChildren, true, 'children come lazily');
    await tests.resolve(item);
    assert.equal(item.error, undefined);
    assert.equal(item.label, 'explorer');
    const suite = item.children.get('suite:noise-en');
    assert.ok(suite, 'the suite of the eval file is a child');
    assert.equal(suite.range?.start.line, 7, 'the suite item points at its "id:" line in the eval file');
    assert.equal(suite.children.size, 0, 'no run yet: no cases');
  });

  test('testing.runAll runs the eval file and reports each case: passed, failed with a diff of expected vs response, errored with the error', async () => {
    const item = await eventually('the eval file item', () => tests.tests.items.get(fixture.uri.toString()));
    const ended = nextRun(tests);
    const started = Date.now();
    await vscode.commands.executeCommand('testing.runAll');
    const report = await ended;
    note(`testing.runAll: ${report.results.size} results in ${Date.now() - started} ms (runs ${report.runIds.join(', ')})`);

    const byQuestion = (start: string) => leavesOf(item).find((l) => l.description?.startsWith(start));
    const [australia, planet, sodium] = [byQuestion('What is the capital'), byQuestion('Which planet'), byQuestion('Which element')];
    assert.ok(australia && planet && sodium, 'one item per case, described by its question');
    assert.equal(leavesOf(item).length, 3);

    assert.equal(resultOf(report, australia).state, 'passed');

    const failed = resultOf(report, planet);
    assert.equal(failed.state, 'failed');
    const [diff] = failed.messages;
    assert.ok(diff);
    assert.equal(diff.expectedOutput, 'Jupiter', 'expected: the answer from the dataset');
    assert.equal(diff.actualOutput, HOSTILE_ANSWER, 'actual: the response');
    assert.match(messageText(diff), /answer part 1 of 1 \('Jupiter'\) not found/, 'why it failed');
    assert.match(messageText(diff), /Which planet is the largest/);
    assert.match(messageText(diff), /command:ragInspector\.openInspector\?/);
    assert.equal(diff.location?.uri.fsPath, planet.uri?.fsPath, 'the message points at the dataset row');
    assert.equal(diff.location?.range.start.line, 1, 'questions.jsonl line 2');
    assert.equal(planet.range?.start.line, 1, 'the item itself sits on its dataset row');

    const errored = resultOf(report, sodium);
    assert.equal(errored.state, 'errored');
    assert.match(messageText(errored.messages[0]!), /model error .*400/);

    const logs = await Promise.all(report.runIds.map((id) => readRunLog(runLogPath(id))));
    const log = logs.find((l) => l.header.spec.file === fixture.uri.fsPath);
    assert.ok(log, `no run of ${fixture.uri.fsPath} among ${report.runIds.join(', ')}`);
    assert.equal(log.cases.filter((c) => c.case.suiteId === 'noise-en' && c.result.modelKey === 'openai-compatible:fixture-model').length, 3, 'the run logged its cases in the workspace');
  });

  test('running one case item runs only that case through the engine filter', async () => {
    const item = tests.tests.items.get(fixture.uri.toString())!;
    const planet = leavesOf(item).find((l) => l.description?.startsWith('Which planet'))!;
    const ended = nextRun(tests);
    await tests.runProfile.runHandler(new vscode.TestRunRequest([planet], undefined, tests.runProfile), new vscode.CancellationTokenSource().token);
    const report = await ended;
    assert.deepEqual([...report.results.values()].map((r) => r.state), ['failed']);
    assert.equal(report.runIds.length, 1);
    const log = await readRunLog(runLogPath(report.runIds[0]!));
    assert.deepEqual(log.cases.map((c) => c.case.question), ['Which planet is the largest in the Solar System?']);
    assert.equal(leavesOf(item).length, 3, 'a partial rerun keeps the other cases in the tree');
  });

  test('cancelling from the Testing view stops the run: it ends "cancelled" with the cases that finished', async () => {
    const slow = await fixtureEval('explorer-slow', { model: 'fixture-slow', latencyMs: 400, noiseRates: [0, 0.5], concurrency: 1, rules: [{ reply: 'Canberra.' }] });
    try {
      const item = await eventually('the slow eval file item', () => tests.tests.items.get(slow.uri.toString()));
      const source = new vscode.CancellationTokenSource();
      const ended = nextRun(tests);
      const running = tests.runProfile.runHandler(new vscode.TestRunRequest([item], undefined, tests.runProfile), source.token);
      await eventually('a first case to reach the fixture server', () => caseRequests(slow.server.requests).length > 0 || undefined);
      source.cancel();
      await running;
      const report = await ended;
      const log = await readRunLog(runLogPath(report.runIds[0]!));
      assert.equal(log.status, 'cancelled');
      assert.ok(log.cases.length < 6, `cancel should stop before all 6 cases; ${log.cases.length} finished`);
      assert.equal(report.results.size, log.cases.length, 'every finished case was reported, nothing else');
      const { testing } = await activatedExtension();
      assert.equal(testing.controller.active, undefined, 'the controller is free again');
    } finally {
      await slow.dispose();
    }
  });

  test('"run all" lists the eval files again first, so one a file watcher missed still runs', async () => {
    // Simulates the watcher missing a file copied into a just-created folder (seen with Open Example).
    tests.tests.items.delete(fixture.uri.toString());
    const ended = nextRun(tests);
    await tests.runProfile.runHandler(new vscode.TestRunRequest(undefined, undefined, tests.runProfile), new vscode.CancellationTokenSource().token);
    const report = await ended;
    const item = tests.tests.items.get(fixture.uri.toString());
    assert.ok(item, 'the eval file is back in the tree');
    assert.deepEqual(leavesOf(item).map((leaf) => report.results.get(leaf)?.state).sort(), ['errored', 'failed', 'passed']);
  });

  test('a run estimated above ragInspector.maxCostWithoutConfirm asks first, as Run Evaluation does: declined, nothing is sent; confirmed, it runs', async () => {
    // $100 per million tokens: 3 calls of a few hundred input and up to 256 output tokens each is well over 5 cents.
    // A model of its own, so no earlier test's answer can come from the response cache.
    const priced = await fixtureEval('explorer-priced', { model: 'fixture-priced', prices: { 'openai-compatible': { input: 100, output: 100 } } });
    const config = vscode.workspace.getConfiguration('ragInspector');
    await config.update('maxCostWithoutConfirm', 0.05, vscode.ConfigurationTarget.Global);
    const modal = answerModalWarnings();
    try {
      const item = await eventually('the priced eval file item', () => tests.tests.items.get(priced.uri.toString()));
      const runItem = async () => {
        const ended = nextRun(tests);
        await tests.runProfile.runHandler(new vscode.TestRunRequest([item], undefined, tests.runProfile), new vscode.CancellationTokenSource().token);
        return ended;
      };

      modal.answer = undefined;
      const declined = await runItem();
      assert.equal(modal.questions.length, 1, 'the cost was asked about once');
      assert.match(modal.questions[0]!, /Test Explorer run may cost up to \$\d+\.\d+\. Run it\?/);
      assert.deepEqual(declined.runIds, [], 'declined: no run started');
      assert.equal(priced.server.requests.length, 0, 'declined: nothing sent to the model');

      modal.answer = RUN_ANYWAY;
      const confirmed = await runItem();
      assert.equal(modal.questions.length, 2);
      assert.equal(confirmed.runIds.length, 1, 'confirmed: the run started');
      assert.equal(caseRequests(priced.server.requests).length, 3, 'one call per case');
    } finally {
      modal.restore();
      await config.update('maxCostWithoutConfirm', undefined, vscode.ConfigurationTarget.Global);
      await priced.dispose();
    }
  });

  test('a deleted eval file leaves the Test Explorer', async () => {
    const gone = await fixtureEval('explorer-gone');
    await eventually('the item to appear', () => tests.tests.items.get(gone.uri.toString()));
    await gone.dispose();
    await eventually('the item to go', () => (tests.tests.items.get(gone.uri.toString()) ? undefined : true));
  });
});
