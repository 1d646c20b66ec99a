// A 100,000-case run log opened the way the inspector opens it (list, first/middle/last case), its failures as diagnostics on their dataset rows, and a live run whose older cases come back from its log.
import * as assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { CaseResult, EvalCase } from '../../../src/core/model.js';
import { RunLogWriter } from '../../../src/core/run/runLog.js';
import { InspectorPanel } from '../../../src/extension/panel.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { SessionRuns } from '../../../src/extension/sessionRuns.js';
import { GetCase, GetRun, PROTOCOL_VERSION, Ready } from '../../../src/protocol.js';
import type { CaseDetail, RunDetail } from '../../../src/protocol.js';
import { aResult, anEvalCase, recordingPanel, totals } from './builders.js';
import { activatedExtension, note } from './extensionHost.js';
import { eventually } from './eventually.js';
import { caseKey } from '../../../src/core/model.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };
const CASES = 100_000;
/** Cases per dataset row (an RGB row expands into one case per noise ratio; here many, to keep the dataset small). */
const PER_ROW = 100;
const MODEL = 'extractive:bm25';

/** The i-th case: row i / PER_ROW of the dataset, one failure every 997 cases and a model error every 9,973. */
function nthCase(dataset: string, template: string, i: number): { evalCase: EvalCase; result: CaseResult } {
  const row = Math.floor(i / PER_ROW);
  const id = `large/${row}/v=${i % PER_ROW}`;
  const evalCase = anEvalCase({ id, suiteId: 'large', row: { file: dataset, line: row + 1, index: row }, question: `Question ${i}?`, template, params: { variant: i % PER_ROW } });
  if (i % 9_973 === 5) {
    return { evalCase, result: aResult({ caseId: id, modelKey: MODEL, status: 'error', response: undefined, scores: [], pass: undefined, error: { stage: 'model', kind: 'http', message: `fixture: HTTP 503 for case ${i}` } }) };
  }
  const pass = i % 997 !== 0;
  return {
    evalCase,
    result: aResult({
      caseId: id, modelKey: MODEL, pass,
      response: { text: `answer ${i}`, usage: { inputTokens: 50, outputTokens: 3 }, latencyMs: 4, cached: false },
      scores: [{ metric: 'accuracy', value: pass ? 1 : 0, pass, label: pass ? 'correct' : 'incorrect', ...(pass ? {} : { explanation: `case ${i}: no answer part found` }) }],
    }),
  };
}

const failing = (i: number) => i % 9_973 === 5 || i % 997 === 0;

