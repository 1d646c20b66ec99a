// Run Evaluation on a template with no eval file (the user's answers given programmatically) and the cost guard before a paid run.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { loadEvalSpec } from '../../../src/core/spec/load.js';
import { knownMethods } from '../../../src/core/suites/registry.js';
import { caseRequests, startFixtureServer } from '../../fixtures/llmServer.js';
import type { FixtureServer } from '../../fixtures/llmServer.js';
import { activatedExtension } from './extensionHost.js';
import { answerPrompts, asSummary, scriptedAnswers, workspaceFolder, writeFixtureEval } from './inlineFixtures.js';
import { eventually } from './eventually.js';

/**
 * Shows the template and waits until it is the active editor: a panel an earlier test revealed late (the inspector
 * opens without being awaited) would otherwise hold the focus, and Run Evaluation reads the active editor.
 */
async function focusTemplate(template: vscode.Uri): Promise<string | undefined> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.window.showTextDocument(template);
  return eventually('the template as the active editor', () => {
    const active = vscode.window.activeTextEditor?.document.uri.fsPath;
    return active === template.fsPath ? active : undefined;
  }, 10_000, () => vscode.window.activeTextEditor?.document.uri.fsPath);
}

suite('Run Evaluation without an eval file', () => {
  let restore: () => void = () => undefined;
  teardown(async () => {
    restore();
    restore = () => undefined;
    await vscode.workspace.getConfiguration('ragInspector').update('maxCostWithoutConfirm', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('on an open template it asks testbed, dataset and model, runs, and saves a valid eval file beside the template', async function () {
    this.timeout(40_000);
    await activatedExtension();
    const root = workspaceFolder();
    const dir = vscode.Uri.joinPath(root, 'quick-run');
    await vscode.workspace.fs.createDirectory(dir);
    const template = vscode.Uri.joinPath(dir, 'mine.prompt');
    const dataset = vscode.Uri.joinPath(dir, 'rows.jsonl');
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(root, 'qa.prompt'), template, { overwrite: true });
    await vscode.workspace.fs.copy(vscode.Uri.joinPath(root, 'questions.jsonl'), dataset, { overwrite: true });
    const asked: string[] = [];
    const offers: string[] = [];
    const showInformationMessage = vscode.window.showInformationMessage;
    restore = answerPrompts({
      showQuickPick: (async (items: readonly vscode.QuickPickItem[] | Thenable<readonly vscode.QuickPickItem[]>, options?: vscode.QuickPickOptions) => {
        const title = options?.title ?? '';
        asked.push(title.replace(/^RAG Inspector: Run Evaluation — /, ''));
        const list = await items;
        if (title.endsWith('method')) return list.find((i) => i.label === 'rgb');
        if (title.endsWith('testbed')) return list.find((i) => i.label === 'noise_robustness');
        if (title.endsWith('dataset')) return list.find((i) => i.description === 'quick-run/rows.jsonl');
        if (title.endsWith('model')) return list.find((i) => i.label === 'extractive:bm25');
        return undefined;
      }) as unknown as typeof vscode.window.showQuickPick,
      // The user clicks "Save as eval file" on the offer; every other message goes through unchanged.
      showInformationMessage: ((message: string, ...rest: unknown[]) => {
        if (message.startsWith('RAG Inspector: keep these choices')) {
          offers.push(message);
          return Promise.resolve('Save as eval file');
        }
        return (showInformationMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
      }) as typeof vscode.window.showInformationMessage,
    });

    const active = await focusTemplate(template);
    const summary = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation'));
    // The method is asked only when there is a choice.
    const { testing } = await activatedExtension();
    assert.deepEqual(asked, [...(knownMethods().length > 1 ? ['method'] : []), 'testbed', 'dataset', 'model'],
      `active editor at the command: ${active}; the run used ${await testing.store.specFileOf(summary.runId)}`);
    assert.equal(summary.status, 'success');
    assert.equal(summary.totals.cases, 15, '3 rows × the 5 default noise ratios');

    const saved = path.join(dir.fsPath, 'mine.eval.yaml');
    // Saving ends by opening the file: wait for that, or the template shown next could lose the focus to it.
    await eventually('the saved eval file open in an editor', () => (existsSync(saved) && vscode.window.activeTextEditor?.document.uri.fsPath === saved ? true : undefined),
      10_000, () => vscode.window.activeTextEditor?.document.uri.fsPath);
    assert.equal(offers.length, 1);
    const spec = await loadEvalSpec(saved);
    assert.deepEqual(spec.models.map((m) => `${m.provider}:${m.model}`), ['extractive:bm25']);
    assert.deepEqual(spec.suites.map((s) => [s.method, s.template, s.dataset, s.params]), [['rgb', template.fsPath, dataset.fsPath, { testbed: 'noise_robustness' }]]);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(saved))), /template: mine\.prompt\n\s+dataset: rows\.jsonl/, 'paths relative to the eval file');

    // The saved file is a normal eval file: Run Evaluation on the template now runs it, without asking anything.
    asked.length = 0;
    await focusTemplate(template);
    const again = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation'));
    assert.deepEqual(asked, [], `the second Run Evaluation asked again; eval files known: ${(await testing.evalFiles.files()).join(', ')}`);
    assert.equal(again.totals.cases, 15);
    assert.equal(await testing.store.specFileOf(again.runId), saved);
  });
});

