// Human verdicts through the extension host: the inspector's keys (y / x / c) arrive as SetVerdicts requests; the
// host appends them to the workspace's .rag-inspector/verdicts.jsonl and answers with the run's verdicts and the
// judge's agreement with them. A panel opened later (a reload) reads the same verdicts back from the file.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import type { VerdictChange, VerdictsView } from '../../../src/core/verdicts/view.js';
import { InspectorPanel } from '../../../src/extension/panel.js';
import type { Logger } from '../../../src/extension/outputChannel.js';
import { GetVerdicts, PROTOCOL_VERSION, Ready, SetVerdicts } from '../../../src/protocol.js';
import { recordingPanel } from './builders.js';
import { activatedExtension } from './extensionHost.js';
import { fixtureEval } from './fixtureEval.js';
import type { FixtureEval } from './fixtureEval.js';

const silent: Logger = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, show() {} };

suite('human verdicts (host)', () => {
  let fixture: FixtureEval;
  let runId: string;
  let keys: string[];
  const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
  const verdictFile = () => path.join(folder(), '.rag-inspector', 'verdicts.jsonl');

  suiteSetup(async () => {
    const { testing } = await activatedExtension();
    fixture = await fixtureEval('verdicts');
    const run = await testing.controller.start(await loadEvalSpec(fixture.uri.fsPath), { workspaceDir: folder(), noCache: true });
    runId = run.runId;
    // The cases that have a response (the third row's call ended in a 400: nothing to judge).
    keys = (await testing.store.getRun(runId)).cases.filter((c) => c.status !== 'error').map((c) => c.key);
    assert.equal(keys.length, 2);
  });
  suiteTeardown(async () => {
    await fixture?.dispose();
  });

  /** A panel on a recording webview, ready, over the extension's own run store: what the inspector talks to. */
  async function openPanel() {
    const { testing } = await activatedExtension();
    const webview = recordingPanel(vscode.Uri.file('/ext'));
    const inspector = new InspectorPanel(webview.panel, { extensionUri: webview.extensionUri, data: testing.store, controller: { cancel: () => false }, logger: silent, explanation: async () => null });
    await webview.send(Ready.create({ protocolVersion: PROTOCOL_VERSION }));
    let id = 100;
    const ask = async <P>(request: { create(id: number, params: P): unknown }, params: P): Promise<VerdictsView> => {
      id += 1;
      await webview.send(request.create(id, params), 1);
      const answer = webview.posted.at(-1) as { id: number; result?: VerdictsView; error?: { message: string } };
      assert.equal(answer.id, id);
      assert.ok(answer.result, `the host answered with an error: ${answer.error?.message}`);
      return answer.result;
    };
    return { inspector, ask };
  }

  test('marking a case wrong and one correct is stored in verdicts.jsonl and answered with the agreement', async () => {
    const { inspector, ask } = await openPanel();
    try {
      const [right, wrong] = keys as [string, string];
      let view = await ask(SetVerdicts, { runId, change: { keys: [wrong], label: 'wrong', note: 'names the wrong planet' } });
      view = await ask(SetVerdicts, { runId, change: { keys: [right], label: 'correct' } });
      assert.deepEqual(view.cases[wrong], { label: 'wrong', note: 'names the wrong planet', stale: false });
      assert.equal(view.cases[right]?.label, 'correct');
      assert.ok(existsSync(verdictFile()), 'no verdicts.jsonl in the workspace');
      const lines = readFileSync(verdictFile(), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { label?: string; note?: string });
      assert.ok(lines.some((l) => l.label === 'wrong' && l.note === 'names the wrong planet'), 'the wrong verdict is in the file');
      // Two marked cases with the scorer's verdicts beside them: the judge-vs-person table has its row.
      assert.ok(view.agreement.length > 0, 'no agreement computed');
    } finally {
      inspector.dispose();
    }
  });

  test('a panel opened later reads the verdicts back from the file; a bad change is answered with an error, nothing written', async () => {
    const { inspector, ask } = await openPanel();
    try {
      const before = readFileSync(verdictFile(), 'utf8');
      const view = await ask(GetVerdicts, { runId });
      assert.equal(view.cases[keys[1]!]?.label, 'wrong');
      assert.equal(view.cases[keys[0]!]?.label, 'correct');
      // Sent as a webview of another build might: the host checks the change's shape and names the wrong field.
      const maybe = { keys: [keys[0]!], label: 'maybe' } as unknown as VerdictChange;
      await assert.rejects(ask(SetVerdicts, { runId, change: maybe }), /"change\.label" must be one of "correct", "wrong", null/);
      assert.equal(readFileSync(verdictFile(), 'utf8'), before, 'a refused change wrote to the file');
    } finally {
      inspector.dispose();
    }
  });
});
