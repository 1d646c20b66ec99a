// The inspector panel host: strict CSP with a fresh nonce, local roots, the ready handshake, request routing and errors.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { RunEvent } from '../../../src/core/engine/events.js';
import { BatchProgress, GetCase, GetRun, ListRuns, PROTOCOL_VERSION, Ready, Reveal, RunStarted } from '../../../src/protocol.js';
import { InspectorPanel, INSPECTOR_VIEW_TYPE } from '../../../src/extension/panel.js';
import type { InspectorDeps } from '../../../src/extension/panel.js';
import { SessionRuns } from '../../../src/extension/sessionRuns.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { activatedExtension } from './extensionHost.js';
import { aResult, anEvalCase, recordingPanel } from './builders.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };

function cspOf(html: string): string {
  const match = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html);
  assert.ok(match, 'no CSP meta tag');
  return match[1]!;
}

suite('inspector panel', () => {
  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Open Inspector opens one webview panel with a strict CSP, a fresh nonce and local roots limited to dist/ and media/', async () => {
    const { extension, testing } = await activatedExtension();
    await vscode.commands.executeCommand('ragInspector.openInspector');
    const inspector = testing.panels.panel;
    assert.ok(inspector, 'no panel after Open Inspector');
    assert.equal(inspector.panel.viewType, INSPECTOR_VIEW_TYPE);
    await vscode.commands.executeCommand('ragInspector.openInspector');
    assert.equal(testing.panels.panel, inspector, 'a second Open Inspector must reveal the same panel');

    const html = inspector.panel.webview.html;
    const csp = cspOf(html);
    assert.match(csp, /^default-src 'none'; /);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*;/);
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    assert.ok(nonce && Buffer.from(nonce, 'base64').length === 16, `script-src must be a 16-byte base64 nonce: ${csp}`);
    const scripts = [...html.matchAll(/<script\b([^>]*)>/g)];
    assert.ok(scripts.length > 0);
    for (const [, attributes] of scripts) assert.ok(attributes!.includes(`nonce="${nonce}"`), `script without the nonce: ${attributes}`);
    for (const directive of ['style-src', 'font-src']) {
      const sources = new RegExp(`${directive} ([^;]+)`).exec(csp)?.[1]?.split(' ') ?? [];
      assert.ok(sources.length > 0 && sources.every((s) => /\/dist\/$|\/media\/$/.test(s)), `${directive} must name only dist/ and media/: ${sources.join(' ')}`);
    }
    const roots = (inspector.panel.webview.options.localResourceRoots ?? []).map((u) => path.relative(extension.extensionPath, u.fsPath)).sort();
    assert.deepEqual(roots, ['dist', 'media']);

    inspector.render();
    assert.notEqual(/nonce-([^']+)'/.exec(cspOf(inspector.panel.webview.html))?.[1], nonce, 'each render needs a new nonce');
  });

  test('the page loads dist/webview.js under a nonce', async () => {
    const { testing } = await activatedExtension();
    await vscode.commands.executeCommand('ragInspector.openInspector');
    const html = testing.panels.panel!.panel.webview.html;
    assert.match(html, /<script type="module" nonce="[^"]+" src="[^"]+\/dist\/webview\.js"><\/script>/);
  });

  test('the serializer brings a panel back with the inspector page and options', async () => {
    const { testing } = await activatedExtension();
    const panel = vscode.window.createWebviewPanel(INSPECTOR_VIEW_TYPE, 'restored', vscode.ViewColumn.One, {});
    testing.panels.revive(panel);
    assert.equal(testing.panels.panel?.panel, panel);
    assert.equal(panel.webview.options.enableScripts, true);
    assert.match(panel.webview.html, /default-src 'none'/);
  });
});