suite('cost guard', () => {
  let server: FixtureServer;
  let restore: () => void = () => undefined;
  suiteSetup(async () => { server = await startFixtureServer({ rules: scriptedAnswers() }); });
  teardown(async () => {
    restore();
    restore = () => undefined;
    await vscode.workspace.getConfiguration('ragInspector').update('maxCostWithoutConfirm', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
  suiteTeardown(async () => { await server?.close(); });

  test('a run estimated above ragInspector.maxCostWithoutConfirm asks first; declining starts nothing, confirming runs', async () => {
    await activatedExtension();
    // $100 per million tokens: 6 calls of a few hundred tokens plus 256 output tokens each is well over 5 cents.
    const fixture = await writeFixtureEval({ name: 'costly', baseUrl: server.openaiBaseUrl, prices: { 'openai-compatible': { input: 100, output: 100 } } });
    await vscode.workspace.getConfiguration('ragInspector').update('maxCostWithoutConfirm', 0.05, vscode.ConfigurationTarget.Global);
    const questions: { message: string; modal: boolean; detail: string }[] = [];
    let answer: string | undefined;
    const showWarningMessage = vscode.window.showWarningMessage;
    restore = answerPrompts({
      showWarningMessage: ((message: string, ...rest: unknown[]) => {
        const options = rest[0] as vscode.MessageOptions | undefined;
        if (options?.modal) {
          questions.push({ message, modal: true, detail: options.detail ?? '' });
          return Promise.resolve(answer);
        }
        return (showWarningMessage as (...args: unknown[]) => Thenable<unknown>)(message, ...rest);
      }) as typeof vscode.window.showWarningMessage,
    });
    const runs = () => readdirSync(path.join(workspaceFolder().fsPath, '.rag-inspector', 'runs')).length;
    // Calls to the model: the preflight's model listing is not one.
    const calls = () => caseRequests(server.requests).length;
    const before = { requests: calls(), runs: runs() };

    answer = undefined;
    assert.equal(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile), 'cancelled');
    assert.equal(questions.length, 1);
    const usd = Number(/may cost up to \$(\d+\.\d+)/.exec(questions[0]!.message)?.[1]);
    assert.ok(usd > 0.05 && usd < 10, `estimate ${questions[0]!.message}`);
    assert.match(questions[0]!.detail, /^6 model calls/);
    assert.deepEqual({ requests: calls(), runs: runs() }, before, 'declined: no call, no run log');

    answer = 'Run';
    const summary = asSummary(await vscode.commands.executeCommand('ragInspector.runEvaluation', fixture.evalFile));
    assert.equal(questions.length, 2);
    assert.equal(summary.totals.cases, 6);
    assert.equal(calls(), before.requests + 6);
  });
});
