// Resume Interrupted Run in the extension host: a log cut short is finished without asking its finished cases again; a changed eval file offers a new run.
// The real crash (SIGKILL of the extension host, reload) is test/integration/crashResume.mjs; here the log is cut by hand.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { parseLogLines } from '../../../src/core/run/runLog.js';
import { QUIET_MS } from '../../../src/extension/interruptedRuns.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { InspectorPanel } from '../../../src/extension/panel.js';
import { ListRuns, PROTOCOL_VERSION, Ready, ResumeRun } from '../../../src/protocol.js';
import type { RunListing } from '../../../src/protocol.js';
import { startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { recordingPanel } from './builders.js';
import { activatedExtension } from './extensionHost.js';
import { answerPrompts, asSummary, rightAnswers, workspaceFolder, writeFixtureEval } from './inlineFixtures.js';
import { eventually } from './eventually.js';

const runsDir = () => path.join(workspaceFolder().fsPath, '.rag-inspector', 'runs');
const logOf = (runId: string) => path.join(runsDir(), `${runId}.jsonl`);
const lines = (file: string) => parseLogLines(readFileSync(file, 'utf8').split('\n')) as { type: string; case?: { id: string } }[];
/** The lines that say how a run went (header, resume, summary), in order: not its cases or the texts and shared values they use. */
const runLines = (file: string) => lines(file).map((l) => l.type).filter((t) => t !== 'case' && t !== 'text' && t !== 'shared');

/**
 * What a crash leaves: the header, the first `keep` case lines (with the text lines before them: a log stores each long
 * text once, ahead of the first case that uses it), half of the next case line, no summary.
 */
function cutLog(file: string, keep: number): void {
  const raw = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  let cases = 0;
  const at = raw.findIndex((line) => (JSON.parse(line) as { type: string }).type === 'case' && cases++ === keep);
  const next = raw[at]!;
  writeFileSync(file, `${raw.slice(0, at).join('\n')}\n${next.slice(0, Math.floor(next.length / 2))}`);
}

/**
 * The log of a run this window never ran (as after a reload): `file` copied under a new run id. This window's own runs
 * are listed from memory, so a cut log of one of them would not show what a restored window sees.
 */
function copyAsOtherRun(file: string, runId: string): string {
  const [header, ...rest] = readFileSync(file, 'utf8').split('\n');
  const copy = logOf(runId);
  writeFileSync(copy, [JSON.stringify({ ...JSON.parse(header!), runId }), ...rest].join('\n'));
  return copy;
}

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };

