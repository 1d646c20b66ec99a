// Activation and contributions, checked in a real extension host: commands registered, settings described, serializer in place.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedExtension, note } from './extensionHost.js';

const COMMANDS = [
  'ragInspector.runEvaluation',
  'ragInspector.rerunFailed',
  'ragInspector.rerunCase',
  'ragInspector.cancelRun',
  'ragInspector.resumeRun',
  'ragInspector.openInspector',
  'ragInspector.compareRuns',
  'ragInspector.setApiKey',
  'ragInspector.exportReport',
  'ragInspector.openExample',
  'ragInspector.generateCounterfactual',
  'ragInspector.importTraces',
  'ragInspector.explainCase',
  'ragInspector.explainFailed',
  'ragInspector.cancelExplanation',
  'ragInspector.sweepRetrieval',
  'ragInspector.buildIndex',
  'ragInspector.generateQuestions',
  'ragInspector.reviewQuestions',
];

interface Manifest {
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category: string }[];
    configuration: { properties: Record<string, { description?: string; markdownDescription?: string; default?: unknown }> };
    yamlValidation: { fileMatch: string; url: string }[];
  };
}

suite('activation', () => {
  test('the extension activates in Test mode and exposes its testing API', async () => {
    const { extension, testing } = await activatedExtension();
    assert.equal(extension.isActive, true);
    assert.ok(testing.logUri.fsPath.length > 0);
    note(`(VS Code ${vscode.version}, Node ${process.version}, remote ${vscode.env.remoteName ?? 'none'}, logUri ${testing.logUri.fsPath})`);
  });

  test('every command is contributed with the RAG Inspector category and registered', async () => {
    const { extension } = await activatedExtension();
    const manifest = extension.packageJSON as Manifest;
    assert.deepEqual(manifest.contributes.commands.map((c) => c.command).sort(), [...COMMANDS].sort());
    for (const c of manifest.contributes.commands) assert.equal(c.category, 'RAG Inspector', c.command);
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = COMMANDS.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `contributed but not registered: ${missing.join(', ')}`);
  });

  test('every setting has a description and the documented defaults', async () => {
    const { extension } = await activatedExtension();
    const properties = (extension.packageJSON as Manifest).contributes.configuration.properties;
    assert.deepEqual(Object.keys(properties).sort(), [
      'ragInspector.batch', 'ragInspector.codeLens.showPassing', 'ragInspector.concurrency', 'ragInspector.defaultModel', 'ragInspector.maxCostWithoutConfirm',
      'ragInspector.openaiBaseUrl', 'ragInspector.rerunOnSave',
    ]);
    for (const [name, property] of Object.entries(properties)) {
      assert.ok((property.description ?? property.markdownDescription ?? '').length > 20, `${name} needs a description`);
    }
    const config = vscode.workspace.getConfiguration('ragInspector');
    assert.equal(config.get('rerunOnSave'), true);
    assert.equal(config.get('concurrency'), null, 'unset: the eval file decides');
    assert.equal(config.get('batch'), false, 'off: the eval file decides');
  });

  test('eval files are validated against the contributed JSON schema', async () => {
    const { extension } = await activatedExtension();
    const manifest = extension.packageJSON as Manifest;
    assert.deepEqual(manifest.contributes.yamlValidation, [{ fileMatch: '*.eval.yaml', url: './media/eval.schema.json' }]);
  });

  test('the inspector panel serializer is registered, and the panel type activates the extension', async () => {
    const { extension } = await activatedExtension();
    assert.ok((extension.packageJSON as Manifest).activationEvents.includes('onWebviewPanel:ragInspector.inspector'));
    // VS Code allows one serializer per view type, so a second registration failing proves ours is in place.
    assert.throws(
      () => vscode.window.registerWebviewPanelSerializer('ragInspector.inspector', { deserializeWebviewPanel: async () => undefined }),
      /already registered/,
    );
  });
});
