// Reruns against the fixture server: Rerun Failed Cases and Rerun Case append new runs, rerun on save, and a store reloaded from disk.
import * as assert from 'node:assert/strict';
import { readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { GetRun, ListRuns, PROTOCOL_VERSION, Ready } from '../../../src/protocol.js';
import type { RunDetail, RunListing } from '../../../src/protocol.js';
import { InspectorPanel } from '../../../src/extension/panel.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { buildDiagnostics } from '../../../src/extension/diagnostics.js';
import type { RerunOnSaveResult } from '../../../src/extension/rerunOnSave.js';
import { ResultsIndex } from '../../../src/extension/resultsIndex.js';
import { RunStore, workspaceRunDirs } from '../../../src/extension/runStore.js';
import { SessionRuns } from '../../../src/extension/sessionRuns.js';
import { caseRequests, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { recordingPanel } from './builders.js';
import { activatedExtension } from './extensionHost.js';
import { HOSTILE_ANSWER, QUESTIONS, asSummary, rightAnswers, scriptedAnswers, workspaceFolder, writeFixtureEval } from './inlineFixtures.js';
import { eventually } from './eventually.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };
const runsDir = () => path.join(workspaceFolder().fsPath, '.rag-inspector', 'runs');
const logFiles = () => readdirSync(runsDir()).filter((f) => f.endsWith('.jsonl')).sort();

/** The questions the fixture server was asked since `from`, one per request (the run's preflight model listing asks none). */
function askedSince(server: FixtureServer, from: number): string[] {
  return caseRequests(server.requests.slice(from)).map((r) => Object.values(QUESTIONS).find((q) => r.text.includes(q.text))?.text ?? '?').sort();
}

suite('reruns', () => {
  let server: FixtureServer;

  suiteSetup(async () => {
    server = await startFixtureServer();
    await activatedExtension();
  });
  setup(() => {
    server.clearRules();
    for (const rule of scriptedAnswers()) server.addRule(rule);
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await server?.close();
  });

  test('Rerun Failed Cases runs only the failed and errored cases, as a new run; cached answers are not asked again', async () => {
    const fixture = await writeFixtureEval({ name: 'rerun-failed', baseUrl: server.openaiBaseUrl });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    assert.deepEqual([first.totals.cases, first.totals.failed, first.totals.error], [6, 2, 2]);
    const firstLog = path.join(runsDir(), `${first.runId}.jsonl`);
    const firstLines = (await vscode.workspace.fs.readFile(vscode.Uri.file(firstLog))).byteLength;

    // Unchanged requests: the two wrong answers come from the cache; the two errors (never cached) are asked again.
    let from = server.requests.length;
    const second = asSummary(await vscode.commands.executeCommand('ragInspector.rerunFailed', fixture.evalFile));
    assert.notEqual(second.runId, first.runId);
    assert.deepEqual([second.totals.cases, second.totals.cacheHits], [4, 2]);
    assert.deepEqual(askedSince(server, from), [QUESTIONS.sodium.text, QUESTIONS.sodium.text]);
    assert.equal((await vscode.workspace.fs.readFile(vscode.Uri.file(firstLog))).byteLength, firstLines, 'the first run\'s log is untouched');
    const { testing } = await activatedExtension();
    const rerun = await testing.store.getRun(second.runId);
    assert.deepEqual(rerun.cases.map((c) => c.key).sort(), ['noise/0/noise=0', 'noise/0/noise=0.4', 'noise/2/noise=0', 'noise/2/noise=0.4'].map(fixture.key));

    // Now with the right answers and no cache: exactly the four failures are asked, and they pass.
    server.clearRules();
    for (const rule of rightAnswers()) server.addRule(rule);
    await vscode.workspace.fs.delete(vscode.Uri.file(path.join(workspaceFolder().fsPath, '.rag-inspector', 'cache')), { recursive: true, useTrash: false });
    from = server.requests.length;
    const third = asSummary(await vscode.commands.executeCommand('ragInspector.rerunFailed', fixture.evalFile));
    assert.deepEqual([third.totals.cases, third.totals.passed], [4, 4]);
    assert.deepEqual(askedSince(server, from), [QUESTIONS.australia.text, QUESTIONS.australia.text, QUESTIONS.sodium.text, QUESTIONS.sodium.text]);

    // The current results (three runs folded together) have no failure left: diagnostics clear, nothing to rerun.
    await eventually('the dataset diagnostics to clear', () => (vscode.languages.getDiagnostics(fixture.dataset).length === 0 ? true : undefined), 10_000,
      () => vscode.languages.getDiagnostics(fixture.dataset).map((d) => d.message));
    const latest = await testing.store.latestResults(fixture.evalFile.fsPath);
    assert.deepEqual(latest?.runIds, [third.runId, second.runId, first.runId]);
    assert.equal(latest?.entries.size, 6);
    assert.equal(await vscode.commands.executeCommand('ragInspector.rerunFailed', fixture.evalFile), 'nothing-to-rerun');
  });

  test('Rerun Case (from the inspector: run id + case key) runs that one case as a new run', async () => {
    const fixture = await writeFixtureEval({ name: 'rerun-case', baseUrl: server.openaiBaseUrl });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    const from = server.requests.length;
    const one = asSummary(await vscode.commands.executeCommand('ragInspector.rerunCase', { runId: first.runId, key: fixture.key('noise/2/noise=0.4') }));
    assert.equal(one.totals.cases, 1);
    assert.deepEqual(askedSince(server, from), [QUESTIONS.sodium.text]);
    const { testing } = await activatedExtension();
    assert.deepEqual((await testing.store.getRun(one.runId)).cases.map((c) => c.key), [fixture.key('noise/2/noise=0.4')]);
    assert.equal(await vscode.commands.executeCommand('ragInspector.rerunCase', undefined), 'no-case');
  });

  test('rerun on save: saving a template reruns the suites that use it; unchanged prompts are cache hits; compare shows the flips', async function () {
    this.timeout(40_000);
    const { testing } = await activatedExtension();
    server.clearRules();
    // After the edit below, Australia's prompt asks for the city name, and the fixture answers it right.
    server.addRule({ match: { contains: 'Answer with the city name.' }, reply: QUESTIONS.australia.answer });
    server.addRule({ match: { contains: QUESTIONS.australia.text }, reply: HOSTILE_ANSWER });
    server.addRule({ match: { contains: QUESTIONS.jupiter.text }, reply: QUESTIONS.jupiter.answer });
    server.addRule({ match: { contains: QUESTIONS.sodium.text }, reply: QUESTIONS.sodium.answer });
    const fixture = await writeFixtureEval({ name: 'on-save', baseUrl: server.openaiBaseUrl, secondSuite: true });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    assert.deepEqual([first.totals.cases, first.totals.failed], [12, 4], 'two suites × 3 rows × 2 ratios; Australia wrong in both');

    await vscode.commands.executeCommand('ragInspector.openInspector');
    assert.ok(testing.panels.panel, 'rerun on save works while the inspector is open');
    await eventually('the run in the current results', () => (testing.index.resultsOf(fixture.evalFile.fsPath)?.latestRunId === first.runId ? true : undefined));
    const rerun = new Promise<RerunOnSaveResult>((resolve) => { const d = testing.rerunOnSave.onDidRerun((r) => { d.dispose(); resolve(r); }); });

    const document = await vscode.workspace.openTextDocument(fixture.template);
    const lines = document.getText().split('\n');
    const questionLine = lines.findIndex((l) => l.includes('{{ question }}'));
    assert.ok(questionLine > 0);
    // Only Australia's prompt changes: for the other rows the tag renders nothing, so their requests are the same bytes.
    const edit = new vscode.WorkspaceEdit();
    edit.insert(fixture.template, new vscode.Position(questionLine, lines[questionLine]!.length), '{% if question contains "Australia" %}\nAnswer with the city name.{% endif %}');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const from = server.requests.length;
    assert.ok(await document.save());

    const result = await Promise.race([rerun, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no rerun within 20 s of saving')), 20_000))]);
    const summary = asSummary(result.outcome);
    assert.equal(result.previousRunId, first.runId);
    assert.deepEqual(result.suiteIds, ['noise'], 'only the suite whose template was saved');
    // The paired verdict against the previous run: 2 of 6 cases fixed, none broken (p = 0.5); with 6 pairs only all 6
    // changing one way (p = 0.031) would be significant.
    assert.deepEqual(result.verdict, ['noise on openai-compatible:fixture-on-save: no detectable change at this size (n = 6; a change of ±100.0 points in pass rate would be detectable)']);
    assert.equal(summary.totals.cases, 6);
    assert.equal(summary.totals.cacheHits, 4, 'Jupiter and sodium render the same prompt as before');
    assert.deepEqual(askedSince(server, from), [QUESTIONS.australia.text, QUESTIONS.australia.text]);
    assert.deepEqual((await testing.store.getRun(summary.runId)).cases.map((c) => c.caseId).sort(), ['noise/0/noise=0', 'noise/0/noise=0.4', 'noise/1/noise=0', 'noise/1/noise=0.4', 'noise/2/noise=0', 'noise/2/noise=0.4']);

    const rows = await testing.store.compare(first.runId, summary.runId);
    assert.deepEqual(rows.map((r) => [r.caseId, r.before.pass, r.after.pass]).sort(), [['noise/0/noise=0', false, true], ['noise/0/noise=0.4', false, true]]);
    assert.ok(rows.every((r) => r.beforeText.includes('onerror') && r.afterText === QUESTIONS.australia.answer), 'both responses');
  });

  test('a saved edit during a rerun on save cancels it and starts again: never two runs at once', async function () {
    this.timeout(40_000);
    const { testing } = await activatedExtension();
    const fixture = await writeFixtureEval({ name: 'restart', baseUrl: server.openaiBaseUrl, concurrency: 1 });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    await vscode.commands.executeCommand('ragInspector.openInspector');
    await eventually('the run in the current results', () => (testing.index.resultsOf(fixture.evalFile.fsPath)?.latestRunId === first.runId ? true : undefined));

    let active = 0;
    let most = 0;
    const watch = testing.controller.onEvent((e) => {
      if (e.type === 'run-started') most = Math.max(most, ++active);
      if (e.type === 'run-finished') active -= 1;
    });
    const results: RerunOnSaveResult[] = [];
    const listen = testing.rerunOnSave.onDidRerun((r) => results.push(r));
    const document = await vscode.workspace.openTextDocument(fixture.template);
    const appendToQuestionLine = async (text: string) => {
      const line = document.getText().split('\n').findIndex((l) => l.startsWith('Question:'));
      const edit = new vscode.WorkspaceEdit();
      edit.insert(fixture.template, new vscode.Position(line, document.lineAt(line).text.length), text);
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(await document.save());
    };
    server.setLatency(300);
    try {
      await appendToQuestionLine(' Be brief.');
      await eventually('the first rerun to be under way', () => (testing.controller.active?.done ? true : undefined), 15_000);
      await appendToQuestionLine(' Really.');
      await eventually('two reruns', () => (results.length >= 2 ? true : undefined), 25_000, () => results.map((r) => r.outcome));
    } finally {
      server.setLatency(0);
      watch.dispose();
      listen.dispose();
    }
    const [cancelled, restarted] = results.map((r) => asSummary(r.outcome));
    assert.equal(cancelled!.status, 'cancelled');
    assert.ok(cancelled!.totals.cases >= 1 && cancelled!.totals.cases < 6);
    // The sodium question's scripted 400 makes two of the six cases model errors.
    assert.deepEqual([restarted!.status, restarted!.totals.cases], ['completed-with-errors', 6]);
    assert.equal(most, 1, 'never two runs at once');
    const last = (await testing.store.getCase(restarted!.runId, fixture.key('noise/1/noise=0'))).evalCase.messages.at(-1)?.content ?? '';
    assert.match(last, /Question: Be brief\. Really\./, 'the restart ran the latest template');
  });

  test('a store with no memory of this window lists past runs from disk, with their diagnostics; an unreadable log is listed with its problem', async () => {
    const fixture = await writeFixtureEval({ name: 'reload', baseUrl: server.openaiBaseUrl });
    const ran = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    const bad = path.join(runsDir(), '2000-01-01T00-00-00Z-badbad.jsonl');
    writeFileSync(bad, 'this is not a run log\n');
    const store = new RunStore(new SessionRuns(), workspaceRunDirs());
    const { testing } = await activatedExtension();
    const live = await testing.store.listRuns();
    const fromDisk = await store.listRuns();
    assert.ok(fromDisk.some((r) => r.runId === ran.runId));
    const readable = live.filter((r) => logFiles().includes(`${r.runId}.jsonl`) && r.status !== 'error');
    assert.ok(readable.length >= 4, 'this and earlier tests left runs on disk');
    for (const run of readable) {
      const found = fromDisk.find((r) => r.runId === run.runId);
      assert.ok(found, `run ${run.runId} is not listed from disk`);
      assert.deepEqual([found.name, found.status, found.totals?.cases], [run.name, run.status, run.totals?.cases]);
      const detail = await store.getRun(run.runId);
      assert.equal(detail.cases.length, run.totals?.cases);
    }

    // What activation does in a reopened window: the current results of every eval file, then their diagnostics.
    const index = new ResultsIndex(store);
    await index.refresh();
    const built = await buildDiagnostics(index.all(), async () => undefined);
    assert.deepEqual(built.get(fixture.dataset.fsPath)?.map((d) => [d.range.start.line, d.code]).sort(), [[0, 'noise/0/noise=0'], [0, 'noise/0/noise=0.4'], [2, 'noise/2/noise=0'], [2, 'noise/2/noise=0.4']]);
    index.dispose();

    const unreadable = fromDisk.find((r) => r.runId === '2000-01-01T00-00-00Z-badbad');
    assert.ok(unreadable, 'the bad log is listed');
    assert.equal(unreadable.status, 'error');
    assert.match(unreadable.name, /unreadable: .*not a RAG Inspector run log/);
    const detail = await store.getRun(unreadable.runId);
    assert.deepEqual([detail.cases.length, detail.problems.length], [0, 1]);

    // The panel answers from the same store: a restored panel (nothing in memory) lists and opens past runs.
    const webview = recordingPanel(vscode.Uri.file('/ext'));
    const panel = new InspectorPanel(webview.panel, { extensionUri: webview.extensionUri, data: store, controller: { cancel: () => false }, logger: silent, explanation: async () => null });
    try {
      await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
      await webview.send(ListRuns.create(1, {}), 1);
      const listed = (webview.posted.at(-1) as { result: RunListing[] }).result;
      assert.deepEqual(listed.map((r) => r.runId).sort(), fromDisk.map((r) => r.runId).sort());
      await webview.send(GetRun.create(2, { runId: readable[0]!.runId }), 1);
      assert.equal((webview.posted.at(-1) as { result: RunDetail }).result.cases.length, readable[0]!.totals?.cases);
    } finally {
      panel.dispose();
      await vscode.workspace.fs.delete(vscode.Uri.file(bad));
    }
  });
});