/** Answers the two questions Resume may ask; records every warning shown. */
function answerResumeWarnings(warnings: string[], onChanged: string | undefined): () => void {
  const original = vscode.window.showWarningMessage;
  return answerPrompts({
    showWarningMessage: ((message: string, ...rest: unknown[]) => {
      warnings.push(message);
      if (message.includes('may still be running')) return Promise.resolve('Resume Anyway');
      if (message.includes('cannot be resumed')) return Promise.resolve(onChanged);
      return (original as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
    }) as typeof vscode.window.showWarningMessage,
  });
}

suite('Resume Interrupted Run', () => {
  let server: FixtureServer;

  suiteSetup(async () => {
    server = await startFixtureServer({ rules: rightAnswers() });
    await activatedExtension();
  });
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => {
    await server?.close();
  });

  test('a log cut short (recent, no marker: maybe running) asks first, then runs only the missing cases into the same log', async () => {
    const { testing } = await activatedExtension();
    const fixture = await writeFixtureEval({ name: 'resume-cut', baseUrl: server.openaiBaseUrl, noiseRates: [0] });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    assert.equal(first.totals.cases, 3);
    const file = logOf(first.runId);
    const kept = lines(file).find((l) => l.type === 'case')!.case!.id;
    cutLog(file, 1);

    const warnings: string[] = [];
    const restore = answerResumeWarnings(warnings, undefined);
    let outcome: unknown;
    try {
      outcome = await vscode.commands.executeCommand('ragInspector.resumeRun', { runId: first.runId });
    } finally {
      restore();
    }
    assert.equal(warnings.length, 1, `one confirmation: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, /resume-cut .*changed less than two minutes ago: it may still be running/);
    const resumed = asSummary(outcome);
    assert.equal(resumed.runId, first.runId, 'the same run, finished');
    assert.deepEqual([resumed.status, resumed.totals.cases], ['success', 3]);
    // The run's totals count both sessions (the first's calls from its logged results): each case answered once, by
    // the model or the cache — the finished case was neither called nor looked up again.
    assert.equal(resumed.totals.modelCalls + resumed.totals.cacheHits, 3);
    assert.equal(lines(file).filter((l) => l.case?.id === kept).length, 1, 'the case kept from before the cut is logged once');

    const after = lines(file);
    const ids = after.filter((l) => l.type === 'case').map((l) => l.case!.id).sort();
    assert.equal(new Set(ids).size, 3, `each case once: ${ids.join(', ')}`);
    assert.equal(ids.length, 3);
    assert.deepEqual(runLines(file), ['header', 'resume', 'summary']);
    // This window's record of the run (what the inspector lists) holds the earlier case too.
    assert.equal(testing.sessions.items(first.runId)?.size, 3);
  });

  test('an eval file changed since the run started is not resumed; "Start a new run" starts one and the old log stays as it was', async () => {
    const fixture = await writeFixtureEval({ name: 'resume-changed', baseUrl: server.openaiBaseUrl, noiseRates: [0] });
    const first = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    const file = logOf(first.runId);
    cutLog(file, 1);
    const before = readFileSync(file, 'utf8');
    writeFileSync(fixture.evalFile.fsPath, `${readFileSync(fixture.evalFile.fsPath, 'utf8')}# edited after the run\n`);
    const runsBefore = new Set(readdirSync(runsDir()));

    const warnings: string[] = [];
    const restore = answerResumeWarnings(warnings, 'Start a new run');
    let outcome: unknown;
    try {
      outcome = await vscode.commands.executeCommand('ragInspector.resumeRun', { runId: first.runId });
    } finally {
      restore();
    }
    assert.equal(outcome, 'spec-changed');
    assert.match(warnings.at(-1)!, /resume-changed\.eval\.yaml changed since run .* started, so that run cannot be resumed/);
    assert.equal(readFileSync(file, 'utf8'), before, 'the interrupted log is left alone');
    const added = readdirSync(runsDir()).filter((f) => !runsBefore.has(f));
    assert.equal(added.length, 1, `one new run: ${added.join(', ')}`);
    const summary = lines(path.join(runsDir(), added[0]!)).at(-1) as { type: string; status?: string; totals?: { cases: number } };
    assert.deepEqual([summary.type, summary.status, summary.totals?.cases], ['summary', 'success', 3]);
  });

  test('the inspector lists a quiet cut log as interrupted, and its ResumeRun finishes it without a question', async () => {
    const { testing } = await activatedExtension();
    const fixture = await writeFixtureEval({ name: 'resume-panel', baseUrl: server.openaiBaseUrl, noiseRates: [0] });
    const ran = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    const runId = `${ran.runId}-cut`;
    const file = copyAsOtherRun(logOf(ran.runId), runId);
    cutLog(file, 1);
    const listed = async (id: string) => (await testing.store.listRuns()).find((r) => r.runId === id);

    // Just written and no marker: maybe a terminal still writes it, so it stays 'started' with its Cancel.
    assert.deepEqual(await listed(runId).then((r) => [r?.status, r?.interrupted]), ['started', undefined]);
    const quiet = new Date(Date.now() - QUIET_MS - 60_000);
    utimesSync(file, quiet, quiet);
    assert.deepEqual(await listed(runId).then((r) => [r?.status, r?.interrupted]), ['started', true]);
    assert.equal((await testing.store.getRun(runId)).listing.interrupted, true);
    assert.equal((await listed(ran.runId))?.interrupted, undefined, 'the finished run it was copied from is not');

    const webview = recordingPanel(vscode.Uri.file('/ext'));
    const panel = new InspectorPanel(webview.panel, { extensionUri: webview.extensionUri, data: testing.store, controller: { cancel: () => false }, logger: silent, explanation: async () => null });
    const warnings: string[] = [];
    const restore = answerResumeWarnings(warnings, undefined);
    try {
      await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
      await webview.send(ListRuns.create(1, {}), 1);
      const fromPanel = (webview.posted.at(-1) as { result: RunListing[] }).result.find((r) => r.runId === runId);
      assert.equal(fromPanel?.interrupted, true, 'the panel lists it as interrupted');

      await webview.send(ResumeRun.create({ runId }));
      // The command runs on in the host; until the resume rewrites it the log ends with the half line the cut left.
      const last = await eventually('the resumed run\'s summary', () => {
        const tail = readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!;
        let line: { type?: string; status?: string; totals?: { cases: number } } | undefined;
        try { line = JSON.parse(tail) as typeof line; } catch { return undefined; }
        return line?.type === 'summary' ? line : undefined;
      }, 20_000, () => readFileSync(file, 'utf8').split('\n').map((l) => l.slice(0, 20)));
      assert.deepEqual([last.status, last.totals?.cases], ['success', 3]);
    } finally {
      restore();
      panel.dispose();
    }
    assert.deepEqual(warnings, [], 'an interrupted run is resumed without the "may still be running" question');
    assert.deepEqual(runLines(file), ['header', 'resume', 'summary']);
    const after = await listed(runId);
    assert.deepEqual([after?.status, after?.interrupted], ['success', undefined]);
  });
});
