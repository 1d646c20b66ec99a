// Runs through the RunController with a scripted engine: events, the status bar, Cancel Run, closing the window mid-run, and the commands that wait for the engine.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { RunDetached, isDetached } from '../../../src/core/detach.js';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import type { EvalSpec } from '../../../src/core/spec/types.js';
import { runEvaluation, settingsOverrides } from '../../../src/extension/commands.js';
import { RunLauncher } from '../../../src/extension/launch.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { EngineRunController, RunInProgressError } from '../../../src/extension/runController.js';
import type { EngineRun } from '../../../src/extension/runController.js';
import { SessionRuns } from '../../../src/extension/sessionRuns.js';
import { RunStatusBar } from '../../../src/extension/statusBar.js';
import { activatedExtension } from './extensionHost.js';
import { aResult, aSpec, anEvalCase, runCommandDeps, scriptedEngine } from './builders.js';
import { eventually } from './eventually.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };
const noCredentials = { apiKey: async () => undefined };

function threeCases() {
  return [0, 1, 2].map((i) => ({
    evalCase: anEvalCase({ id: `rgb-noise/${i}/noise=0.5` }),
    result: aResult({ caseId: `rgb-noise/${i}/noise=0.5`, pass: i !== 1, scores: [{ metric: 'accuracy', value: i === 1 ? 0 : 1, pass: i !== 1 }] }),
  }));
}

