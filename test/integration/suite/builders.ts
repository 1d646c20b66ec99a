// Test-data builders for the integration suite: cases, results, engine events, a fake engine and a recording webview panel.
import * as vscode from 'vscode';
import type { RunEvent } from '../../../src/core/engine/events.js';
import type { CaseResult, EvalCase, RunTotals } from '../../../src/core/model.js';
import type { EvalSpec } from '../../../src/core/spec/types.js';
import type { RunCommandDeps } from '../../../src/extension/commands.js';
import { EvalFiles } from '../../../src/extension/evalFiles.js';
import { RunLauncher } from '../../../src/extension/launch.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { ResultsIndex } from '../../../src/extension/resultsIndex.js';
import type { EngineRun, RunController, RunSummary } from '../../../src/extension/runController.js';
import { RunStore } from '../../../src/extension/runStore.js';
import { SessionRuns } from '../../../src/extension/sessionRuns.js';

export function anEvalCase(overrides: Partial<EvalCase> = {}): EvalCase {
  return {
    id: 'rgb-noise/0/noise=0.5',
    suiteId: 'rgb-noise',
    method: 'rgb',
    testbed: 'noise_robustness',
    row: { file: '/ws/questions.jsonl', line: 1, index: 0 },
    question: 'Who won the 2022 Nobel Prize in Literature?',
    documents: [
      { id: 'd0', role: 'positive', text: 'The 2022 Nobel Prize in Literature was awarded to Annie Ernaux.', spans: [] },
      { id: 'd1', role: 'negative', text: 'The 2021 prize went to Abdulrazak Gurnah.', spans: [] },
    ],
    expected: ['Annie Ernaux'],
    params: { noiseRate: 0.5 },
    variables: {},
    messages: [{ role: 'user', content: 'Who won?' }],
    ...overrides,
  };
}

export function aResult(overrides: Partial<CaseResult> = {}): CaseResult {
  return {
    caseId: 'rgb-noise/0/noise=0.5',
    modelKey: 'extractive:baseline',
    status: 'success',
    response: { text: 'Annie Ernaux', usage: { inputTokens: 50, outputTokens: 3 }, latencyMs: 4, cached: false },
    scores: [{ metric: 'accuracy', value: 1, pass: true, label: 'correct' }],
    pass: true,
    attempts: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:00:01.000Z',
    ...overrides,
  };
}

/** An eval file as the launcher hands it to the controller, for runs of a scripted engine (which reads nothing of it). */
export function aSpec(file: string, overrides: Partial<EvalSpec> = {}): EvalSpec {
  return {
    version: 1, file, hash: 'fixture-hash', name: 'smoke', models: [{ provider: 'extractive', model: 'baseline', parameters: {} }], suites: [],
    concurrency: 1, rateLimit: {}, timeoutMs: 1_000, maxRetries: 0, seed: 1, prices: {}, ...overrides,
  };
}

export function totals(overrides: Partial<RunTotals> = {}): RunTotals {
  return {
    cases: 0, success: 0, error: 0, passed: 0, failed: 0, modelCalls: 0, cacheHits: 0, judgeCalls: 0,
    inputTokens: 0, outputTokens: 0, ...overrides,
  };
}

/**
 * An engine that emits the given case results one by one, then finishes; between cases it waits for `step()`,
 * so a test can look at the state mid-run, and it stops (status "cancelled") when its signal aborts.
 */