suite('a 100,000-case run', function () {
  this.timeout(180_000);
  let folder: string;
  let dataset: string;
  let logFile: string;
  const runId = '2026-11-22T10-00-00Z-large1';

  suiteSetup(async () => {
    folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
    dataset = path.join(folder, 'large.jsonl');
    const template = path.join(folder, 'qa.prompt');
    const rows = CASES / PER_ROW;
    await writeFile(dataset, Array.from({ length: rows }, (_, r) => JSON.stringify({ id: r, query: `Question row ${r}?`, answer: ['x'], positive: ['x'], negative: [] })).join('\n') + '\n');
    const writer = await RunLogWriter.create(path.join(folder, '.rag-inspector', 'runs'), {
      runId,
      createdAt: '2026-11-22T10:00:00.000Z',
      tool: { name: 'rag-inspector', version: '0.1.0' },
      spec: { file: path.join(folder, 'large.eval.yaml'), hash: 'large-spec', name: 'large' },
      inputs: [{ kind: 'dataset', file: dataset, hash: 'large-data' }],
      models: [MODEL],
      seed: 1,
    });
    logFile = writer.file;
    let failed = 0;
    let errors = 0;
    for (let i = 0; i < CASES; i += 1) {
      const { evalCase, result } = nthCase(dataset, template, i);
      writer.appendCase({ case: evalCase, result });
      if (i % 9_973 === 5) errors += 1;
      else if (failing(i)) failed += 1;
    }
    writer.appendSummary({
      status: 'success', finishedAt: '2026-11-22T10:30:00.000Z', reports: [], thresholds: [], problems: [],
      totals: totals({ cases: CASES, success: CASES - errors, error: errors, passed: CASES - failed - errors, failed, modelCalls: CASES }),
    });
    writer.close();
  });

  suiteTeardown(async () => {
    // Later suites list every run on disk; this one should not weigh on them.
    await rm(logFile, { force: true });
    await rm(dataset, { force: true });
    const { testing } = await activatedExtension();
    testing.store.notifyChanged();
    await testing.index.refresh();
  });

  test('the inspector lists every case and opens the first, the middle and the last from the log', async () => {
    const { testing } = await activatedExtension();
    const webview = recordingPanel(vscode.Uri.file('/ext'));
    const panel = new InspectorPanel(webview.panel, { extensionUri: webview.extensionUri, data: testing.store, controller: { cancel: () => false }, logger: silent, explanation: async () => null });
    try {
      await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
      await webview.send(GetRun.create(1, { runId }), 1);
      const detail = (webview.posted.at(-1) as { result: RunDetail }).result;
      assert.equal(detail.cases.length, CASES);
      // Written as an older version did ("success" over errored cases); read as what it was.
      assert.equal(detail.listing.status, 'completed-with-errors');
      assert.equal(detail.listing.totals?.cases, CASES);
      assert.deepEqual(detail.problems, []);
      assert.equal(detail.cases[0]!.caseId, 'large/0/v=0');
      assert.equal(detail.cases[CASES - 1]!.caseId, `large/${CASES / PER_ROW - 1}/v=${PER_ROW - 1}`);
      assert.equal(detail.cases.filter((c) => c.pass === false).length, Array.from({ length: CASES }, (_, i) => i).filter((i) => failing(i) && i % 9_973 !== 5).length);

      let id = 2;
      for (const i of [0, CASES / 2, CASES - 1]) {
        const expected = nthCase(dataset, path.join(folder, 'qa.prompt'), i);
        await webview.send(GetCase.create(id, { runId, key: caseKey(expected.evalCase.id, MODEL) }), 1);
        const posted = webview.posted.at(-1) as { id: number; result?: CaseDetail; error?: unknown };
        assert.equal(posted.id, id);
        assert.ok(posted.result, `case ${i}: ${JSON.stringify(posted.error)}`);
        assert.deepEqual(posted.result.evalCase, expected.evalCase, `case ${i}`);
        assert.deepEqual(posted.result.result, expected.result, `case ${i}`);
        id += 1;
      }
      await webview.send(GetCase.create(id, { runId, key: caseKey('large/0/v=100', MODEL) }), 1);
      assert.match(JSON.stringify(webview.posted.at(-1)), /has no case large\/0\/v=100/);
    } finally {
      panel.dispose();
    }
  });

  test('its failures become diagnostics on their dataset rows, errors as errors', async () => {
    const { testing } = await activatedExtension();
    testing.store.notifyChanged([path.join(folder, 'large.eval.yaml')]);
    const uri = vscode.Uri.file(dataset);
    const expected = Array.from({ length: CASES }, (_, i) => i).filter(failing).map((i) => [Math.floor(i / PER_ROW), `large/${Math.floor(i / PER_ROW)}/v=${i % PER_ROW}`] as const);
    const diagnostics = await eventually('the diagnostics of large.jsonl', () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'RAG Inspector');
      return found.length >= expected.length ? found : undefined;
    }, 120_000);
    note(`${diagnostics.length} diagnostics on large.jsonl`);
    assert.deepEqual(diagnostics.map((d) => [d.range.start.line, d.code]).sort(), [...expected].map(([line, code]) => [line, code]).sort());
    const error = diagnostics.find((d) => d.code === 'large/0/v=5');
    assert.equal(error?.severity, vscode.DiagnosticSeverity.Error);
    assert.match(error?.message ?? '', /model error \(http\): fixture: HTTP 503 for case 5/);
    const warning = diagnostics.find((d) => d.code === 'large/9/v=97');
    assert.equal(warning?.severity, vscode.DiagnosticSeverity.Warning);
    assert.match(warning?.message ?? '', /accuracy \(incorrect\): case 997: no answer part found/);

    // The hover reads the response and explanation of the row's failure from the log.
    const document = await vscode.workspace.openTextDocument(uri);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', document.uri, new vscode.Position(9, 2));
    // Hover text escapes Markdown punctuation; compare with the escapes taken out.
    const text = hovers.flatMap((h) => h.contents).map((c) => (c instanceof vscode.MarkdownString ? c.value : String(c))).join('\n').replace(/\\(.)/g, '$1');
    assert.match(text, /answer 997/);
    assert.match(text, /case 997: no answer part found/);
  });

  test('a live run keeps its latest cases in memory and reads the earlier ones back from its log', async () => {
    const sessions = new SessionRuns();
    const liveId = '2026-11-22T11-00-00Z-live01';
    const writer = await RunLogWriter.create(path.join(folder, '.rag-inspector', 'live-test'), {
      runId: liveId, createdAt: '2026-11-22T11:00:00.000Z', tool: { name: 'rag-inspector', version: '0.1.0' },
      spec: { file: path.join(folder, 'large.eval.yaml'), hash: 'large-spec', name: 'large' }, inputs: [], models: [MODEL], seed: 1,
    });
    try {
      sessions.record({ type: 'run-started', runId: liveId, logFile: writer.file, total: 2_000, models: [MODEL], suites: ['large'], resumed: 0 });
      const template = path.join(folder, 'qa.prompt');
      for (let i = 0; i < 2_000; i += 1) {
        const { evalCase, result } = nthCase(dataset, template, i);
        // As the engine does: the case line is on disk before case-finished fires.
        writer.appendCase({ case: evalCase, result });
        sessions.record({ type: 'case-finished', evalCase, result, done: i + 1, total: 2_000 });
        if (i === 1_000) {
          // Mid-run, the first case (long out of memory) comes from the log as it stands.
          const first = await sessions.getCase(liveId, caseKey('large/0/v=0', MODEL));
          assert.deepEqual(first.result, nthCase(dataset, template, 0).result);
        }
      }
      const detail = await sessions.getRun(liveId);
      assert.equal(detail.cases.length, 2_000);
      for (const i of [0, 997, 1_500, 1_999]) {
        const expected = nthCase(dataset, template, i);
        const found = await sessions.getCase(liveId, caseKey(expected.evalCase.id, MODEL));
        assert.deepEqual(found, { runId: liveId, evalCase: expected.evalCase, result: expected.result }, `case ${i}`);
      }
      await assert.rejects(sessions.getCase(liveId, caseKey('large/99/v=0', MODEL)), /has no case/);
    } finally {
      writer.close();
      sessions.dispose();
      await rm(path.dirname(writer.file), { recursive: true, force: true });
    }
  });
});