suite('runs', () => {
  test('a run reports progress to the status bar and the session store, then its pass rate', async () => {
    const script = scriptedEngine('run-a', threeCases());
    const contexts: boolean[] = [];
    const controller = new EngineRunController(script.engine, noCredentials, (running) => contexts.push(running));
    const sessions = new SessionRuns();
    const statusBar = new RunStatusBar();
    controller.onEvent((event) => { sessions.record(event, controller.active?.specFile); statusBar.onRunEvent(event); });
    try {
      const finished = controller.start(aSpec('/ws/smoke.eval.yaml'));
      await script.step();
      assert.equal(statusBar.current?.text, '$(sync~spin) RAG 1/3');
      assert.deepEqual(controller.active, { specFile: '/ws/smoke.eval.yaml', runId: 'run-a', done: 1, total: 3 });
      await script.step();
      await script.step();
      const summary = await finished;
      assert.equal(summary.status, 'success');
      assert.equal(statusBar.current?.text, '$(warning) RAG 67%');
      assert.match(statusBar.current?.tooltip ?? '', /2 passed, 1 failed/);
      assert.equal(controller.active, undefined);
      assert.deepEqual(contexts, [true, false]);
      const [listing] = await sessions.listRuns();
      assert.equal(listing?.name, 'smoke');
      assert.equal(listing?.status, 'success');
      assert.equal((await sessions.getRun('run-a')).cases.length, 3);
    } finally {
      statusBar.dispose();
      controller.dispose();
    }
  });

  test('cancel aborts the engine\'s signal; the run ends "cancelled" with what finished', async () => {
    const script = scriptedEngine('run-b', threeCases());
    const controller = new EngineRunController(script.engine, noCredentials, () => undefined);
    const statusBar = new RunStatusBar();
    controller.onEvent((event) => statusBar.onRunEvent(event));
    try {
      assert.equal(controller.cancel(), false, 'nothing to cancel yet');
      const finished = controller.start(aSpec('/ws/smoke.eval.yaml'));
      await script.step();
      await assert.rejects(controller.start(aSpec('/ws/other.eval.yaml')), RunInProgressError);
      assert.equal(controller.cancel(), true);
      assert.equal(script.calls[0]!.signal.aborted, true);
      const summary = await finished;
      assert.equal(summary.status, 'cancelled');
      assert.equal(summary.totals.cases, 1);
      assert.match(statusBar.current?.text ?? '', /cancelled/);
      assert.equal(controller.cancel(), false);
    } finally {
      statusBar.dispose();
      controller.dispose();
    }
  });

  test('closing the window detaches the run instead of cancelling it: the signal fires with a RunDetached, the launch ends quietly with the run left interrupted', async () => {
    // The real engine's part (no summary, batches left running, the reason thrown) is in test/unit/engine/batchRun.test.ts.
    const signals: AbortSignal[] = [];
    const engine: EngineRun = async (_spec, options) => {
      signals.push(options.signal);
      options.onEvent?.({ type: 'run-started', runId: 'run-detached', logFile: '/ws/.rag-inspector/runs/run-detached.jsonl', total: 3, models: ['extractive:baseline'], suites: ['rgb-noise'], resumed: 0 });
      await new Promise<void>((resolve) => options.signal.addEventListener('abort', () => resolve(), { once: true }));
      if (isDetached(options.signal)) throw options.signal.reason;
      throw new Error('cancelled, not detached');
    };
    const controller = new EngineRunController(engine, noCredentials, () => undefined);
    const logged: { level: string; message: string }[] = [];
    const record = (level: string) => (message: unknown) => logged.push({ level, message: String(message) });
    const logger: Logger = { trace() {}, debug() {}, info: record('info'), warn: record('warn'), error: record('error'), show() {} };
    const launcher = new RunLauncher(controller, logger, settingsOverrides);
    const evalFile = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'smoke.eval.yaml').fsPath;
    const outcome = launcher.launch({ specFile: evalFile, title: 'Run Evaluation' });
    await eventually('the engine to start', () => signals.length === 1);
    controller.dispose();
    assert.equal(await outcome, 'cancelled');
    assert.ok(signals[0]!.reason instanceof RunDetached, `the signal's reason is a RunDetached, not a cancel: ${String(signals[0]!.reason)}`);
    assert.deepEqual(logged.filter((l) => l.level === 'error'), [], 'no error reported');
    assert.ok(logged.some((l) => l.level === 'info' && /left interrupted .*Resume Interrupted Run/.test(l.message)), logged.map((l) => l.message).join('\n'));
  });

  test('Run Evaluation starts the eval file it is given and returns the run summary', async () => {
    const script = scriptedEngine('run-c', threeCases().slice(0, 1));
    const controller = new EngineRunController(script.engine, noCredentials, () => undefined);
    try {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      assert.ok(folder, 'the test workspace is not open');
      const evalFile = vscode.Uri.joinPath(folder, 'smoke.eval.yaml');
      const outcome = runEvaluation(runCommandDeps(controller, silent), evalFile);
      await script.step();
      assert.deepEqual(await outcome, { runId: 'run-c', status: 'success', totals: (await outcome as { totals: unknown }).totals });
      assert.equal(script.calls[0]!.specFile, evalFile.fsPath);
    } finally {
      controller.dispose();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
  });

  test('a launch reads the eval file once: the spec the cost check priced is the one the engine runs', async () => {
    const script = scriptedEngine('run-d', threeCases().slice(0, 1));
    const controller = new EngineRunController(script.engine, noCredentials, () => undefined);
    const loads: EvalSpec[] = [];
    const countingLoad = async (file: string) => {
      const spec = await loadEvalSpec(file);
      loads.push(spec);
      return spec;
    };
    const launcher = new RunLauncher(controller, silent, settingsOverrides, countingLoad);
    try {
      const evalFile = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'smoke.eval.yaml').fsPath;
      const outcome = launcher.launch({ specFile: evalFile, title: 'Run Evaluation' });
      await script.step();
      assert.equal(typeof (await outcome), 'object', `the launch ended ${String(await outcome)}`);
      assert.equal(loads.length, 1, 'one read of the eval file for settings, cost check and run');
      assert.equal(script.calls.length, 1);
      assert.deepEqual(script.calls[0]!.spec, loads[0], 'the engine got the spec that was read, not the file to read again');
    } finally {
      controller.dispose();
    }
  });

  test('Run Evaluation runs the workspace eval file with the real engine, offline, and logs every case', async () => {
    const { testing } = await activatedExtension();
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const summary = await vscode.commands.executeCommand<{ runId: string; status: string; totals: { cases: number; passed: number; failed: number } }>(
      'ragInspector.runEvaluation', vscode.Uri.joinPath(folder, 'smoke.eval.yaml'));
    assert.equal(typeof summary, 'object', `Run Evaluation returned ${String(summary)}`);
    assert.equal(summary.status, 'success');
    // 3 rows × 5 noise ratios on the extractive baseline.
    assert.equal(summary.totals.cases, 15);
    assert.equal(summary.totals.passed + summary.totals.failed, 15);
    const log = vscode.Uri.joinPath(folder, '.rag-inspector', 'runs', `${summary.runId}.jsonl`);
    const types = new TextDecoder().decode(await vscode.workspace.fs.readFile(log)).trim().split('\n').map((l) => (JSON.parse(l) as { type: string }).type);
    // Long texts (documents, prompts) are stored once, as text lines before the first case that uses them.
    // Text and shared lines (each long text and repeated value written once) sit between them.
    assert.deepEqual(types.filter((t) => t !== 'text' && t !== 'shared'), ['header', ...Array<string>(15).fill('case'), 'summary'], 'header, one line per case, summary');
    const run = await testing.sessions.getRun(summary.runId);
    assert.equal(run.cases.length, 15);
    assert.equal(run.listing.name, 'smoke');
    assert.match(testing.statusBar.current?.text ?? '', /RAG \d+%/);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('ragInspector.openaiBaseUrl fills in the endpoint of OpenAI-family models that name none', async () => {
    const folder = vscode.workspace.workspaceFolders![0]!.uri;
    const file = vscode.Uri.joinPath(folder, 'openai.eval.yaml');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode([
      'version: 1', 'name: endpoints',
      'models: [ "openai:gpt-4o-mini", { provider: openai, model: gpt-4o, baseUrl: "https://own.example/v1" }, "extractive:bm25" ]',
      'suites:', '  - { id: noise-en, method: rgb, dataset: questions.jsonl, params: { testbed: noise_robustness, language: en } }', '',
    ].join('\n')));
    const spec = await loadEvalSpec(file.fsPath);
    const config = vscode.workspace.getConfiguration('ragInspector');
    await config.update('openaiBaseUrl', 'http://127.0.0.1:9/v1', vscode.ConfigurationTarget.Global);
    await config.update('concurrency', 2, vscode.ConfigurationTarget.Global);
    try {
      const overrides = settingsOverrides(spec);
      assert.equal(overrides?.concurrency, 2);
      assert.deepEqual(overrides?.models?.map((m) => `${m.provider}:${m.model}@${m.baseUrl ?? ''}`), [
        'openai:gpt-4o-mini@http://127.0.0.1:9/v1', 'openai:gpt-4o@https://own.example/v1', 'extractive:bm25@',
      ]);
    } finally {
      await config.update('openaiBaseUrl', undefined, vscode.ConfigurationTarget.Global);
      await config.update('concurrency', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(file);
    }
    assert.deepEqual(settingsOverrides(spec), { concurrency: undefined }, 'no settings: the eval file decides');
  });

  test('Cancel Run with nothing running says so', async () => {
    await activatedExtension();
    assert.equal(await vscode.commands.executeCommand('ragInspector.cancelRun'), 'nothing-to-cancel');
  });
});