export function scriptedEngine(runId: string, results: { evalCase: EvalCase; result: CaseResult }[]) {
  const gates: (() => void)[] = [];
  let waiting: (() => void) | undefined;
  const calls: { spec: EvalSpec; specFile: string; signal: AbortSignal }[] = [];
  const engine: EngineRun = async (spec, options) => {
    calls.push({ spec, specFile: spec.file, signal: options.signal });
    const emit = (event: RunEvent) => options.onEvent?.(event);
    emit({ type: 'run-started', runId, logFile: `/ws/.rag-inspector/runs/${runId}.jsonl`, total: results.length, models: ['extractive:baseline'], suites: ['rgb-noise'], resumed: 0 });
    const done: CaseResult[] = [];
    for (const { evalCase, result } of results) {
      await new Promise<void>((resolve) => {
        gates.push(resolve);
        options.signal.addEventListener('abort', () => resolve(), { once: true });
        waiting?.();
      });
      if (options.signal.aborted) break;
      done.push(result);
      emit({ type: 'case-finished', evalCase, result, done: done.length, total: results.length });
    }
    const status = options.signal.aborted ? 'cancelled' : 'success';
    const runTotals = totals({
      cases: done.length,
      success: done.filter((r) => r.status === 'success').length,
      error: done.filter((r) => r.status === 'error').length,
      passed: done.filter((r) => r.pass === true).length,
      failed: done.filter((r) => r.pass === false).length,
    });
    emit({ type: 'run-finished', runId, logFile: `/ws/.rag-inspector/runs/${runId}.jsonl`, status, totals: runTotals, reports: [], thresholds: [] });
    return { runId, status, totals: runTotals } satisfies RunSummary;
  };
  return {
    engine,
    calls,
    /** Lets the next case finish, once the engine is waiting for it. */
    async step(): Promise<void> {
      while (gates.length === 0) await new Promise<void>((resolve) => { waiting = resolve; });
      waiting = undefined;
      gates.shift()!();
      // Let the engine emit before the test looks.
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A WebviewPanel that records what the host posts and lets a test play the webview's side. */
export function recordingPanel(extensionUri: vscode.Uri) {
  const posted: unknown[] = [];
  const receive = new vscode.EventEmitter<unknown>();
  const disposed = new vscode.EventEmitter<void>();
  const viewState = new vscode.EventEmitter<vscode.WebviewPanelOnDidChangeViewStateEvent>();
  let settled: (() => void)[] = [];
  const webview = {
    html: '',
    options: {} as vscode.WebviewOptions,
    cspSource: 'https://*.vscode-cdn.net',
    asWebviewUri: (uri: vscode.Uri) => vscode.Uri.parse(`https://file%2B.vscode-resource.vscode-cdn.net${uri.path}`),
    onDidReceiveMessage: receive.event,
    postMessage: async (message: unknown) => {
      posted.push(message);
      for (const resolve of settled.splice(0)) resolve();
      return true;
    },
  };
  const panel = {
    viewType: 'ragInspector.inspector', title: 'RAG Inspector', webview, visible: true, active: true,
    options: {}, viewColumn: vscode.ViewColumn.One,
    onDidDispose: disposed.event, onDidChangeViewState: viewState.event,
    reveal: () => undefined,
    dispose: () => disposed.fire(),
  };
  return {
    panel: panel as unknown as vscode.WebviewPanel,
    extensionUri,
    posted,
    /** Hides or shows the panel, as switching editor tabs does. */
    setVisible(visible: boolean): void {
      panel.visible = visible;
      viewState.fire({ webviewPanel: panel as unknown as vscode.WebviewPanel });
    },
    /** Plays a message from the webview and waits until the host has posted `count` more messages. */
    async send(message: unknown, count = 0): Promise<void> {
      const target = posted.length + count;
      receive.fire(message);
      while (posted.length < target) await new Promise<void>((resolve) => { settled.push(resolve); });
      settled = [];
    },
  };
}

/** The run commands' services around a given controller, reading no runs from disk and finding no eval files. */
export function runCommandDeps(controller: RunController, logger: Logger): RunCommandDeps {
  const store = new RunStore(new SessionRuns(), async () => []);
  return {
    controller,
    logger,
    launcher: new RunLauncher(controller, logger, () => undefined),
    store,
    index: new ResultsIndex(store),
    evalFiles: new EvalFiles(async () => []),
  };
}