suite('inspector protocol (host side)', () => {
  function setUp() {
    const sessions = new SessionRuns();
    const extensionUri = vscode.Uri.file('/ext');
    const webview = recordingPanel(extensionUri);
    const cancelled: number[] = [];
    const deps: InspectorDeps = { extensionUri, data: sessions, controller: { cancel: () => { cancelled.push(1); return true; } }, logger: silent, explanation: async () => null };
    const inspector = new InspectorPanel(webview.panel, deps);
    return { sessions, webview, inspector, cancelled };
  }

  test('notifications wait for the ready handshake, then arrive in order; later ones go straight out', async () => {
    const { webview, inspector } = setUp();
    inspector.notify(Reveal, { runId: 'r1' });
    inspector.notify(Reveal, { runId: 'r2' });
    assert.deepEqual(webview.posted, [], 'nothing may be posted before the webview is ready');
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }), 2);
    assert.deepEqual(webview.posted, [Reveal.create({ runId: 'r1' }), Reveal.create({ runId: 'r2' })]);
    inspector.notify(Reveal, { runId: 'r3' });
    assert.deepEqual(webview.posted[2], Reveal.create({ runId: 'r3' }));
    inspector.dispose();
  });

  test('a hidden panel reloads: it must say ready again, and only a pending Reveal survives (the rest is refetched)', async () => {
    const { webview, inspector, sessions } = setUp();
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
    webview.setVisible(false);
    const event: RunEvent = { type: 'run-started', runId: 'run-3', logFile: '/ws/.rag-inspector/runs/run-3.jsonl', total: 1, models: ['extractive:baseline'], suites: ['rgb-noise'], resumed: 0 };
    sessions.record(event, '/ws/smoke.eval.yaml');
    inspector.onRunEvent(event, 'run-3', sessions);
    inspector.notify(Reveal, { runId: 'run-3' });
    assert.deepEqual(webview.posted, [], 'nothing goes to a page that is gone');
    webview.setVisible(true);
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }), 1);
    assert.deepEqual(webview.posted, [Reveal.create({ runId: 'run-3' })]);
    inspector.dispose();
  });

  test('a webview speaking another protocol version gets nothing', async () => {
    const { webview, inspector } = setUp();
    inspector.notify(Reveal, { runId: 'r1' });
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION + 1 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(webview.posted, []);
    inspector.dispose();
  });

  test('requests are answered by id; unknown runs and bad params come back as {code, message}', async () => {
    const { webview, inspector, sessions } = setUp();
    sessions.record({ type: 'run-started', runId: 'run-1', logFile: '/ws/.rag-inspector/runs/run-1.jsonl', total: 1, models: ['extractive:baseline'], suites: ['rgb-noise'], resumed: 0 }, '/ws/smoke.eval.yaml');
    sessions.record({ type: 'case-finished', evalCase: anEvalCase(), result: aResult(), done: 1, total: 1 });

    await webview.send(ListRuns.create(7, {}), 1);
    const listed = webview.posted.at(-1) as { id: number; result: { runId: string; name: string }[] };
    assert.equal(listed.id, 7);
    assert.deepEqual(listed.result.map((r) => [r.runId, r.name]), [['run-1', 'smoke']]);

    await webview.send(GetRun.create(8, { runId: 'run-1' }), 1);
    const run = webview.posted.at(-1) as { id: number; result: { cases: { key: string; pass: boolean }[] } };
    assert.equal(run.id, 8);
    assert.deepEqual(run.result.cases.map((c) => [c.key, c.pass]), [['rgb-noise/0/noise=0.5\u0000extractive:baseline', true]]);

    await webview.send(GetCase.create(9, { runId: 'run-1', key: 'rgb-noise/0/noise=0.5\u0000extractive:baseline' }), 1);
    assert.equal((webview.posted.at(-1) as { result: { evalCase: { question: string } } }).result.evalCase.question, anEvalCase().question);

    await webview.send(GetRun.create(10, { runId: 'nope' }), 1);
    assert.deepEqual(webview.posted.at(-1), GetRun.fail(10, { code: 'not-found', message: 'no run nope in this window' }));

    await webview.send(GetRun.create(11, {} as { runId: string }), 1);
    assert.deepEqual((webview.posted.at(-1) as { error: unknown }).error, { code: 'bad-request', message: '"runId" must be a non-empty string' });

    await webview.send({ kind: 'request', method: 'runs/delete', id: 12, params: {} }, 1);
    assert.deepEqual((webview.posted.at(-1) as { id: number; error: { code: string } }).error.code, 'bad-request');
    inspector.dispose();
  });

  test('run events become notifications once the webview is ready; Cancel from the webview reaches the controller', async () => {
    const { webview, inspector, sessions, cancelled } = setUp();
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
    const event: RunEvent = { type: 'run-started', runId: 'run-2', logFile: '/ws/.rag-inspector/runs/run-2.jsonl', total: 3, models: ['extractive:baseline'], suites: ['rgb-noise'], resumed: 0 };
    sessions.record(event, '/ws/smoke.eval.yaml');
    inspector.onRunEvent(event, 'run-2', sessions);
    const started = webview.posted.at(-1);
    assert.ok(RunStarted.is(started), `expected run/started, got ${JSON.stringify(started)}`);
    assert.equal(started.params.total, 3);
    await webview.send({ kind: 'command', method: 'run/cancel', params: { runId: 'run-2' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(cancelled, [1]);
    inspector.dispose();
  });
  test('batch mode: each batch event becomes a BatchProgress with the run\'s batches summed; a new run starts from none', async () => {
    const { webview, inspector, sessions } = setUp();
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
    const started: RunEvent = { type: 'run-started', runId: 'run-b', logFile: '/ws/.rag-inspector/runs/run-b.jsonl', total: 6, models: ['openai:gpt-4o-mini'], suites: ['rgb-noise'], resumed: 0 };
    sessions.record(started, '/ws/smoke.eval.yaml');
    inspector.onRunEvent(started, 'run-b', sessions);
    const batch = (batchId: string, state: 'submitted' | 'pending' | 'completed', done: number): RunEvent => ({ type: 'batch', modelKey: 'openai:gpt-4o-mini', batchId, state, done, total: 3 });
    const progress = () => {
      const last = webview.posted.at(-1);
      assert.ok(BatchProgress.is(last), `expected run/batchProgress, got ${JSON.stringify(last)}`);
      return last.params;
    };
    inspector.onRunEvent(batch('b1', 'submitted', 0), 'run-b', sessions);
    inspector.onRunEvent(batch('b2', 'pending', 2), 'run-b', sessions);
    assert.deepEqual(progress(), { runId: 'run-b', open: 2, batches: 2, done: 2, total: 6 });
    inspector.onRunEvent(batch('b1', 'completed', 3), 'run-b', sessions);
    assert.deepEqual(progress(), { runId: 'run-b', open: 1, batches: 2, done: 5, total: 6 });
    inspector.onRunEvent({ ...started, runId: 'run-c' }, 'run-c', sessions);
    inspector.onRunEvent(batch('c1', 'submitted', 0), 'run-c', sessions);
    assert.deepEqual(progress(), { runId: 'run-c', open: 1, batches: 1, done: 0, total: 3 });
    inspector.dispose();
  });
});
