// The Get Started walkthrough: its steps, media and command links are real, and Open Example copies the bundled example that then runs.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { OpenExampleOutcome } from '../../../src/extension/walkthrough.js';
import { activatedExtension, note } from './extensionHost.js';

interface WalkthroughStep { id: string; title: string; description: string; media: { markdown?: string }; completionEvents?: string[] }

suite('Get Started walkthrough', () => {
  let exampleFolder: string | undefined;

  suiteTeardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (exampleFolder) await vscode.workspace.fs.delete(vscode.Uri.file(exampleFolder), { recursive: true });
  });

  test('every step has its markdown in the extension and links only to registered commands', async () => {
    const { extension } = await activatedExtension();
    const [walkthrough] = extension.packageJSON.contributes.walkthroughs as { id: string; steps: WalkthroughStep[] }[];
    assert.ok(walkthrough, 'no walkthrough contributed');
    assert.deepEqual(walkthrough.steps.map((s) => s.id), ['openExample', 'runEvaluation', 'openFailingCase', 'setApiKey', 'rerunOnSave']);
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const step of walkthrough.steps) {
      assert.ok(step.media.markdown && existsSync(path.join(extension.extensionPath, step.media.markdown)), `${step.id}: media ${step.media.markdown} is missing`);
      const links = [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]!);
      assert.ok(links.length > 0, `${step.id} has no button`);
      for (const command of [...links, ...(step.completionEvents ?? []).filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length))]) {
        assert.ok(registered.has(command), `${step.id} links to ${command}, which is not registered`);
      }
    }
  });

  test('Open Example copies examples/rgb (without run logs) into the workspace, opens its eval file, and it runs offline', async () => {
    const outcome = await vscode.commands.executeCommand<OpenExampleOutcome>('ragInspector.openExample');
    assert.equal(typeof outcome, 'object', `Open Example returned ${String(outcome)}`);
    const { folder, evalFile, copied } = outcome as { folder: string; evalFile: string; copied: boolean };
    exampleFolder = folder;
    assert.equal(copied, true);
    assert.equal(path.dirname(folder), vscode.workspace.workspaceFolders![0]!.uri.fsPath);
    for (const file of ['rgb-example.eval.yaml', 'en.jsonl', 'en_int.jsonl', 'en_fact.jsonl', 'zh.jsonl', 'my-rgb-prompt.prompt']) assert.ok(existsSync(path.join(folder, file)), file);
    // The template the example's suites render with (its method's built-in English RGB prompt), to edit in the last step.
    const { extensionPath } = (await activatedExtension()).extension;
    assert.equal(readFileSync(path.join(folder, 'my-rgb-prompt.prompt'), 'utf8'), readFileSync(path.join(extensionPath, 'prompts', 'rgb', 'en.prompt'), 'utf8'));
    assert.ok(!existsSync(path.join(folder, '.rag-inspector')), 'local run logs of the source must not be copied');
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, evalFile);

    const again = await vscode.commands.executeCommand<OpenExampleOutcome>('ragInspector.openExample');
    assert.equal((again as { copied: boolean }).copied, false, 'a second time opens the existing copy');

    const started = Date.now();
    const summary = await vscode.commands.executeCommand<{ status: string; totals: { cases: number; passed: number; failed: number; error: number } }>('ragInspector.runEvaluation', vscode.Uri.file(evalFile));
    note(`bundled example: ${summary.totals.cases} cases (${summary.totals.passed} passed, ${summary.totals.failed} failed) in ${Date.now() - started} ms`);
    assert.equal(summary.status, 'success');
    assert.equal(summary.totals.error, 0);
    assert.ok(summary.totals.failed > 0 && summary.totals.passed > 0, 'the baseline passes some cases and fails others');
  });
});
